package dev.tally.demo;

import dev.tally.internal.engine.Engine;

import dev.tally.Tally;
import dev.tally.config.Config;
import dev.tally.demo.bench.BaselineReductions;
import dev.tally.demo.bench.BenchResult;
import dev.tally.demo.bench.DemoFrames;
import dev.tally.demo.bench.FrameCpuPairs;
import dev.tally.demo.bench.FrameReplay;
import dev.tally.demo.bench.replay.CommandReplay;
import dev.tally.demo.bench.ReductionBench;
import dev.tally.reduce.ReduceOp;
import dev.tally.internal.reduce.ReduceSettings;
import dev.tally.internal.reduce.Reducer;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;

/** {@code ./tally bench}: GPU timings with timestamp queries; table on stdout, progress on stderr when it is a terminal. */
@CommandLine.Command(name = "bench", mixinStandardHelpOptions = true, description = "Benchmark the reduction, its baselines and the copy ceiling on the GPU.")
public class BenchCommand implements Callable<Integer> {
    @CommandLine.Option(names = "--quick", description = "small sizes and few samples (under a minute on lavapipe)")
    boolean quick;

    @CommandLine.Option(names = "--warm", description = "do not flush the cache between samples")
    boolean warm;

    @CommandLine.Option(names = "--json", paramLabel = "FILE", description = "also write the results as JSON")
    Path json;

    @CommandLine.Option(names = "--samples", paramLabel = "N", description = "measured samples per case (default 100, quick 10)")
    Integer samples;

    @CommandLine.Option(names = "--max-log2", paramLabel = "K", description = "largest size 2^K (default 28, quick 20)")
    Integer maxLog2;

    @CommandLine.Option(names = "--sweep", description = "also sweep workgroup size, group count and unroll for sum")
    boolean sweep;

    @CommandLine.Option(names = "--flush", defaultValue = "clean", paramLabel = "clean|dirty",
            description = "cold-cache flush: clean (read a large buffer, default) or dirty (write one, as the CUB reference runs)")
    String flushMode;

    @CommandLine.Option(names = "--stats-variant", paramLabel = "NAME=SHADER[:DEFINE[=VALUE],...]",
            description = "also time this statistics kernel (a shader file with extra defines) at every size, as reduce-stats-NAME")
    List<String> statsVariants = List.of();

    @CommandLine.Option(names = "--only", split = ",", paramLabel = "GROUP",
            description = "run only these case groups: reduce, exposure, tonemap, hud, frame, loop (default: all)")
    Set<String> only;

    @CommandLine.Option(names = "--frame-cpu-size", paramLabel = "WxH",
            description = "the demo frame's size for frame-cpu and frame-cpu-phases (default 1280x720; 320x180 quick or on a CPU device)")
    String frameCpuSize;

    @CommandLine.Option(names = "--frame-cpu-spin",
            description = "diagnostic: frame-cpu's frames, and its replay's, wait for the GPU by polling instead of sleeping, so each "
                    + "frame starts on a core that stayed awake (the polling is left out of the figures, as waits are)")
    boolean frameCpuSpin;

    @CommandLine.Mixin
    CommonOptions common;

    private static final List<String> GROUPS = List.of("reduce", "exposure", "tonemap", "hud", "frame", "loop");

    /** {@code --frame-cpu-size} as {width, height}, or the defaults; a malformed one is the user's error, named. */
    int[] frameCpuSize(int width, int height) {
        if (frameCpuSize == null) {
            return new int[]{width, height};
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d{1,5})x(\\d{1,5})").matcher(frameCpuSize.trim());
        int w = m.matches() ? Integer.parseInt(m.group(1)) : 0, h = m.matches() ? Integer.parseInt(m.group(2)) : 0;
        if (w < 16 || h < 16 || w > 8192 || h > 8192) {
            throw new UserInputException("--frame-cpu-size '" + frameCpuSize + "': expected WIDTHxHEIGHT, each 16 to 8192 (say 1280x720)");
        }
        return new int[]{w, h};
    }

    /**
     * Whether this JVM keeps its heap in transparent huge pages (its UseTransparentHugePages option as the JVM took it: off
     * where the kernel gives none), for frame-cpu's row: the frame's cost depends on it.
     */
    static boolean transparentHugePages() {
        com.sun.management.HotSpotDiagnosticMXBean vm = java.lang.management.ManagementFactory.getPlatformMXBean(
                com.sun.management.HotSpotDiagnosticMXBean.class);
        return vm != null && Boolean.parseBoolean(vm.getVMOption("UseTransparentHugePages").getValue());
    }

