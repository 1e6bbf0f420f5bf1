package dev.tally.demo.app;

import dev.tally.exposure.ExposureShaderLayout;
import dev.tally.graph.PassStats;
import dev.tally.readback.ReadbackRing;
import dev.tally.readback.ReadbackStats;
import dev.tally.readback.Sample;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The HUD's text: device, frame, per-pass GPU times, exposure, and the readback ring's counters. */
final class HudLines {
    private HudLines() {
    }

    /**
     * @param fixedDt    seconds per frame of a reproducible run, or 0: reproducible runs show no wall-clock
     *                   figures (fps, CPU and GPU times), so the same frame renders the same pixels
     * @param readbackAt where the exposure record starts in a readback sample, in floats
     */
    static List<String> of(String device, long frame, double fixedDt, double cpuMillis, PassStats passes, ReadbackRing ring,
                           int readbackAt, String error, String probe) {
        List<String> lines = new ArrayList<>();
        lines.add("Tally  " + device);
        if (fixedDt > 0) {
            lines.add(String.format(Locale.ROOT, "frame %d  fixed dt %.4f s", frame, fixedDt));
        } else {
            lines.add(String.format(Locale.ROOT, "frame %d  %.1f fps  cpu %.2f ms", frame, cpuMillis > 0 ? 1000 / Math.max(cpuMillis, 1e-3) : 0, cpuMillis));
            lines.add("GPU time per pass (median)");
            for (var e : passes.passes().entrySet()) {
                if (!e.getValue()) {
                    lines.add(String.format(Locale.ROOT, "  %-18s %8.1f us", e.getKey(), passes.medianMicros(e.getKey())));
                }
            }
        }
        var sample = ring.latest();
        if (sample.isPresent()) {
            Sample s = sample.get();
            float ev = s.floatAt(readbackAt + ExposureShaderLayout.EV);
            float target = s.floatAt(readbackAt + ExposureShaderLayout.TARGET_EV);
            lines.add(String.format(Locale.ROOT, "exposure %.2f EV  target %.2f EV", ev, target));
            lines.add(String.format(Locale.ROOT, "total %.0f (frame %d, %d late)", s.floatAt(0), s.frame(), s.lag()));
        } else {
            lines.add("exposure: no sample yet (first readback in " + ring.slotCount() + " frames)");
        }
        if (probe != null) {
            lines.add(probe);
        }
        ReadbackStats r = ring.stats();
        lines.add(String.format(Locale.ROOT, "readback ring: %d slots, %s", r.slots(), r.mode().name().toLowerCase(Locale.ROOT)));
        lines.add(String.format(Locale.ROOT, "  samples %d  lag %d (%d..%d)", r.samples(), r.lagFrames(), r.lagMin(), r.lagMax()));
        if (fixedDt <= 0) {
            lines.add(String.format(Locale.ROOT, "  age %.2f ms (median, %s)", r.ageMillisMedian(), r.timeSource().name().toLowerCase(Locale.ROOT)));
        }
        lines.add(String.format(Locale.ROOT, "  stale %d  rejected %d", r.stale(), r.rejected()));
        lines.add(String.format(Locale.ROOT, "  not ready %d  waits %d", r.notReady(), r.blockingWaits()));
        if (error != null) {
            lines.add("error: " + error);
        }
        return lines;
    }
}
