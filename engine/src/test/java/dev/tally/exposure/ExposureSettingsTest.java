package dev.tally.exposure;

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
        ByteBuffer e = ByteBuffer.allocate(ExposureShaderLayout.EXPOSURE_PUSH_BYTES).order(ByteOrder.nativeOrder());
        ExposureShaderLayout.putExposurePush(e, D.withCompensation(0.5f), 0.016f, true);
        assertEquals(0.016f, e.getFloat(0));
        assertEquals(1, e.getInt(4));
        assertEquals(-10f, e.getFloat(8));
        assertEquals(D.evPerBin(), e.getFloat(12));
        assertEquals(0.1f, e.getFloat(16));
        assertEquals(0.9f, e.getFloat(20));
        assertEquals(D.log2MiddleGrey(), e.getFloat(24));
        assertEquals(0.5f, e.getFloat(28));
        assertEquals(3f, e.getFloat(32));
        assertEquals(1f, e.getFloat(36));
    }

    @Test
    void histogramGroupCounts() {
        assertArrayEquals(new int[]{480, 68}, ExposureShaderLayout.histogramGroupCounts(7680, 4320, 4));
        assertArrayEquals(new int[]{1, 1}, ExposureShaderLayout.histogramGroupCounts(1, 1, 4));
        assertArrayEquals(new int[]{2, 2}, ExposureShaderLayout.histogramGroupCounts(17, 65, 4));
        assertArrayEquals(new int[]{2, 5}, ExposureShaderLayout.histogramGroupCounts(17, 65, 1));
    }
}