    private boolean runs(String group) {
        return only == null || only.contains(group);
    }

    @CommandLine.Option(names = "--progress", description = "report progress (and the sweeps' per-pass lines) on standard error even when it is not a terminal")
    boolean progressAlways;

    /** Whether progress goes to standard error: when it is a terminal, or when asked for. */
    boolean showProgress() {
        return progressAlways || Progress.stderrIsTerminal();
    }

    @Override
    public Integer call() throws IOException {
        int n = samples != null ? samples : quick ? 10 : 100;
        if (n < 1 || n > 10_000) {
            throw new UserInputException("--samples: must be in 1..10000, got " + n);
        }
        int top = maxLog2 != null ? maxLog2 : quick ? 20 : 28;
        if (top < 0 || top > 31) {
            throw new UserInputException("--max-log2: must be in 0..31, got " + top);
        }
        new OutputPaths().add("--json", json);
        frameCpuSize(0, 0);   // a malformed size is refused before the device is opened
        if (only != null) {
            for (String g : only) {
                if (!GROUPS.contains(g)) {
                    throw new UserInputException("--only: unknown case group '" + g + "', expected one of " + String.join(", ", GROUPS));
                }
            }
        }
        List<ReductionBench.StatsVariant.Spec> variantSpecs = ReductionBench.StatsVariant.parseAll(statsVariants);
        PrintStream progress = Progress.stream(showProgress());
        Config config = common.config();
        List<BenchResult> results;
        String device;
        String driver;
        try (Tally rt = Tally.open(config, List.of())) {
            var info = Engine.of(rt).context().info();
            device = info.name();
            driver = info.driverName() + " " + info.driverInfo();
            long memory = info.deviceLocalBytes();
            boolean cpu = info.isCpu();
            long flushBytes = cpu ? 64L << 20 : 512L << 20;
            ReductionBench.FlushMode mode = switch (flushMode) {
                case "clean" -> ReductionBench.FlushMode.CLEAN;
                case "dirty" -> ReductionBench.FlushMode.DIRTY;
                default -> throw new UserInputException("--flush: expected clean or dirty, got '" + flushMode + "'");
            };
            progress.printf("bench on %s (%s), %s, %d samples per case%n", device, driver,
                    warm ? "warm" : "cold cache (" + flushMode + " flush)", n);
            ReductionBench bench = new ReductionBench(rt, progress, !warm, mode, quick ? 2 : 10, n, flushBytes);
            List<ReductionBench.StatsVariant> variants = variantSpecs.stream().map(v -> v.open(Engine.of(rt).reducer())).toList();
            try (BaselineReductions baselines = new BaselineReductions(Engine.of(rt).context(), Engine.of(rt).compiler(), Engine.of(rt).pipelineCache())) {
                long copyBytes = quick || cpu ? 64L << 20 : 1L << 30;
                if (runs("reduce")) {
                    bench.copyCeiling(copyBytes);
                }
                int[] sizes = quick ? new int[]{10, 16, 20} : new int[]{10, 16, 20, 24, 26, 28};
                for (int log2 : sizes) {
                    if (log2 > top || !runs("reduce")) {
                        continue;
                    }
                    long elements = 1L << log2;
                    if (4 * elements > memory / 4) {
                        System.err.println("skipping 2^" + log2 + ": more than a quarter of device memory");
                        continue;
                    }
                    progress.println("n = 2^" + log2);
                    try (ReductionBench.Input in = bench.input(elements)) {
                        ReduceSettings s = Engine.of(rt).reducer().settings();
                        String cfg = "wg " + s.workgroupSize() + ", " + Engine.of(rt).reducer().plan(elements).firstPass().get(0).groups()
                                + " groups, unroll " + Engine.of(rt).reducer().plan(elements).unroll();
                        for (ReduceOp op : new ReduceOp[]{ReduceOp.SUM, ReduceOp.MIN, ReduceOp.MAX}) {
                            bench.reduce(in, op, Engine.of(rt).reducer(), "reduce-" + op.id(), cfg);
                        }
                        bench.stats(in, Engine.of(rt).reducer(), cfg);
                        for (ReductionBench.StatsVariant v : variants) {
                            bench.stats(in, v.reducer(), cfg, "reduce-stats-" + v.name());
                        }
                        bench.tree(in, baselines);
                        bench.logN(in, baselines);
                        if (sweep) {
                            sweep(rt, config, bench, in);
                        }
                    }
                }
                int w = quick || cpu ? 640 : 3840, h = quick || cpu ? 360 : 2160;
                // The per-pass cases read every frame's pass timestamps; the frame cases below run as configured.
                int timingInterval = Engine.of(rt).graphs().passTimingInterval();
                Engine.of(rt).graphs().passTimingInterval(1);
                if (runs("exposure")) {
                    progress.println("auto-exposure chain at " + w + "x" + h);
                    for (var e : dev.tally.demo.bench.ExposureBench.run(rt, w, h, quick ? 20 : 200, progress).entrySet()) {
                        bench.results().add(new BenchResult("exposure-" + e.getKey(), (long) w * h, false, e.getValue(), e.getValue(), e.getValue(),
                                (long) w * h * 8 / (e.getValue() * 1e3), "median of per-pass timestamps in a frame loop"));
                    }
                }
                for (boolean compute : new boolean[]{true, false}) {
                    if (!runs("tonemap")) {
                        break;
                    }
                    double us = dev.tally.demo.bench.TonemapBench.run(rt, w, h, quick ? 20 : 200, compute, progress);
                    bench.results().add(new BenchResult(compute ? "tonemap" : "tonemap-fragment", (long) w * h, false, us, us, us,
                            (long) w * h * 12 / (us * 1e3), (compute ? "compute, storage target" : "fragment, colour attachment")
                                    + ", RGBA16F (written by a compute pass) -> RGBA8, median of per-pass timestamps"));
                    if (compute) {
                        double cleared = dev.tally.demo.bench.TonemapBench.run(rt, w, h, quick ? 20 : 200, true,
                                dev.tally.internal.exposure.TonemapperNode.DEFAULT_ROWS_PER_INVOCATION, false, progress);
                        bench.results().add(new BenchResult("tonemap-cleared", (long) w * h, false, cleared, cleared, cleared,
                                (long) w * h * 12 / (cleared * 1e3), "compute, storage target, RGBA16F (cleared by a transfer) -> RGBA8, median of per-pass timestamps"));
                        // The tonemap reads 8 bytes a pixel and writes 4: a copy of 6 a pixel moves as many.
                        bench.copyFloor("tonemap-floor", 6L * w * h, "the tonemap's bytes (" + w + "x" + h + ": an RGBA16F read, an RGBA8 write), timed alone "
                                + "with a clean flush before each sample (n: floats copied)");
                    }
                }
                for (boolean compute : new boolean[]{true, false}) {
                    if (!runs("hud")) {
                        break;
                    }
                    double us = dev.tally.demo.bench.HudBench.run(rt, w, h, quick ? 20 : 700, compute, progress);
                    bench.results().add(new BenchResult(compute ? "hud" : "hud-graphics", (long) w * h, false, us, us, us, 0,
                            (compute ? "compute over the panels' tiles, storage target" : "graphics pass, colour attachment")
                                    + ", 14 text lines, histogram, full plot; median of per-pass timestamps"));
                }
                Engine.of(rt).graphs().passTimingInterval(timingInterval);
                if (runs("frame")) {
                    int[] cpuSize = frameCpuSize(quick || cpu ? 320 : 1280, quick || cpu ? 180 : 720);
                    frameCases(rt, w, h, cpuSize[0], cpuSize[1], quick ? 50 : 500, quick, frameCpuSpin, bench.results(), progress);
                }
                if (sweep && runs("exposure")) {
                    for (int rows : new int[]{4, 8, 16, 24, 28, 32, 36, 40, 48, 72}) {
                        dev.tally.demo.bench.ExposureBench.run(rt, w, h, quick ? 20 : 100, rows, progress);
                    }
                    for (int rows : new int[]{1, 2, 4, 8}) {
                        dev.tally.demo.bench.TonemapBench.run(rt, w, h, quick ? 20 : 100, true, rows, true, progress);
                    }
                    for (var fill : dev.tally.demo.bench.ExposureBench.Fill.values()) {
                        dev.tally.demo.bench.ExposureBench.run(rt, w, h, quick ? 20 : 100, 0, fill, progress);
                    }
                }
                if (runs("loop")) {
                    long loopN = quick || cpu ? 1L << 20 : 1L << 26;
                    int reductions = quick || cpu ? 2 : 8;
                    progress.println("frame loop: " + reductions + " reductions of " + loopN + " floats per frame, synchronous readback vs ring");
                    var loops = dev.tally.demo.bench.FrameLoopBench.run(rt, loopN, reductions, quick ? 60 : 600, quick || cpu ? 2000 : 500, progress);
                    for (var l : loops) {
                        bench.results().add(new BenchResult("frameloop-" + l.mode(), loopN, false, 1e6 / l.fps(), l.blockedMicrosPerFrame(),
                                l.readbackWaitMicrosPerFrame(), 0, String.format(Locale.ROOT, "%.1f fps; min=CPU blocked us/frame, max=readback wait us/frame",
                                l.fps())));
                    }
                    progress.printf(Locale.ROOT, "  ring / synchronous: %.2fx frames per second%n", loops.get(1).fps() / loops.get(0).fps());
                }
            } finally {
                variants.forEach(ReductionBench.StatsVariant::close);
                bench.close();
            }
            results = bench.results();
        }
        printTable(results);
        if (json != null) {
            writeJson(json, device, driver, results);
            System.err.println("wrote " + json);
        }
        return 0;
    }

