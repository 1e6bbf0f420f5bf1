package dev.tally.demo;


import dev.tally.Tally;
import dev.tally.demo.app.DemoApp;
import dev.tally.demo.app.FramePolicy;
import dev.tally.demo.app.ResizeEveryPolicy;
import dev.tally.demo.app.DemoSettings;
import dev.tally.exposure.Metering;
import dev.tally.demo.present.Window;
import dev.tally.readback.ReadbackStats;
import dev.tally.readback.Subscription;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code ./tally soak}: the demo's full frame graph for many frames with validation on, checking that
 * nothing leaks, drifts or waits. Reports at a fixed interval (by default a fifth of the run); exit 1
 * when a criterion fails. With resizes, memory is compared only between reports taken at the same size.
 */
@CommandLine.Command(name = "soak", mixinStandardHelpOptions = true,
        description = "Run the demo's frame graph for many frames and check for leaks, drift and waits.")
class SoakCommand implements Callable<Integer> {
    /** Reports a run needs at least: warm-up, then two to compare. */
    static final int MIN_REPORT_INTERVAL = 10;

    @CommandLine.Option(names = "--frames", defaultValue = "10000", paramLabel = "N", description = "frames to render (default 10000)")
    long frames;

    @CommandLine.Option(names = "--window", description = "render in a window (needs a display)")
    boolean window;

    @CommandLine.Option(names = "--resize-every", paramLabel = "K",
            description = "change the size every K frames (window: full, half, 1x1; headless: full, half)")
    Long resizeEvery;

    @CommandLine.Option(names = "--width", defaultValue = "160", paramLabel = "W")
    int width;

    @CommandLine.Option(names = "--height", defaultValue = "90", paramLabel = "H")
    int height;

    @CommandLine.Option(names = "--report-every", paramLabel = "K",
            description = "frames between reports (default: a fifth of --frames, rounded to a whole cycle of sizes when resizing)")
    Long reportEvery;

    @CommandLine.Option(names = "--json", paramLabel = "FILE", description = "write every report's figures and the verdict as JSON")
    Path json;

    @CommandLine.Option(names = "--no-validate", description = "run without the validation layer (e.g. where it is not installed)")
    boolean noValidate;

    @CommandLine.Option(names = "--gc-budget", defaultValue = "0", paramLabel = "N",
            description = "garbage collections allowed while the frame loop runs after warm-up (default 0: the frame makes no garbage)")
    long gcBudget;

    @CommandLine.Mixin
    CommonOptions common;

    /** One report's figures, with the render size they were taken at. */
    /**
     * {@code gcsBefore}: the JVM's collections when the report began, before its own explicit GC; {@code gcsAfter}: after it. The
     * frame loop's collections between two reports are the later one's {@code gcsBefore} minus the earlier one's {@code gcsAfter}.
     */
    record Snapshot(long frame, int width, int height, long allocations, long bytes, long objects, long heapBytes, long rssKb,
                    long validation, long samples, long lag, long notReady, long waits, long gcsBefore, long gcsAfter) {
        boolean sameSize(Snapshot o) {
            return width == o.width && height == o.height;
        }
    }

    /**
     * Called after each frame, after that frame's report (if any): nothing here. A test's subclass uses it
     * to leak on purpose and see the verdict turn.
     */
    void afterFrame(Tally tally, long frame, boolean last) {
    }

    /** Whether progress goes to standard error: only when it is a terminal. */
    boolean showProgress() {
        return Progress.stderrIsTerminal();
    }

    /** Frames in one cycle of sizes: full, half (and 1x1 in a window) each last {@code resizeEvery} frames. */
    private long sizeCycle() {
        return resizeEvery == null ? 1 : (window ? 3 : 2) * resizeEvery;
    }

    /** The report interval: as given, else a fifth of the run, rounded to whole cycles of sizes where they fit. */
    long reportInterval() {
        if (reportEvery != null) {
            return reportEvery;
        }
        long interval = Math.max(MIN_REPORT_INTERVAL, frames / 5);
        long cycle = sizeCycle();
        if (cycle > 1 && frames >= 2 * cycle) {
            interval = Math.max(1, interval / cycle) * cycle;
            while (2 * interval > frames) {
                interval -= cycle;
            }
        }
        return interval;
    }

