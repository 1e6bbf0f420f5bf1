package dev.tally.demo;

import dev.tally.TallyRuntime;
import dev.tally.demo.app.DemoApp;
import dev.tally.demo.app.DemoSettings;
import dev.tally.exposure.Metering;
import dev.tally.present.Window;
import dev.tally.readback.ReadbackStats;
import dev.tally.vk.VulkanContext;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code ./tally soak}: the demo's full frame graph for many frames with validation on, checking that
 * nothing leaks, drifts or waits. Reports every 1,000 frames; exit 1 when a criterion fails.
 */
@CommandLine.Command(name = "soak", mixinStandardHelpOptions = true, description = "Run the demo's frame graph for many frames and check for leaks, drift and waits.")
final class SoakCommand implements Callable<Integer> {
    @CommandLine.Option(names = "--frames", defaultValue = "10000", paramLabel = "N")
    long frames;

    @CommandLine.Option(names = "--window", description = "render in a window (needs a display)")
    boolean window;

    @CommandLine.Option(names = "--resize-every", paramLabel = "K",
            description = "change the size every K frames (full, half, 1x1...); use a --report-every that is a multiple of 3K")
    Long resizeEvery;

    @CommandLine.Option(names = "--width", defaultValue = "160", paramLabel = "W")
    int width;

    @CommandLine.Option(names = "--height", defaultValue = "90", paramLabel = "H")
    int height;

    @CommandLine.Option(names = "--report-every", defaultValue = "1000", paramLabel = "K",
            description = "frames between reports (default 1000)")
    long reportEvery;

    @CommandLine.Option(names = "--no-validate", description = "run without the validation layer (e.g. where it is not installed)")
    boolean noValidate;

    @CommandLine.Mixin
    CommonOptions common;

    /** One report line's figures. */
    private record Snapshot(long frame, long allocations, long bytes, long objects, long heapBytes, long rssKb, int validation) {
    }

    @Override
    public Integer call() {
        if (frames < 2 * reportEvery || reportEvery < 10) {
            throw new UserInputException("--frames: at least twice --report-every (" + reportEvery + ") frames are needed to judge drift, got " + frames);
        }
        if (width < 1 || height < 1 || width > 16384 || height > 16384) {
            throw new UserInputException("--width/--height: must be in 1..16384, got " + width + "x" + height);
        }
        if (resizeEvery != null && resizeEvery < 1) {
            throw new UserInputException("--resize-every: must be at least 1, got " + resizeEvery);
        }
        if (window && !Window.displayAvailable()) {
            throw new UserInputException("--window: no display to open a window on (DISPLAY is not set); run headless without --window");
        }
        if (!noValidate) {
            common.validate = true;
        }
        Window w = window ? Window.open("Tally soak", width, height) : null;
        List<String> extensions = w != null ? Window.requiredExtensions() : List.of();
        DemoSettings settings = new DemoSettings(w == null, frames, width, height, 1.0 / 60, null, null, null, Metering.UNIFORM, false, true,
                resizeEvery);
        List<Snapshot> snapshots = new ArrayList<>();
        long[] passesChecked = new long[1];
        try (TallyRuntime rt = TallyRuntime.open(common.config(), extensions)) {
            VulkanContext ctx = rt.context();
            System.out.printf("soak: %d frames at %dx%d on %s%s, validation %s%n", frames, width, height, ctx.info().name(),
                    w != null ? " in a window" : " headless", ctx.options().validation() ? "on (synchronization too)" : "off");
            ReadbackStats finalStats;
            long lagViolations;
            try (DemoApp app = new DemoApp(rt, settings, w, System.err)) {
                long[] badLag = new long[1];
                DemoApp.Summary summary = app.run(() -> false, f -> {
                    app.ring().latest().ifPresent(s -> {
                        if (s.deliveredAtFrame() == f && s.lag() != app.ring().slotCount()) {
                            badLag[0]++;
                        }
                    });
                    if ((f + 1) % reportEvery == 0) {
                        Snapshot snap = snapshot(ctx, f + 1);
                        snapshots.add(snap);
                        report(snap, app);
                    }
                });
                finalStats = summary.readback();
                lagViolations = badLag[0];
                passesChecked[0] = app.graphs().stats().passes().size();
            }
            return verdict(snapshots, finalStats, lagViolations, ctx);
        } finally {
            if (w != null) {
                w.close();
            }
        }
    }