    /**
     * The demo's frame loop ({@link DemoFrames}): frame-gpu-span at the benchmark size (the graph's first pass
     * start to its last pass end, median over the frames), frame-cpu at a size the GPU keeps up with
     * (CPU time per frame without frame-pacing waits, and bytes allocated per frame).
     */
    /** Unmeasured runs of the demo before frame-cpu measures one: at least the first, then until the JIT is quiet, at most the second. */
    private static final int MIN_WARM_UP_RUNS = 8, MAX_WARM_UP_RUNS = 64;
    /**
     * Frames the full bench runs before frame-cpu at least (quick runs skip it): code run once a frame reaches C2's
     * thresholds only after several thousand frames, and queueing a method for C2 allocates its class's string constants
     * on the frame thread (HotSpot resolves them there first), so a measured run met them after 14-27 runs of 500 frames.
     */
    private static final int MIN_WARM_UP_FRAMES = 20_000;
    /** Consecutive runs in which the JIT compiled nothing (no compilation time added) that make the frame loop steady. */
    private static final int QUIET_RUNS = 2;

    /**
     * Runs {@code frames} until the JIT has settled: at least {@code minRuns}, then until {@link #QUIET_RUNS} runs in a row
     * added no compilation time (a method compiled or deoptimized and re-run in the interpreter during the measured run
     * allocates what the compiled code does not), at most {@link #MAX_WARM_UP_RUNS} beyond the minimum's share. Each run is
     * measured and its figures dropped: the measuring callback is code of its own, and run only in the measured run it was
     * queued for C2 there (its class's string constants and one iterator, 0.3 B per frame in the full bench). {@return the runs made}
     */
    private static int warmUp(DemoFrames frames, int minRuns) {
        java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        boolean timed = jit != null && jit.isCompilationTimeMonitoringSupported();
        int quiet = 0, run = 0;
        int maxRuns = Math.max(MAX_WARM_UP_RUNS, minRuns + MAX_WARM_UP_RUNS - MIN_WARM_UP_RUNS);
        while (run < maxRuns && (run < minRuns || (timed && quiet < QUIET_RUNS))) {
            long before = timed ? jit.getTotalCompilationTime() : 0;
            frames.measure();   // the measured run's own path: its callback and counters compiled before they count
            run++;
            quiet = timed && jit.getTotalCompilationTime() == before ? quiet + 1 : 0;
        }
        return run;
    }