    @Override
    public Integer call() throws IOException {
        if (resizeEvery != null && resizeEvery < 1) {
            throw new UserInputException("--resize-every: must be at least 1, got " + resizeEvery);
        }
        long interval = reportInterval();
        if (interval < MIN_REPORT_INTERVAL) {
            throw new UserInputException("--report-every: must be at least " + MIN_REPORT_INTERVAL + ", got " + interval);
        }
        if (frames < 2 * interval) {
            throw new UserInputException("--frames: at least two reports are needed to judge drift: " + 2 * interval
                    + " frames with reports every " + interval + (reportEvery == null ? " (at least " + 2 * MIN_REPORT_INTERVAL + " frames)" : "")
                    + ", got " + frames);
        }
        if (width < 1 || height < 1 || width > 16384 || height > 16384) {
            throw new UserInputException("--width/--height: must be in 1..16384, got " + width + "x" + height);
        }
        if (window && !Window.displayAvailable()) {
            throw new UserInputException("--window: no display to open a window on (DISPLAY is not set); run headless without --window");
        }
        new OutputPaths().add("--json", json);
        if (!noValidate) {
            common.validate = true;
        }
        Window w = window ? Window.open("Tally soak", width, height) : null;
        List<String> extensions = w != null ? Window.requiredExtensions() : List.of();
        DemoSettings settings = new DemoSettings(w == null, frames, width, height, 1.0 / 60, null, null, null, Metering.UNIFORM, false, true, null);
        List<Snapshot> snapshots = new ArrayList<>();
        try (Tally rt = Tally.open(common.config(false), extensions)) {   // the SPIR-V the build compiled
            System.out.printf("soak: %d frames at %dx%d on %s%s, validation %s, reports every %d frames%n", frames, width, height,
                    rt.device().name(), w != null ? " in a window" : " headless",
                    rt.diagnostics().validationEnabled() ? "on (synchronization too)" : "off", interval);
            ReadbackStats finalStats;
            long lagViolations;
            long[] badLag = new long[1];
            // The demo's once-a-second status line and a line per report are the soak's progress.
            PrintStream progress = Progress.stream(showProgress());
            FramePolicy policy = resizeEvery != null ? new ResizeEveryPolicy(resizeEvery) : FramePolicy.NONE;
            GcCounter gcs = new GcCounter();
            FrameTimes times = new FrameTimes(frames);
            long[] timesFrom = {Long.MAX_VALUE};   // the first frame after warm-up (see warm()); known once the reports are
            try (DemoApp app = new DemoApp(rt, settings, w, progress, policy);
                 Subscription lags = app.ring().onSample(d -> {
                     if (d.lag() != app.ring().slotCount()) {
                         badLag[0]++;
                     }
                 })) {
                long[] last = {0};
                boolean[] reported = {false};
                DemoApp.Summary summary = app.run(() -> false, f -> {
                    long now = System.nanoTime();
                    if (f > 0 && !reported[0] && f > timesFrom[0]) {
                        times.add(now - last[0]);   // frames after warm-up, but not the one after a report (idle wait, explicit GC)
                    }
                    reported[0] = false;
                    if ((f + 1) % interval == 0) {
                        Snapshot snap = snapshot(rt, app, f + 1, gcs);
                        snapshots.add(snap);
                        report(snap, app);
                        progress.printf("soak: %d/%d frames%n", f + 1, frames);
                        reported[0] = true;
                        if (snapshots.size() == warmReport(frames / interval) + 1) {
                            timesFrom[0] = f;
                        }
                    }
                    afterFrame(rt, f, f == frames - 1);
                    last[0] = System.nanoTime();
                });
                finalStats = summary.readback();
                lagViolations = badLag[0];
            }
            Verdict v = verdict(snapshots, finalStats, lagViolations, gcs);
            System.out.printf(Locale.ROOT, "frame time after warm-up: p99 %.2f ms, max %.2f ms (%d frames; the frames after reports left out); "
                    + "%d garbage collections in the frame loop%n", times.quantileMicros(0.99) / 1e3, times.maxMicros() / 1e3, times.count(),
                    v.loopGcs());
            if (json != null) {
                AtomicFiles.write(json, json(interval, snapshots, finalStats, lagViolations, v, times).getBytes(StandardCharsets.UTF_8));
            }
            if (v.failures().isEmpty()) {
                Snapshot last = snapshots.get(snapshots.size() - 1);
                System.out.println("soak passed: " + last.frame() + " frames, zero validation messages, allocations/RSS/heap flat, "
                        + v.objectsAfterWarmUp() + " objects created after warm-up, every sample " + finalStats.slots() + " frames late, 0 waits");
                return 0;
            }
            v.failures().forEach(f -> System.out.println("soak FAILED: " + f));
            return 1;
        } finally {
            if (w != null) {
                w.close();
            }
        }
    }