    private static Snapshot snapshot(VulkanContext ctx, long frame) {
        ctx.waitIdle();   // measurement only: lets deferred destructions run so live counts are exact
        long[] live = ctx.liveAllocations();
        System.gc();
        Runtime r = Runtime.getRuntime();
        return new Snapshot(frame, live[0], live[1], ctx.objectsCreated(), r.totalMemory() - r.freeMemory(), rssKb(),
                ctx.validationLog().total());
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
        ReadbackStats r = app.ring().stats();
        StringBuilder passes = new StringBuilder();
        for (var e : app.graphs().stats().passes().entrySet()) {
            if (!e.getValue()) {
                passes.append(String.format(Locale.ROOT, " %s=%.1f", e.getKey(), app.graphs().stats().medianMicros(e.getKey())));
            }
        }
        System.out.printf(Locale.ROOT, "frame %d: validation %d; VMA %d allocations, %d bytes; objects created %d; heap %.1f MiB; RSS %.1f MiB; "
                        + "readback %d samples, lag %d, not ready %d, waits %d; GPU us:%s%n", s.frame(), s.validation(), s.allocations(), s.bytes(),
                s.objects(), s.heapBytes() / 1048576.0, s.rssKb() / 1024.0, r.samples(), r.lagFrames(), r.notReady(), r.blockingWaits(), passes);
    }

    private int verdict(List<Snapshot> snaps, ReadbackStats r, long lagViolations, VulkanContext ctx) {
        List<String> failures = new ArrayList<>();
        // The first report can still include warm-up (JIT, caches filling to their bounds): with three
        // or more reports, judge from the second.
        Snapshot warm = snaps.get(snaps.size() >= 3 ? 1 : 0);
        Snapshot last = snaps.get(snaps.size() - 1);
        if (last.validation() != 0) {
            failures.add(last.validation() + " validation messages");
        }
        if (resizeEvery == null && last.objects() != warm.objects()) {
            failures.add("Vulkan objects created after warm-up: " + (last.objects() - warm.objects()) + " over " + (last.frame() - warm.frame()) + " frames");
        }
        if (resizeEvery != null && last.objects() - warm.objects() > (last.frame() - warm.frame()) / resizeEvery * 64) {
            failures.add("objects grow faster than resizes explain: " + (last.objects() - warm.objects()));
        }
        // With resizes, transient bytes follow the size of the moment: judge the allocation count only.
        if (drift(warm.allocations(), last.allocations()) || (resizeEvery == null && drift(warm.bytes(), last.bytes()))) {
            failures.add("live VMA allocations drifted: " + warm.allocations() + " -> " + last.allocations() + " (" + warm.bytes() + " -> " + last.bytes() + " bytes)");
        }
        if (warm.rssKb() > 0 && drift(warm.rssKb(), last.rssKb())) {
            failures.add("RSS grew more than 5%: " + warm.rssKb() + " -> " + last.rssKb() + " KiB");
        }
        if (last.heapBytes() - warm.heapBytes() > Math.max(1L << 20, warm.heapBytes() * 0.05)) {
            failures.add("heap after GC grew more than 5% (1 MiB at least): " + warm.heapBytes() + " -> " + last.heapBytes() + " bytes");
        }
        if (r.notReady() != 0 || r.blockingWaits() != 0 || lagViolations != 0 || r.lagFrames() != r.slots()) {
            failures.add("readback: lag " + r.lagFrames() + " (want " + r.slots() + "), " + lagViolations + " samples off lag, not ready " + r.notReady()
                    + ", waits " + r.blockingWaits());
        }
        if (failures.isEmpty()) {
            System.out.println("soak passed: " + last.frame() + " frames, zero validation messages, allocations/RSS/heap flat, "
                    + (last.objects() - warm.objects()) + " objects created after warm-up, every sample " + r.slots() + " frames late, 0 waits");
            return 0;
        }
        failures.forEach(f -> System.out.println("soak FAILED: " + f));
        return 1;
    }

    /** Grew by more than 5 % of the warm-up figure (shrinking is fine: caches settle). */
    private static boolean drift(long warm, long now) {
        return now - warm > Math.max(1, warm) * 0.05;
    }
}