    private static void frameCases(Tally rt, int w, int h, int cpuW, int cpuH, int frames, boolean quick, boolean spin, List<BenchResult> out,
                                   PrintStream progress) {
        // The demo's choice of HDR format for this device, then each format by name (500 frames each: the median's
        // window of 128 frames holds the latest run's only).
        java.util.List<String> formats = new java.util.ArrayList<>();
        formats.add(null);
        formats.addAll(new java.util.TreeSet<>(dev.tally.demo.app.DemoSettings.hdrFormats()));
        for (String format : formats) {
            try (DemoFrames span = new DemoFrames(rt, w, h, frames, format)) {
                span.run();
                Engine.of(rt).graphs().collectTimings();
                double us = rt.passStats().medianMicros(dev.tally.internal.graph.GraphRuntime.FRAME_SPAN);
                String name = format == null ? "frame-gpu-span" : "frame-gpu-span-" + format;
                progress.printf(Locale.ROOT, "  %s %dx%d %10.2f us%n", name, w, h, us);
                out.add(new BenchResult(name, (long) w * h, false, us, us, us, 0,
                        "demo frame (scene, exposure, tonemap, plot, HUD, ring), HDR " + (format == null ? "format of the device's choice" : format)
                                + ": first pass start to last pass end, median"));
            }
        }
        try (DemoFrames cpu = new DemoFrames(rt, cpuW, cpuH, frames).spinWaits(spin)) {
            // Warm-up: pipelines, first-use fills, and the JIT until it settles. After two runs a measured run still met the
            // JIT's last recompilations (a deoptimized method re-run in the interpreter loading a class on a branch not taken
            // before: 9.4 KB in one frame); after eight, 0 B over 500 frames on lavapipe, 0.3-4.2 B on the H200, where a run
            // takes 0.1 s and the JIT was still compiling.
            int warmUpRuns = warmUp(cpu, quick ? MIN_WARM_UP_RUNS : Math.max(MIN_WARM_UP_RUNS, MIN_WARM_UP_FRAMES / frames));
            FrameCpuPairs pairs = FrameCpuPairs.measure(rt, cpu, frames, quick ? FrameCpuPairs.QUICK_PAIRS : FrameCpuPairs.PAIRS, progress);
            progress.printf(Locale.ROOT, "  frame-cpu %dx%d median %.2f us, thread CPU %.2f us, %.1f bytes/frame (after %d warm-up runs); replay of the "
                            + "same command stream %.2f us less its waits, thread CPU %.2f us; Tally/replay %.2fx (%.2f-%.2fx over %d pairs; thread CPU %.2fx)%n",
                    cpuW, cpuH, pairs.tallyMicros(), pairs.tallyCpuMicros(), pairs.bytesPerFrame(), warmUpRuns, pairs.replayMicros(),
                    pairs.replayCpuMicros(), pairs.ratio(), pairs.ratioMin(), pairs.ratioMax(), pairs.count(), pairs.cpuRatio());
            out.add(new BenchResult("frame-cpu", (long) cpuW * cpuH, false, 0, 0, 0, 0,
                    String.format(Locale.ROOT, "demo frame loop (HUD text rebuilt every %d ms of the frame clock%s), time per frame less its "
                            + "frame-pacing waits; bytes allocated by the frame thread (-1: not countable); %.1f us/frame against %.1f us replaying the frame's captured Vulkan calls without "
                            + "Tally, less the same waits (%.2fx, the median of %d runs of each taken in turn, %.2f-%.2fx; thread CPU %.1f against "
                            + "%.1f us, %.2fx)", rt.config().integer("hud.textRefreshMs"), spin ? "; the GPU waited for by polling, not sleeping" : "", pairs.tallyMicros(), pairs.replayMicros(), pairs.ratio(), pairs.count(), pairs.ratioMin(),
                            pairs.ratioMax(), pairs.tallyCpuMicros(), pairs.replayCpuMicros(), pairs.cpuRatio()),
                    pairs.json() + String.format(Locale.ROOT, ", \"warmUpRuns\": %d, \"hudTextRefreshMs\": %d, \"transparentHugePages\": %s, \"spinWaits\": %s", warmUpRuns,
                            rt.config().integer("hud.textRefreshMs"), transparentHugePages(), spin)));
            dev.tally.demo.app.FramePhases phases = cpu.measurePhases();
            progress.printf(Locale.ROOT, "  frame-cpu-phases %dx%d medians: %s%n", cpuW, cpuH, phases.summary());
            // The replay's frame in the phases it shares with the demo's: what Tally adds to each is their difference (the
            // demo's beginning and declarations make no driver call, and the replay has none of them).
            CommandReplay.Phases replayPhases = FrameReplay.measurePhases(rt, cpu, frames);
            String replaySummary = String.format(Locale.ROOT, "commands %.2f, record %.2f, submit %.2f us", replayPhases.commandsMicros(),
                    replayPhases.recordMicros(), replayPhases.submitMicros());
            progress.printf(Locale.ROOT, "  frame-cpu-phases %dx%d, the replay of the same command stream: %s%n", cpuW, cpuH, replaySummary);
            out.add(new BenchResult("frame-cpu-phases", (long) cpuW * cpuH, false, 0, 0, 0, 0,
                    "demo frame loop, one run with each phase timed (wall time less pacing waits, median per phase): " + phases.summary()
                            + "; the replay of its command stream, the same way: " + replaySummary,
                    phasesJson(phases) + String.format(Locale.ROOT, ", \"replayPhaseMicros\": {\"commands\": %.3f, \"record\": %.3f, \"submit\": %.3f}",
                            replayPhases.commandsMicros(), replayPhases.recordMicros(), replayPhases.submitMicros())));
        }
    }

