package dev.tally.demo.app;

import dev.tally.exposure.ExposureShaderLayout;
import dev.tally.graph.PassStats;
import dev.tally.readback.ReadbackRing;
import dev.tally.readback.Sample;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The words on the HUD and on the status line, from the ring's newest sample and the graph's timings. */
final class HudText {
    private final String device;
    private final double fixedDt;

    HudText(String device, double fixedDt) {
        this.device = device;
        this.fixedDt = fixedDt;
    }

    List<String> lines(long frame, double cpuMillis, PassStats passes, ReadbackRing ring, String error) {
        List<String> lines = new ArrayList<>();
        lines.add("Tally  " + device);
        if (fixedDt > 0) {
            // Reproducible runs show no wall-clock figures, so the same frame renders the same pixels.
            lines.add(String.format(Locale.ROOT, "frame %d  fixed dt %.4f s", frame, fixedDt));
        } else {
            lines.add(String.format(Locale.ROOT, "frame %d  %.1f fps  cpu %.2f ms", frame, cpuMillis > 0 ? 1000 / Math.max(cpuMillis, 1e-3) : 0,
                    cpuMillis));
            for (var e : passes.passes().entrySet()) {
                if (!e.getValue()) {
                    lines.add(String.format(Locale.ROOT, "  %-18s %8.1f us", e.getKey(), passes.medianMicros(e.getKey())));
                }
            }
        }
        Optional<Sample> sample = ring.latest();
        if (sample.isPresent()) {
            Sample s = sample.get();
            float ev = s.floatAt(DemoApp.READBACK_EXPOSURE + ExposureShaderLayout.EV);
            float meanLog = s.floatAt(DemoApp.READBACK_EXPOSURE + ExposureShaderLayout.MEAN_LOG_LUM);
            lines.add(String.format(Locale.ROOT, "exposure %.2f EV  avg lum %.4f", ev, Math.pow(2, meanLog)));
            lines.add(String.format(Locale.ROOT, "total %.0f (frame %d, %d late)", s.floatAt(0), s.frame(), s.lag()));
        } else {
            lines.add("total - (no readback sample yet; the first arrives after " + ring.slotCount() + " frames)");
        }
        if (error != null) {
            lines.add("shader error: " + error);
        }
        return lines;
    }

    String status(long frame, double seconds, ReadbackRing ring) {
        Optional<Sample> s = ring.latest();
        String ev = s.map(x -> String.format(Locale.ROOT, "%.2f EV", x.floatAt(DemoApp.READBACK_EXPOSURE + ExposureShaderLayout.EV)))
                .orElse("- (no readback sample yet)");
        String total = s.map(x -> String.format(Locale.ROOT, "%.0f (frame %d, %d late)", x.floatAt(0), x.frame(), x.lag())).orElse("-");
        return String.format(Locale.ROOT, "frame %d  %.1f fps  exposure %s  total %s", frame, frame / seconds, ev, total);
    }
}
