package dev.tally.internal.exposure;

import dev.tally.internal.engine.Engine;

import dev.tally.exposure.ExposureCurve;

import dev.tally.exposure.ExposureMode;

import dev.tally.exposure.ExposureSettings;

import dev.tally.GpuTestBase;
import dev.tally.internal.shader.ShaderCompiler;
import dev.tally.internal.shader.ShaderSources;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static dev.tally.exposure.ExposureShaderLayout.*;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Every exposure control on the device (lavapipe in CI, under validation) against the CPU model over
 * multi-frame sequences, and the behaviour the controls exist for: no flicker, a step that settles in
 * the time the speeds imply, a darkening scene with no jump.
 */
class ExposureControlsGpuTest extends GpuTestBase {
    private static final int W = 32;
    private static final int H = 32;
    private static final float DT = 1 / 60f;
    private static final ExposureSettings D = ExposureSettings.DEFAULTS;
    private ShaderCompiler compiler;

    @BeforeAll
    void openCompiler() {
        compiler = new ShaderCompiler(ShaderSources.directory(ExposureShadersCompileTest.shaderDirectory()), null);
    }

    @AfterAll
    void closeCompiler() {
        compiler.close();
    }

    private static float[] scene(double centreEV, double spreadEV) {
        return ExposureSequence.greyImage(ExposureSequence.gradient(W * H, centreEV, spreadEV));
    }

    // ---- every control, GPU against the model ------------------------------------------------------

