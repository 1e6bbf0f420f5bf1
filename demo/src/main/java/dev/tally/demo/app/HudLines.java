package dev.tally.demo.app;


import dev.tally.exposure.ExposureShaderLayout;
import dev.tally.graph.PassStats;
import dev.tally.readback.ReadbackRing;
import dev.tally.readback.ReadbackRing;
import dev.tally.readback.ReadbackCounters;

import java.util.ArrayList;
import java.util.List;

/**
 * The HUD's text: device, frame, per-pass GPU times, exposure, and the readback ring's counters. One
 * instance per view, rewritten every frame into the same string builders, with numbers written digit
 * by digit: a frame's text allocates nothing once the builders have grown.
 */
final class HudLines {
    private final List<StringBuilder> pool = new ArrayList<>();
    private final List<StringBuilder> lines = new ArrayList<>();

    private StringBuilder line() {
        if (lines.size() == pool.size()) {
            pool.add(new StringBuilder(64));
        }
        StringBuilder b = pool.get(lines.size());
        b.setLength(0);
        lines.add(b);
        return b;
    }

    /**
     * @param fixedDt    seconds per frame of a reproducible run, or 0: reproducible runs show no wall-clock
     *                   figures (fps, CPU and GPU times), so the same frame renders the same pixels
     * @param readbackAt where the exposure record starts in a readback sample, in floats
     * @return this frame's lines, valid until the next call
     */
    List<StringBuilder> of(String device, long frame, double fixedDt, double cpuMillis, PassStats passes, ReadbackRing ring, LatestReadback s,
                           int readbackAt, String error, CharSequence probe) {
        lines.clear();
        line().append("Tally  ").append(device);
        if (fixedDt > 0) {
            fixed(line().append("frame ").append(frame).append("  fixed dt "), fixedDt, 4).append(" s");
        } else {
            StringBuilder b = line().append("frame ").append(frame).append("  ");
            fixed(b, cpuMillis > 0 ? 1000 / Math.max(cpuMillis, 1e-3) : 0, 1).append(" fps  cpu ");
            fixed(b, cpuMillis, 2).append(" ms");
            line().append("GPU time per pass (median)");
            for (int i = 0; i < passes.passCount(); i++) {   // by index: no copy of the pass map, no iterator per frame
                String pass = passes.passName(i);
                if (!passes.isCulled(pass)) {
                    StringBuilder p = line().append("  ").append(pass);
                    pad(p, 2 + 18);
                    int at = p.length();
                    fixed(p.append(' '), passes.medianMicros(pass), 1);
                    padLeft(p, at + 1, 8);
                    p.append(" us");
                }
            }
        }
        if (s.present()) {
            float ev = s.value(readbackAt + ExposureShaderLayout.EV);
            float target = s.value(readbackAt + ExposureShaderLayout.TARGET_EV);
            StringBuilder b = fixed(line().append("exposure "), ev, 2).append(" EV  target ");
            fixed(b, target, 2).append(" EV");
            fixed(line().append("total "), s.value(0), 0).append(" (frame ").append(s.frame()).append(", ").append(s.lag()).append(" late)");
        } else {
            line().append("exposure: no sample yet (first readback in ").append(ring.slotCount()).append(" frames)");
        }
        if (probe != null) {
            line().append(probe);
        }
        ReadbackCounters r = ring.counters();   // read in place: a stats() record per frame would be the HUD's garbage
        line().append("readback ring: ").append(r.slots()).append(" slots, ").append(r.mode().id());
        line().append("  samples ").append(r.samples()).append("  lag ").append(r.lagFrames()).append(" (").append(r.lagMin()).append("..")
                .append(r.lagMax()).append(')');
        if (fixedDt <= 0) {
            fixed(line().append("  age "), r.ageMillisMedian(), 2).append(" ms (median, ").append(r.timeSource().id()).append(')');
        }
        line().append("  stale ").append(r.stale()).append("  rejected ").append(r.rejected());
        line().append("  not ready ").append(r.notReady()).append("  waits ").append(r.blockingWaits());
        if (error != null) {
            line().append("error: ").append(error);
        }
        return lines;
    }

    /** Appends {@code v} with {@code decimals} digits after the point, rounded half away from zero, as %.Nf prints it. */
    static StringBuilder fixed(StringBuilder b, double v, int decimals) {
        if (!Double.isFinite(v) || Math.abs(v) >= 1e15) {
            return b.append(v);   // rare: NaN before the first timing, or an absurd value
        }
        long scale = 1;
        for (int i = 0; i < decimals; i++) {
            scale *= 10;
        }
        long scaled = Math.round(Math.abs(v) * scale);
        if (v < 0) {
            b.append('-');   // as %.Nf, also for a negative value that rounds to zero
        }
        b.append(scaled / scale);
        if (decimals > 0) {
            b.append('.');
            long frac = scaled % scale;
            for (long d = scale / 10; d > 0; d /= 10) {
                b.append((char) ('0' + frac / d % 10));
            }
        }
        return b;
    }

    /**
     * Appends {@code v} with {@code digits} significant digits, as %.Ng prints it: digit by digit where %g
     * prints plain decimals (10^-4 <= |v| < 10^digits after rounding), through String.format otherwise.
     */
    static StringBuilder significant(StringBuilder b, double v, int digits) {
        double a = Math.abs(v);
        if (Double.isFinite(v) && a >= 1e-4 && digits > 0 && digits <= 15) {
            int exponent = (int) Math.floor(Math.log10(a));
            int decimals = digits - 1 - exponent;
            if (decimals >= 0 && Math.round(a * Math.pow(10, decimals)) >= Math.pow(10, digits)) {
                decimals--;   // rounding carried into one more digit before the point: 9.99996 -> 10.00
            }
            if (decimals >= 0 && decimals <= 15) {
                return fixed(b, v, decimals);
            }
        }
        return b.append(String.format(java.util.Locale.ROOT, "%." + digits + "g", v));
    }

    private static void pad(StringBuilder b, int width) {
        while (b.length() < width) {
            b.append(' ');
        }
    }

    /** Right-aligns what was appended since {@code from} in a field {@code width} wide. */
    private static void padLeft(StringBuilder b, int from, int width) {
        int n = b.length() - from;
        for (int i = n; i < width; i++) {
            b.insert(from, ' ');
        }
    }
}