    /** Each phase's median as JSON members (no braces): "phaseMicros": {"begin": 1.10, ...}. */
    private static String phasesJson(dev.tally.demo.app.FramePhases phases) {
        StringBuilder b = new StringBuilder("\"phaseMicros\": {");
        for (dev.tally.demo.app.FramePhases.Phase p : dev.tally.demo.app.FramePhases.Phase.values()) {
            b.append(p.ordinal() == 0 ? "" : ", ").append('"').append(p.label()).append("\": ")
                    .append(String.format(Locale.ROOT, "%.3f", phases.medianMicros(p)));
        }
        return b.append('}').toString();
    }

    private static void sweep(Tally rt, Config config, ReductionBench bench, ReductionBench.Input in) {
        int sms = Math.max(1, Engine.of(rt).context().info().smCount());
        int maxWg = Engine.of(rt).context().info().maxComputeWorkGroupInvocations();
        for (int wg : new int[]{256, 512, 1024}) {
            if (wg > maxWg) {
                continue;
            }
            for (int perSm : new int[]{1, 2, 4, 8, 16, 32}) {
                for (int unroll : new int[]{1, 2, 4}) {
                    for (boolean onePass : new boolean[]{false, true}) {
                        for (boolean blocked : new boolean[]{false, true}) {
                            int groups = sms * perSm;
                            ReduceSettings s = ReductionBench.settings(config, Engine.of(rt).context(), wg, groups, unroll, onePass ? 1L << 30 : 0, 1)
                                    .withBlocked(blocked);
                            try (Reducer r = new Reducer(Engine.of(rt).context(), Engine.of(rt).compiler(), Engine.of(rt).pipelineCache(), s)) {
                                bench.reduce(in, ReduceOp.SUM, r, "sweep-sum", "wg " + wg + ", " + r.plan(in.n()).firstPass().get(0).groups()
                                        + " groups (max " + perSm + "/SM), unroll " + unroll + (blocked ? ", blocked" : ", strided"));
                            }
                        }
                    }
                }
            }
        }
    }