    static Stream<Arguments> controls() {
        ExposureCurve curve = ExposureCurve.of(new float[]{-4f, 0f, 6f}, new float[]{-2f, 0f, 1f});
        return Stream.of(
                Arguments.of("defaults", D),
                Arguments.of("filter and band off", D.withStability(0f, 0f)),
                Arguments.of("transition 1 EV, slow filter, wide band", D.withTransition(1f).withStability(0.5f, 1f)),
                Arguments.of("clamps", D.withClamps(-1f, 4f)),
                Arguments.of("curve", D.withCurve(curve)),
                Arguments.of("one-point curve and compensation", D.withCurve(ExposureCurve.of(new float[]{2f}, new float[]{0.75f}))
                        .withCompensation(-1.25f)),
                Arguments.of("manual", D.withManual(3.5f).withCompensation(0.5f)),
                Arguments.of("physical", D.withPhysical(2.8f, 1 / 125f, 400f)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("controls")
    void everyControlMatchesTheModelOverASequence(String name, ExposureSettings s) {
        float[] a = scene(0, 4), bright = scene(6, 3), dark = scene(-5, 2), black = ExposureSequence.greyImage(new double[W * H]);
        java.util.Arrays.fill(black, 0f);
        // {scene, dt, reset}: snap, brighten, a cut, darken, nothing measurable, back again at other frame rates.
        List<Object[]> frames = new ArrayList<>();
        for (int i = 0; i < 4; i++) frames.add(new Object[]{a, DT, false});
        for (int i = 0; i < 40; i++) frames.add(new Object[]{bright, DT, false});
        frames.add(new Object[]{dark, DT, true});
        for (int i = 0; i < 30; i++) frames.add(new Object[]{a, i % 3 == 0 ? 0.1f : DT, false});
        for (int i = 0; i < 3; i++) frames.add(new Object[]{black, DT, false});
        for (int i = 0; i < 40; i++) frames.add(new Object[]{dark, 1 / 144f, false});
        frames.add(new Object[]{bright, 0f, false});
        for (int i = 0; i < 20; i++) frames.add(new Object[]{bright, 1 / 30f, false});
        Set<Float> phases = new HashSet<>();
        Set<Float> clampHits = new HashSet<>();
        float largestCurve = 0;
        try (ExposureGpuHarness gpu = new ExposureGpuHarness(Engine.of(runtime).context(), compiler)) {
            ExposureSequence run = new ExposureSequence(gpu, W, H);
            for (Object[] f : frames) {
                float[] r = run.frame((float[]) f[0], (float) f[1], (boolean) f[2], s);
                phases.add(r[PHASE]);
                clampHits.add(r[CLAMP_HIT]);
                largestCurve = Math.max(largestCurve, Math.abs(r[CURVE_EV]));
                if (s.mode() != ExposureMode.AUTO) {
                    assertEquals(s.fixedEV() - s.compensation(), r[EV], 1e-6f, "a fixed mode applies its EV at once");
                }
            }
            System.out.printf("%s: %d frames, largest GPU - model difference %.2e EV%n", name, frames.size(), run.worstDifference());
        }
        // The sequence reaches what the control is about (a control that did nothing would not).
        if (s.mode() == ExposureMode.AUTO) {
            assertTrue(phases.containsAll(List.of((float) PHASE_SNAP, (float) PHASE_LINEAR, (float) PHASE_EXPONENTIAL)), "phases " + phases);
        }
        if (s.deadBandEV() > 0 && s.mode() == ExposureMode.AUTO) {
            assertTrue(phases.contains((float) PHASE_HOLDING), "phases " + phases);
        }
        if (s.clampMinEV() > ExposureSettings.EV_LIMIT_LOW) {
            assertTrue(clampHits.containsAll(List.of(-1f, 1f)), "both clamps hit: " + clampHits);
        }
        if (s.curve().points() > 0) {
            assertTrue(largestCurve > 0.5f, "the curve moved the target by " + largestCurve);
        }
    }

    // ---- the one normalize rule ----------------------------------------------------------------------

    @Test
    void normalizeFollowsOneRuleForEveryTotal() {
        int count = 300;   // not a multiple of the group size; the flag lands at [count]
        float[] values = new float[count];
        for (int i = 0; i < count; i++) {
            values[i] = (i % 7) - 2.5f;
        }
        try (ExposureGpuHarness gpu = new ExposureGpuHarness(Engine.of(runtime).context(), compiler)) {
            dev.tally.internal.vk.TrackedBuffer in = gpu.hostBuffer("test.values", 4L * count);
            dev.tally.internal.vk.TrackedBuffer total = gpu.hostBuffer("test.total", 4);
            dev.tally.internal.vk.TrackedBuffer out = gpu.hostBuffer("test.out", 4L * (count + 1));
            ExposureGpuHarness.writeFloats(in, values);
            ExposureGpuHarness.EnginePass normalize = gpu.enginePass(NORMALIZE, java.util.Map.of(), 3, NORMALIZE_PUSH_BYTES);
            for (float t : new float[]{0f, -0f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 2.5f, -4f, 1e-30f}) {
                ExposureGpuHarness.writeFloats(total, new float[]{t});
                ExposureGpuHarness.writeFloats(out, new float[count + 1]);
                gpu.context().submitAndWait(cmd -> {
                    try (org.lwjgl.system.MemoryStack stack = org.lwjgl.system.MemoryStack.stackPush()) {
                        normalize.dispatch(cmd, List.of(in, total, out), stack.malloc(4).putInt(0, count));
                    }
                    ExposureGpuHarness.computeToHost(cmd);
                });
                float[] expected = ExposureModel.normalizeAny(values, t);
                assertArrayEquals(expected, ExposureGpuHarness.readFloats(out, count + 1), "total " + t);
                assertEquals(Float.isFinite(t) && t != 0f ? 1f : 0f, expected[count], "the model's rule, total " + t);
            }
        }
    }

    @Test
    void exposurePassNormalizesByTheSameRule() {
        float[] bins = new float[BINS];
        for (int i = 0; i < BINS; i++) {
            bins[i] = (i * 37) % 101 + 0.25f * (i % 3);
        }
        try (ExposureGpuHarness gpu = new ExposureGpuHarness(Engine.of(runtime).context(), compiler)) {
            dev.tally.internal.vk.TrackedBuffer in = gpu.hostBuffer("test.bins", BINS_BYTES);
            dev.tally.internal.vk.TrackedBuffer total = gpu.hostBuffer("test.total", TOTAL_BYTES);
            dev.tally.internal.vk.TrackedBuffer out = gpu.hostBuffer("test.normalized", NORMALIZED_BYTES);
            List<dev.tally.internal.vk.TrackedBuffer> rest = List.of(gpu.hostBuffer("test.filteredA", NORMALIZED_BYTES), gpu.hostBuffer("test.filteredB", NORMALIZED_BYTES),
                    gpu.hostBuffer("test.recordA", EXPOSURE_BYTES), gpu.hostBuffer("test.recordB", EXPOSURE_BYTES),
                    gpu.hostBuffer("test.curve", CURVE_TABLE_BYTES));
            ExposureGpuHarness.writeFloats(in, bins);
            ExposureGpuHarness.writeFloats(rest.get(4), ExposureSettings.DEFAULTS.curve().bake());
            ExposureGpuHarness.EnginePass exposure = gpu.enginePass(EXPOSURE, java.util.Map.of(), EXPOSURE_BINDINGS, EXPOSURE_PUSH_BYTES);
            for (float t : new float[]{0f, -0f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 3.7f, ExposureModel.total(bins), 1e-30f}) {
                ExposureGpuHarness.writeFloats(total, new float[]{t});
                ExposureGpuHarness.writeFloats(out, new float[NORMALIZED_FLOATS]);
                gpu.context().submitAndWait(cmd -> {
                    try (org.lwjgl.system.MemoryStack stack = org.lwjgl.system.MemoryStack.stackPush()) {
                        java.nio.ByteBuffer push = putExposurePush(stack.malloc(EXPOSURE_PUSH_BYTES), ExposureSettings.DEFAULTS, 1 / 60f, true);
                        List<dev.tally.internal.vk.TrackedBuffer> bindings = new ArrayList<>(List.of(in, total, out));
                        bindings.addAll(rest);
                        exposure.dispatch(cmd, bindings, push.rewind());
                    }
                    ExposureGpuHarness.computeToHost(cmd);
                });
                assertArrayEquals(ExposureModel.normalizeAny(bins, t), ExposureGpuHarness.readFloats(out, NORMALIZED_FLOATS), "total " + t);
            }
        }
    }

    // ---- flicker -----------------------------------------------------------------------------------

    /**
     * Peak-to-peak applied EV while a light flickers +-0.3 EV at {@code hertz} (a square wave) for 4 s,
     * after 1 s of the steady scene at the flicker's mean; the onset counts.
     */
    private float flicker(ExposureSettings s, double hertz) {
        float[] steady = scene(0, 4), high = scene(0.3, 4), low = scene(-0.3, 4);
        float min = Float.POSITIVE_INFINITY, max = Float.NEGATIVE_INFINITY;
        try (ExposureGpuHarness gpu = new ExposureGpuHarness(Engine.of(runtime).context(), compiler)) {
            ExposureSequence run = new ExposureSequence(gpu, W, H);
            for (int f = 0; f < 60; f++) {
                run.frame(steady, DT, false, s);
            }
            for (int f = 0; f < 240; f++) {
                boolean on = (int) Math.floor(f * (double) DT * 2 * hertz) % 2 == 0;
                float[] r = run.frame(on ? high : low, DT, false, s);
                min = Math.min(min, r[EV]);
                max = Math.max(max, r[EV]);
            }
        }
        return max - min;
    }

    /**
     * The histogram's moving average (time constant tau) is a first-order low-pass: the target's swing
     * is at most the square wave's fundamental (4/pi x 0.6 EV peak to peak) attenuated by
     * 1 / sqrt(1 + (2 pi f tau)^2), and the applied EV, which follows the target, swings no more. From
     * 2 Hz up that swing stays inside the dead band (+-0.1 EV), so the exposure holds within 0.05 EV;
     * at 1 Hz the filtered swing leaves the band and the exposure follows part of it.
     */
    @ParameterizedTest(name = "{0} Hz")
    @org.junit.jupiter.params.provider.ValueSource(doubles = {1, 2, 4, 8})
    void aFlickeringLightMovesTheExposureNoMoreThanTheFilteredSwing(double hertz) {
        float withDefaults = flicker(D, hertz);
        float unfiltered = flicker(D.withStability(0f, 0f), hertz);
        double tau = D.histogramFilterSeconds();
        double filteredSwing = 4 / Math.PI * 0.6 / Math.sqrt(1 + Math.pow(2 * Math.PI * hertz * tau, 2));
        System.out.printf("flicker +-0.3 EV at %.0f Hz: applied EV peak to peak %.4f EV with the defaults (filtered swing %.4f), "
                + "%.4f EV with filter and band off%n", hertz, withDefaults, filteredSwing, unfiltered);
        assertTrue(withDefaults <= filteredSwing, "defaults: " + withDefaults + " EV peak to peak, above the filtered swing " + filteredSwing);
        if (hertz >= 2) {
            assertTrue(withDefaults <= 0.05f, "defaults at " + hertz + " Hz: " + withDefaults + " EV peak to peak");
        }
        assertTrue(unfiltered > 0.05f, "filter and band off: " + unfiltered + " EV peak to peak, expected over the 0.05 limit");
        assertTrue(unfiltered > 2 * withDefaults + 0.02f, "the filter and the band matter: " + unfiltered + " vs " + withDefaults);
    }

    // ---- steps ---------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0} EV")
    @org.junit.jupiter.params.provider.ValueSource(floats = {8f, -8f})
    void aStepSettlesInTheTimeTheSpeedsImplyWithoutOvershoot(float step) {
        ExposureSettings s = D;
        float[] before = scene(0, 3), after = scene(step, 3);
        float speed = step > 0 ? s.brightenSpeed() : s.darkenSpeed();
        double within = Math.log(1.01) / Math.log(2);        // 1 % in brightness
        double implied = ExposureModel.convergenceSeconds(Math.abs(step), within, speed, s.transitionEV());
        // The histogram filter delays the target: the window holds only the new scene once its weight
        // passes highPercentile's complement, after filterSeconds * ln(10).
        double filterLag = s.histogramFilterSeconds() * Math.log(10);
        int settleFrames = (int) Math.ceil((implied + filterLag) / DT) + 30;
        List<Float> evs = new ArrayList<>();
        float finalTarget;
        try (ExposureGpuHarness gpu = new ExposureGpuHarness(Engine.of(runtime).context(), compiler)) {
            ExposureSequence run = new ExposureSequence(gpu, W, H);
            for (int f = 0; f < 30; f++) {
                run.frame(before, DT, false, s);
            }
            float[] r = null;
            for (int f = 0; f < settleFrames; f++) {
                r = run.frame(after, DT, false, s);
                evs.add(r[EV]);
            }
            finalTarget = r[TARGET_EV];
        }
        float start = evs.get(0);
        int settled = -1;
        for (int f = 0; f < evs.size(); f++) {
            float ev = evs.get(f);
            float previous = f == 0 ? start : evs.get(f - 1);
            assertTrue(step > 0 ? ev >= previous && ev <= finalTarget : ev <= previous && ev >= finalTarget,
                    "frame " + f + ": " + previous + " -> " + ev + " toward " + finalTarget + " (monotone, no overshoot)");
            if (Math.abs(ev - finalTarget) <= within) {
                if (settled < 0) {
                    settled = f;
                }
            } else {
                assertTrue(settled < 0, "left the 1 % band again at frame " + f);
            }
        }
        assertTrue(settled >= 0, "never settled");
        double seconds = (settled + 1) * (double) DT;
        System.out.printf("%+.0f EV step: within 1 %% after %.3f s; speeds imply %.3f s, filter lag at most %.3f s%n",
                step, seconds, implied, filterLag);
        assertTrue(seconds >= implied - DT, "faster than the speeds allow: " + seconds + " s < " + implied + " s");
        assertTrue(seconds <= implied + filterLag + 2 * DT, "slower than the speeds imply: " + seconds + " s > " + implied + " + " + filterLag);
    }

    // ---- darkening -----------------------------------------------------------------------------------

    /** The target EV, frame by frame, of a scene darkened 0.1 EV per frame over 20 stops. */
    private float[] darkeningTargets(ExposureSettings s) {
        float[] targets = new float[201];
        try (ExposureGpuHarness gpu = new ExposureGpuHarness(Engine.of(runtime).context(), compiler)) {
            ExposureSequence run = new ExposureSequence(gpu, W, H);
            for (int k = 0; k <= 200; k++) {
                // A dark room (70 %, EV -1) with a bright window (30 %, EV +5), darkened: the room leaves
                // the range (minEV -10) from step 80 on, the window from step 140 on. Were pixels below
                // the range dropped, the window alone would be metered and the target would jump up.
                double[] evs = ExposureSequence.room(W * H, -1 - 0.1 * k, 5 - 0.1 * k, 0.3);
                targets[k] = run.frame(ExposureSequence.greyImage(evs), DT, false, s)[TARGET_EV];
            }
        }
        return targets;
    }

    @ParameterizedTest(name = "filter and band {0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"on", "off"})
    void aDarkeningSceneMovesTheTargetSmoothly(String stability) {
        ExposureSettings s = stability.equals("on") ? D : D.withStability(0f, 0f);
        float[] targets = darkeningTargets(s);
        float largest = 0;
        for (int k = 1; k < targets.length; k++) {
            float move = targets[k] - targets[k - 1];
            assertTrue(move <= 1e-5f, "step " + k + ": the target rose by " + move + " EV as the scene darkened");
            assertTrue(-move <= 0.3f, "step " + k + ": the target jumped by " + move + " EV");
            largest = Math.max(largest, -move);
        }
        System.out.printf("darkening 20 stops in 0.1 EV steps (filter and band %s): target %.3f -> %.3f EV, largest step %.4f EV%n",
                stability, targets[0], targets[200], largest);
        // The scene ends entirely below the histogram's range: the target rests at bin 1, the range's edge.
        assertEquals(ExposureModel.binCentreEV(1, s) - s.log2MiddleGrey(), targets[200], 1e-4f);
    }
}
