package dev.tally.internal.exposure;

import dev.tally.exposure.ExposureMode;

import dev.tally.exposure.Metering;

import dev.tally.exposure.ExposureShaderLayout;

import dev.tally.exposure.ExposureSettings;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.*;

class ExposureSettingsTest {
    private static final ExposureSettings D = ExposureSettings.DEFAULTS;

    @Test
    void defaults() {
        assertEquals(-10f, D.minEV());
        assertEquals(20f, D.maxEV());
        assertEquals(0.10f, D.lowPercentile());
        assertEquals(0.90f, D.highPercentile());
        assertEquals(0.18f, D.middleGrey());
        assertEquals(0f, D.compensation());
        assertEquals(3f, D.brightenSpeed());
        assertEquals(1f, D.darkenSpeed());
        assertEquals(Metering.UNIFORM, D.metering());
    }

    private static void rejects(String fragment, Executable make) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, make);
        assertTrue(e.getMessage().contains(fragment), "message '" + e.getMessage() + "' should mention '" + fragment + "'");
    }

    @Test
    void rangesAreValidated() {
        rejects("minEV must be less than maxEV", () -> D.withRange(5f, 5f));
        rejects("minEV must be less than maxEV", () -> D.withRange(6f, 5f));
        // 255 / 1e-37 overflows a float: every pixel at minEV would bin as 0 x Inf, NaN.
        rejects("too narrow a range for 255 histogram bins", () -> D.withRange(0f, 1e-37f));
        rejects("too narrow a range for 255 histogram bins", () -> D.withRange(0f, Float.MIN_VALUE));
        rejects("minEV must be a finite number", () -> D.withRange(Float.NaN, 5f));
        rejects("maxEV must be a finite number", () -> D.withRange(0f, Float.POSITIVE_INFINITY));
        rejects("within [-160.0, 160.0]", () -> D.withRange(-200f, 0f));
        rejects("0 <= lowPercentile < highPercentile <= 1", () -> D.withPercentiles(0.5f, 0.5f));
        rejects("0 <= lowPercentile < highPercentile <= 1", () -> D.withPercentiles(-0.1f, 0.5f));
        rejects("0 <= lowPercentile < highPercentile <= 1", () -> D.withPercentiles(0.1f, 1.5f));
        rejects("highPercentile must be a finite number", () -> D.withPercentiles(0.1f, Float.NaN));
        rejects("middleGrey must be greater than 0", () -> D.withMiddleGrey(0f));
        rejects("middleGrey must be a finite number", () -> D.withMiddleGrey(Float.POSITIVE_INFINITY));
        rejects("compensation must be a finite number", () -> D.withCompensation(Float.NaN));
        rejects("brightenSpeed must be greater than 0", () -> D.withSpeeds(0f, 1f));
        rejects("darkenSpeed must be greater than 0", () -> D.withSpeeds(1f, -2f));
        rejects("darkenSpeed must be a finite number", () -> D.withSpeeds(1f, Float.POSITIVE_INFINITY));
        rejects("metering must not be null", () -> D.withMetering(null));
        // Edges that are allowed.
        assertDoesNotThrow(() -> D.withPercentiles(0f, 1f));
        assertDoesNotThrow(() -> D.withRange(-160f, 160f));
        assertDoesNotThrow(() -> D.withCompensation(-3f));
    }

    @Test
    void derivedPushConstantValues() {
        assertEquals(8.5f, D.binsPerEV());
        assertEquals(30f / 255f, D.evPerBin());
        assertEquals((float) (Math.log(0.18) / Math.log(2)), D.log2MiddleGrey());
    }

    @Test
    void pushConstantsArePackedInShaderOrder() {
        ByteBuffer h = ByteBuffer.allocate(ExposureShaderLayout.HISTOGRAM_PUSH_BYTES).order(ByteOrder.nativeOrder());
        ExposureShaderLayout.putHistogramPush(h, D);
        assertEquals(-10f, h.getFloat(0));
        assertEquals(8.5f, h.getFloat(4));
        ExposureSettings p = D.withCompensation(0.5f).withPhysical(4f, 0.02f, 400f).withClamps(-3f, 9f).withTransition(2f)
                .withStability(0.2f, 0.5f);
        ByteBuffer e = ByteBuffer.allocate(ExposureShaderLayout.EXPOSURE_PUSH_BYTES).order(ByteOrder.nativeOrder());
        ExposureShaderLayout.putExposurePush(e, p, 0.016f, true);
        assertEquals(72, ExposureShaderLayout.EXPOSURE_PUSH_BYTES);
        assertEquals(0.016f, e.getFloat(0));
        assertEquals(1, e.getInt(4));
        assertEquals(ExposureMode.PHYSICAL.code(), e.getInt(8));
        assertEquals(-10f, e.getFloat(12));
        assertEquals(D.evPerBin(), e.getFloat(16));
        assertEquals(0.1f, e.getFloat(20));
        assertEquals(0.9f, e.getFloat(24));
        assertEquals(D.log2MiddleGrey(), e.getFloat(28));
        assertEquals(0.5f, e.getFloat(32));
        assertEquals(3f, e.getFloat(36));
        assertEquals(1f, e.getFloat(40));
        assertEquals(2f, e.getFloat(44));
        assertEquals(0.2f, e.getFloat(48));
        assertEquals((float) (1 - Math.exp(-0.016 / 0.5)), e.getFloat(52), 1e-7f, "blend 1 - exp(-dt / tau)");
        assertEquals(-3f, e.getFloat(56));
        assertEquals(9f, e.getFloat(60));
        // f/4, 1/50 s, ISO 400: EV100 = log2(16 * 50 / 4) = log2(200), plus log2(1.2).
        assertEquals(Math.log(200) / Math.log(2) + Math.log(1.2) / Math.log(2), e.getFloat(64), 1e-5);
        assertEquals(0.01f, e.getFloat(68), "settle: min(band, 0.01)");
    }

    @Test
    void physicalAndManualModesGiveTheirEv() {
        // Sunny 16: f/16, 1/100 s, ISO 100 is EV100 = log2(25600) = 14.64.
        assertEquals(14.643856f, D.withPhysical(16f, 0.01f, 100f).physicalEV100(), 1e-5f);
        // Doubling ISO is one stop less EV100; one stop more aperture (x sqrt 2) one stop more.
        assertEquals(13.643856f, D.withPhysical(16f, 0.01f, 200f).physicalEV100(), 1e-5f);
        assertEquals(1f, D.withPhysical(1.4142135f, 1f, 100f).physicalEV100(), 1e-5f);
        assertEquals(-2.5f, D.withManual(-2.5f).fixedEV());
        assertEquals(0f, D.fixedEV(), "auto mode has no fixed EV");
    }

    @Test
    void theFilterBlendIsFrameRateIndependent() {
        ExposureSettings s = D.withStability(0.1f, 0.25f);
        // Two frames of dt keep (1 - blend(dt))^2 of the past: the same as one frame of 2 dt.
        float keepTwo = (1 - s.histogramBlend(1 / 120f)) * (1 - s.histogramBlend(1 / 120f));
        assertEquals(1 - s.histogramBlend(1 / 60f), keepTwo, 1e-6f);
        assertEquals(1f, D.withStability(0.1f, 0f).histogramBlend(1 / 60f), "filter off: this frame only");
        assertEquals(0f, s.histogramBlend(0f));
        assertEquals(0f, s.histogramBlend(Float.NaN));
    }

    @Test
    void newControlsAreValidated() {
        rejects("clampMinEV must not exceed clampMaxEV", () -> D.withClamps(3f, 2f));
        rejects("transitionEV must be in (0, 20]", () -> D.withTransition(0f));
        rejects("deadBandEV must be in [0.0, 10.0]", () -> D.withStability(-0.1f, 0.25f));
        rejects("histogramFilterSeconds must be a finite number", () -> D.withStability(0.1f, Float.NaN));
        rejects("histogramFilterSeconds must be in [0.0, 60.0]", () -> D.withStability(0.1f, 61f));
        rejects("aperture must be in [0.5, 256.0]", () -> D.withPhysical(0.1f, 0.01f, 100f));
        rejects("shutterSeconds must be in", () -> D.withPhysical(8f, 0f, 100f));
        rejects("iso must be in [1.0, 1000000.0]", () -> D.withPhysical(8f, 0.01f, 0f));
        rejects("manualEV must be a finite number", () -> D.withManual(Float.POSITIVE_INFINITY));
        rejects("manualEV must be in [-160.0, 160.0]", () -> D.withManual(200f));
        rejects("curve must not be null", () -> D.withCurve(null));
    }

    @Test
    void histogramGroupCounts() {
        assertArrayEquals(new int[]{480, 68}, ExposureShaderLayout.histogramGroupCounts(7680, 4320, 4));
        assertArrayEquals(new int[]{1, 1}, ExposureShaderLayout.histogramGroupCounts(1, 1, 4));
        assertArrayEquals(new int[]{2, 2}, ExposureShaderLayout.histogramGroupCounts(17, 65, 4));
        assertArrayEquals(new int[]{2, 5}, ExposureShaderLayout.histogramGroupCounts(17, 65, 1));
    }
}