    private static Snapshot snapshot(Tally tally, DemoApp app, long frame, GcCounter gcs) {
        long gcsBefore = gcs.total();
        tally.device().waitIdle();   // measurement only: lets deferred destructions run so live counts are exact
        long liveCount = tally.diagnostics().liveAllocations(), liveBytes = tally.diagnostics().liveAllocationBytes();
        System.gc();
        long gcsAfter = gcs.total();
        Runtime r = Runtime.getRuntime();
        ReadbackStats rb = app.ring().stats();
        return new Snapshot(frame, app.width(), app.height(), liveCount, liveBytes, tally.diagnostics().objectsCreated(), r.totalMemory() - r.freeMemory(),
                rssKb(), tally.diagnostics().validationMessages(), rb.samples(), rb.lagFrames(), rb.notReady(), rb.blockingWaits(), gcsBefore, gcsAfter);
    }

    private static long rssKb() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | NumberFormatException ignored) {
            // Not Linux: RSS is reported as -1 and not judged.
        }
        return -1;
    }

    private static void report(Snapshot s, DemoApp app) {
        StringBuilder passes = new StringBuilder();
        for (var e : app.tally().passStats().passes().entrySet()) {
            if (!e.getValue()) {
                passes.append(String.format(Locale.ROOT, " %s=%.1f", e.getKey(), app.tally().passStats().medianMicros(e.getKey())));
            }
        }
        System.out.printf(Locale.ROOT, "frame %d at %dx%d: validation %d; VMA %d allocations, %d bytes; objects created %d; heap %.1f MiB; "
                        + "RSS %.1f MiB; readback %d samples, lag %d, not ready %d, waits %d; GPU us:%s%n", s.frame(), s.width(), s.height(),
                s.validation(), s.allocations(), s.bytes(), s.objects(), s.heapBytes() / 1048576.0, s.rssKb() / 1024.0, s.samples(), s.lag(),
                s.notReady(), s.waits(), passes);
    }

    record Verdict(List<String> failures, long objectsAfterWarmUp, long loopGcs) {
    }

    /**
     * The criteria. The first report can still include warm-up (JIT, caches filling to their bounds): with
     * three or more reports at a size, judge from the second. Memory is compared between reports taken at
     * the same size only: transient allocations follow the size of the moment.
     */
    private Verdict verdict(List<Snapshot> snaps, ReadbackStats r, long lagViolations, GcCounter gcs) {
        List<String> failures = new ArrayList<>();
        Snapshot first = warm(snaps);
        Snapshot last = snaps.get(snaps.size() - 1);
        long loopGcs = 0;
        for (int i = snaps.indexOf(first) + 1; i < snaps.size(); i++) {
            loopGcs += snaps.get(i).gcsBefore() - snaps.get(i - 1).gcsAfter();   // the reports' own System.gc() left out
        }
        if (loopGcs > gcBudget) {
            failures.add(loopGcs + " garbage collections while the frame loop ran after warm-up (frames " + first.frame() + " -> " + last.frame()
                    + ", at most " + gcBudget + " allowed); collectors so far, reports' explicit GCs included: " + gcs.byCollector());
        }
        if (last.validation() != 0) {
            failures.add(last.validation() + " validation messages");
        }
        long objects = last.objects() - first.objects();
        if (resizeEvery == null && objects != 0) {
            failures.add("Vulkan objects created after warm-up: " + objects + " over " + (last.frame() - first.frame()) + " frames");
        }
        if (resizeEvery != null && objects > (last.frame() - first.frame()) / resizeEvery * 64) {
            failures.add("objects grow faster than resizes explain: " + objects);
        }
        boolean compared = false;
        for (List<Snapshot> group : bySize(snaps)) {
            if (group.size() < 2) {
                continue;
            }
            compared = true;
            Snapshot a = warm(group);
            Snapshot b = group.get(group.size() - 1);
            String at = " at " + a.width() + "x" + a.height() + ", frame " + a.frame() + " -> " + b.frame();
            if (drift(a.allocations(), b.allocations()) || drift(a.bytes(), b.bytes())) {
                failures.add("live VMA allocations drifted" + at + ": " + a.allocations() + " -> " + b.allocations() + " ("
                        + a.bytes() + " -> " + b.bytes() + " bytes)");
            }
            long[] peaks = rssPeaks(group, a);
            if (peaks != null && drift(peaks[0], peaks[1])) {
                failures.add("RSS grew more than 5%" + at + ": peak " + peaks[0] + " KiB in the first half of the reports, " + peaks[1]
                        + " KiB in the second (RSS holds the driver's and the layers' memory too, which can take thousands of frames to settle;"
                        + " a longer run, --frames, tells settling from growth)");
            }
            if (b.heapBytes() - a.heapBytes() > Math.max(1L << 20, a.heapBytes() * 0.05)) {
                failures.add("heap after GC grew more than 5% (1 MiB at least)" + at + ": " + a.heapBytes() + " -> " + b.heapBytes() + " bytes");
            }
        }
        if (!compared) {
            failures.add("no two reports were taken at the same size, so memory could not be compared; use a --report-every that is a "
                    + "multiple of " + sizeCycle() + " (a whole cycle of sizes)");
        }
        if (r.notReady() != 0 || r.blockingWaits() != 0 || lagViolations != 0 || r.lagFrames() != r.slots()) {
            failures.add("readback: lag " + r.lagFrames() + " (want " + r.slots() + "), " + lagViolations + " samples off lag, not ready " + r.notReady()
                    + ", waits " + r.blockingWaits());
        }
        return new Verdict(failures, objects, loopGcs);
    }

    /**
     * The highest RSS in the first and in the second half of the reports from {@code warm} on, or null when
     * there are too few or RSS is unknown. Peaks, not two single readings: the process's RSS swings by
     * several percent from report to report (the CPU driver's worker threads and the C allocator's arenas;
     * a resizing window recreates swapchains), while a leak raises every later reading. Tally's own memory
     * (VMA allocations, Java heap after GC, Vulkan objects) is judged exactly above.
     */
    static long[] rssPeaks(List<Snapshot> group, Snapshot warm) {
        List<Snapshot> after = group.subList(group.indexOf(warm), group.size());
        if (after.size() < 2 || after.get(0).rssKb() <= 0) {
            return null;
        }
        int half = after.size() / 2;
        long first = after.subList(0, half).stream().mapToLong(Snapshot::rssKb).max().orElse(0);
        long second = after.subList(half, after.size()).stream().mapToLong(Snapshot::rssKb).max().orElse(0);
        return new long[]{first, second};
    }

    private static Snapshot warm(List<Snapshot> snaps) {
        return snaps.get(warmReport(snaps.size()));
    }

    /** The report warm-up ends at, of {@code reports}: the second with three or more, else the first. */
    private static int warmReport(long reports) {
        return reports >= 3 ? 1 : 0;
    }

    private static List<List<Snapshot>> bySize(List<Snapshot> snaps) {
        java.util.Map<String, List<Snapshot>> groups = new java.util.LinkedHashMap<>();
        for (Snapshot s : snaps) {
            groups.computeIfAbsent(s.width() + "x" + s.height(), k -> new ArrayList<>()).add(s);
        }
        return new ArrayList<>(groups.values());
    }

    /** Grew by more than 5 % of the warm-up figure (shrinking is fine: caches settle). */
    private static boolean drift(long warm, long now) {
        return now - warm > Math.max(1, warm) * 0.05;
    }

    private String json(long interval, List<Snapshot> snaps, ReadbackStats r, long lagViolations, Verdict v, FrameTimes times) {
        StringBuilder b = new StringBuilder();
        b.append("{\"frames\": ").append(frames).append(", \"width\": ").append(width).append(", \"height\": ").append(height)
                .append(", \"reportEvery\": ").append(interval).append(", \"resizeEvery\": ").append(resizeEvery == null ? "null" : resizeEvery)
                .append(", \"window\": ").append(window).append(",\n \"reports\": [\n");
        List<String> rows = new ArrayList<>();
        for (Snapshot s : snaps) {
            rows.add(String.format(Locale.ROOT, "  {\"frame\": %d, \"width\": %d, \"height\": %d, \"validation\": %d, \"allocations\": %d, "
                            + "\"bytes\": %d, \"objectsCreated\": %d, \"heapBytes\": %d, \"rssKb\": %d, \"samples\": %d, \"lag\": %d, "
                            + "\"notReady\": %d, \"waits\": %d, \"gcsBefore\": %d, \"gcsAfter\": %d}", s.frame(), s.width(), s.height(),
                    s.validation(), s.allocations(), s.bytes(), s.objects(), s.heapBytes(), s.rssKb(), s.samples(), s.lag(), s.notReady(), s.waits(),
                    s.gcsBefore(), s.gcsAfter()));
        }
        b.append(String.join(",\n", rows)).append("\n ],\n \"readback\": {\"slots\": ").append(r.slots()).append(", \"samples\": ")
                .append(r.samples()).append(", \"lag\": ").append(r.lagFrames()).append(", \"notReady\": ").append(r.notReady())
                .append(", \"waits\": ").append(r.blockingWaits()).append(", \"samplesOffLag\": ").append(lagViolations).append("},\n \"loopGcs\": ")
                .append(v.loopGcs()).append(", \"frameTimeP99Micros\": ").append(String.format(Locale.ROOT, "%.1f", times.quantileMicros(0.99)))
                .append(", \"frameTimeMaxMicros\": ").append(String.format(Locale.ROOT, "%.1f", times.maxMicros()))
                .append(", \"frameTimes\": ").append(times.count()).append(",\n \"failures\": [");
        List<String> fs = new ArrayList<>();
        v.failures().forEach(f -> fs.add(Json.string(f)));
        b.append(String.join(", ", fs)).append("]}\n");
        return b.toString();
    }
}