    private static void printTable(List<BenchResult> results) {
        System.out.printf(Locale.ROOT, "%-16s %12s %6s %12s %12s %12s %10s  %s%n", "case", "n", "cache", "median_us", "min_us", "max_us",
                "GB/s", "config");
        for (BenchResult r : results) {
            System.out.printf(Locale.ROOT, "%-16s %12d %6s %12.2f %12.2f %12.2f %10.1f  %s%n", r.name(), r.n(), r.cold() ? "cold" : "warm",
                    r.gpuMicrosMedian(), r.gpuMicrosMin(), r.gpuMicrosMax(), r.bandwidthGBs(), r.config());
        }
    }

    static void writeJson(Path file, String device, String driver, List<BenchResult> results) throws IOException {
        StringBuilder b = new StringBuilder();
        b.append("{\"device\": ").append(Json.string(device)).append(", \"driver\": ").append(Json.string(driver))
                .append(", \"date\": ").append(Json.string(OffsetDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME)))
                .append(", \"cases\": [\n");
        List<String> rows = new ArrayList<>();
        for (BenchResult r : results) {
            rows.add(String.format(Locale.ROOT,
                    "  {\"name\": %s, \"n\": %d, \"cold\": %s, \"gpuMicrosMedian\": %.3f, \"gpuMicrosMin\": %.3f, \"gpuMicrosMax\": %.3f, "
                            + "\"bandwidthGBs\": %.1f, \"config\": %s%s}",
                    Json.string(r.name()), r.n(), r.cold(), r.gpuMicrosMedian(), r.gpuMicrosMin(), r.gpuMicrosMax(), r.bandwidthGBs(),
                    Json.string(r.config()), r.extraJson() == null ? "" : ", " + r.extraJson()));
        }
        b.append(String.join(",\n", rows)).append("\n]}\n");
        AtomicFiles.write(file, b.toString().getBytes(StandardCharsets.UTF_8));
    }
}
