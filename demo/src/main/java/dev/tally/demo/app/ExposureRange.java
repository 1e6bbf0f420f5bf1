package dev.tally.demo.app;

import dev.tally.exposure.ExposureShaderLayout;
import dev.tally.readback.Sample;

/**
 * The range of the applied and the target (metered) EV over a run, from the readback samples as
 * they arrive; NaN before the first measured sample.
 */
public final class ExposureRange {
    private final int recordAt;
    private long lastFrame = -1;
    private float evMin = Float.NaN, evMax = Float.NaN, targetMin = Float.NaN, targetMax = Float.NaN;

    /** @param recordAt where the exposure record starts in a sample, in floats */
    ExposureRange(int recordAt) {
        this.recordAt = recordAt;
    }

    /** Takes in a sample once (a sample seen again is ignored); samples with no measurement count for nothing. */
    void observe(Sample s) {
        if (s != null) {
            observe(s.frame(), s.floatAt(recordAt + ExposureShaderLayout.VALID), s.floatAt(recordAt + ExposureShaderLayout.EV),
                    s.floatAt(recordAt + ExposureShaderLayout.TARGET_EV));
        }
    }

    /** The same from the frame's newest sample, without a copy of it. */
    void observe(LatestReadback s) {
        if (s.present()) {
            observe(s.frame(), s.value(recordAt + ExposureShaderLayout.VALID), s.value(recordAt + ExposureShaderLayout.EV),
                    s.value(recordAt + ExposureShaderLayout.TARGET_EV));
        }
    }

    private void observe(long frame, float valid, float ev, float target) {
        if (frame == lastFrame || valid == 0) {
            return;
        }
        lastFrame = frame;
        evMin = Float.isNaN(evMin) ? ev : Math.min(evMin, ev);
        evMax = Float.isNaN(evMax) ? ev : Math.max(evMax, ev);
        targetMin = Float.isNaN(targetMin) ? target : Math.min(targetMin, target);
        targetMax = Float.isNaN(targetMax) ? target : Math.max(targetMax, target);
    }

    public float evMin() {
        return evMin;
    }

    public float evMax() {
        return evMax;
    }

    public float targetMin() {
        return targetMin;
    }

    public float targetMax() {
        return targetMax;
    }
}
