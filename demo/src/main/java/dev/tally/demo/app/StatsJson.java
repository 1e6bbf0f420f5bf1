package dev.tally.demo.app;

import dev.tally.graph.AsyncMode;
import dev.tally.Tally;
import dev.tally.graph.AsyncLane;
import dev.tally.graph.PassStats;
import dev.tally.readback.ReadbackStats;

import dev.tally.exposure.ExposureShaderLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The demo's --stats-json document. */
public final class StatsJson {
    private StatsJson() {
    }

    /**
     * The run's document: {@code range} is the applied EV's range (evMin, evMax) and the metered target's (targetEvMin,
     * targetEvMax); with {@code async}, the async block (mode, queues the device gave, passes placed on the async lane,
     * auto's choice and saving).
     */
    public static String render(Tally tally, int width, int height, DemoApp.Summary s, String metering,
                                long swapchainRecreations, ExposureRange range, boolean async) {
        PassStats passes = tally.passStats();
        StringBuilder b = new StringBuilder("{");
        b.append("\"device\": ").append(str(tally.device().name()));
        b.append(", \"width\": ").append(width).append(", \"height\": ").append(height);
        b.append(", \"frames\": ").append(s.frames()).append(", \"framesInFlight\": ").append(tally.framesInFlight());
        b.append(",\n \"validation\": {\"enabled\": ").append(tally.diagnostics().validationEnabled()).append(", \"errors\": ")
                .append(tally.diagnostics().validationErrors()).append(", \"warnings\": ").append(tally.diagnostics().validationWarnings()).append("}");
        List<String> rows = new ArrayList<>();
        for (Map.Entry<String, Boolean> e : passes.passes().entrySet()) {
            rows.add(String.format(Locale.ROOT, "{\"name\": %s, \"gpuMicrosMedian\": %s, \"culled\": %s}", str(e.getKey()),
                    num(passes.medianMicros(e.getKey())), e.getValue()));
        }
        b.append(",\n \"passes\": [").append(String.join(",\n   ", rows)).append("]");
        ReadbackStats r = s.readback();
        b.append(",\n \"frame\": {\"pacingWaits\": ").append(s.pacing().count()).append(", \"pacingMicros\": ").append(num(s.pacing().micros()))
                .append("}");
        b.append(",\n \"readback\": {\"mode\": ").append(str(s.readbackMode())).append(", \"slots\": ").append(r.slots()).append(", \"samples\": ").append(r.samples())
                .append(", \"lagFrames\": ").append(r.lagFrames()).append(", \"notReady\": ").append(r.notReady())
                .append(", \"blockingWaits\": ").append(r.blockingWaits())
                .append(", \"lagMin\": ").append(r.lagMin()).append(", \"lagMax\": ").append(r.lagMax())
                .append(", \"ageMillisMedian\": ").append(num(r.ageMillisMedian())).append(", \"timeSource\": ").append(str(r.timeSource().name().toLowerCase(Locale.ROOT)))
                .append(", \"stale\": ").append(r.stale()).append(", \"rejected\": ").append(r.rejected()).append(", \"superseded\": ").append(r.superseded())
                .append(", \"lastValue\": ").append(s.lastSample() == null ? "null" : num(s.lastSample().floatAt(0)))
                .append(", \"lastValueFrame\": ").append(s.lastSample() == null ? "null" : Long.toString(s.lastSample().frame()))
                .append(", \"lastFrameNumber\": ").append(s.lastFrameNumber()).append("}");
        if (s.probeEv() != null) {
            b.append(",\n \"probe\": {\"luminance\": ").append(num(s.probeLuminance())).append(", \"ev\": ").append(num(s.probeEv())).append("}");
        }
        b.append(",\n \"exposure\": {\"ev\": ").append(num(s.ev())).append(", \"normalizedHistogramSum\": ").append(num(s.normalizedHistogramSum()))
                .append(", \"metering\": ").append(str(metering))
                .append(", \"evMin\": ").append(num(range.evMin())).append(", \"evMax\": ").append(num(range.evMax()))
                .append(", \"targetEvMin\": ").append(num(range.targetMin())).append(", \"targetEvMax\": ").append(num(range.targetMax()));
        appendRecord(b, s.lastSample());
        b.append("}");
        b.append(",\n \"window\": {\"swapchainRecreations\": ").append(swapchainRecreations).append("}");
        if (async) {
            appendAsync(b, tally.asyncLane(), passes);
        }
        return b.append("}\n").toString();
    }

    /**
     * {@code async}: the mode, how many queues the device gave (1 or 2), the passes the last frame placed on
     * the async lane, and in auto mode what was chosen ("async", "main"; null while trying) and the
     * microseconds per frame the choice saves (null before a choice, or in another mode), and the median
     * GPU span of recent frames (first pass start to last pass end).
     */
    private static void appendAsync(StringBuilder b, AsyncLane lane, PassStats passes) {
        List<String> names = new ArrayList<>();
        lane.lastPasses().forEach(n -> names.add(str(n)));
        b.append(",\n \"async\": {\"mode\": ").append(str(lane.mode().name().toLowerCase(Locale.ROOT)))
                .append(", \"queues\": ").append(lane.queues())
                .append(", \"passes\": [").append(String.join(", ", names)).append("]")
                .append(", \"choice\": ").append(lane.choice() != null ? str(lane.choice()) : "null")
                .append(", \"savedMicros\": ").append(!Double.isNaN(lane.savedMicros()) ? num(lane.savedMicros()) : "null")
                .append(", \"frameSpanMicrosMedian\": ").append(num(passes.medianMicros(PassStats.FRAME_SPAN)))
                .append("}");
    }

    /** The newest exposure record the ring delivered, field by field (nulls before the first sample). */
    private static void appendRecord(StringBuilder b, dev.tally.readback.Sample sample) {
        int at = DemoApp.READBACK_EXPOSURE;
        String[][] fields = {{"targetEv", "" + ExposureShaderLayout.TARGET_EV}, {"lowEv", "" + ExposureShaderLayout.LOW_EV},
                {"highEv", "" + ExposureShaderLayout.HIGH_EV}, {"curveEv", "" + ExposureShaderLayout.CURVE_EV}};
        for (String[] f : fields) {
            b.append(", \"").append(f[0]).append("\": ").append(sample == null ? "null" : num(sample.floatAt(at + Integer.parseInt(f[1]))));
        }
        b.append(", \"clampHit\": ").append(sample == null ? "null" : Integer.toString(Math.round(sample.floatAt(at + ExposureShaderLayout.CLAMP_HIT))));
        b.append(", \"phase\": ").append(sample == null ? "null" : str(ExposureShaderLayout.phaseName(sample.floatAt(at + ExposureShaderLayout.PHASE))));
        b.append(", \"recordFrame\": ").append(sample == null ? "null" : Long.toString(sample.frame()));
    }

    static String num(double v) {
        if (Double.isNaN(v)) {
            return "\"NaN\"";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "\"Infinity\"" : "\"-Infinity\"";
        }
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.format(Locale.ROOT, "%.1f", v) : Double.toString(v);
    }

    static String str(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
