package dev.tally.demo.bench;

import dev.tally.internal.engine.Engine;

import dev.tally.Tally;
import dev.tally.demo.app.DemoApp;
import dev.tally.demo.app.DemoSettings;
import dev.tally.demo.app.FramePhases;
import dev.tally.demo.app.FramePolicy;
import dev.tally.demo.bench.replay.CommandCapture;
import dev.tally.demo.bench.replay.CommandStream;
import dev.tally.exposure.Metering;
import dev.tally.internal.vk.VulkanContext;
import dev.tally.internal.vk.Waits;

import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * The demo's own frame loop ({@link DemoApp}: scene, auto-exposure, tonemap, exposure plot, HUD, readback
 * ring), headless into its offscreen image, driven through the public frame API exactly as {@code ./tally
 * demo} runs it. Per frame it measures the CPU time Tally and the demo spend (wall time between frame
 * submissions minus the time blocked on frame pacing, which is the GPU's time, not the CPU's) and the bytes
 * the thread allocated.
 */
public final class DemoFrames implements AutoCloseable {
    /**
     * Per-frame medians over a run. {@code cpuMicros*}: wall time minus pacing waits (includes time blocked inside driver
     * calls); {@code threadCpuMicrosMedian}: the frame thread's own CPU time (-1 where the JVM cannot measure it), which
     * leaves out time the thread spent blocked. {@code bytesPerFrame} is -1 where the JVM cannot count allocations.
     */
    public record Figures(long frames, double cpuMicrosMedian, double cpuMicrosMean, double threadCpuMicrosMedian, double pacingMicrosPerFrame,
                          double bytesPerFrame) {
    }

    private final Tally tally;
    private final DemoApp app;
    private final long framesPerRun;
    /**
     * Whether the measured runs wait for the GPU by polling its timeline between frames instead of sleeping in Tally's pacing
     * wait (a diagnostic, {@code bench --frame-cpu-spin}): each frame then starts on a core that stayed awake, its caches as
     * the last frame left them. The polling is outside every frame's figures, as a pacing wait is.
     */
    private boolean spinWaits;
    /** How long a spinning wait polls before it gives up: a hung GPU, not pacing. */
    private static final long SPIN_LIMIT_NANOS = 30_000_000_000L;
    /** Per-frame figures of a measured run, made once (a run's set-up is not the frames' garbage, nor their allocation sites). */
    private final double[] cpu = new double[1 << 16], threadCpu = new double[1 << 16];

    public DemoFrames(Tally tally, int width, int height, long framesPerRun) {
        this(tally, width, height, framesPerRun, null);
    }

    /** The demo's frames with its scene in {@code hdrFormat} (a name of {@link DemoSettings#hdrFormats()}, or null: the device's choice). */
    public DemoFrames(Tally tally, int width, int height, long framesPerRun, String hdrFormat) {
        this(tally, width, height, framesPerRun, hdrFormat, 1.0 / 60);
    }

    /**
     * As above, with {@code fixedDt} seconds per frame, or 0: wall-clock time, as {@code ./tally demo} runs by default (the
     * HUD then shows the frame rate, CPU time and each pass's GPU time, text a reproducible run leaves out).
     */
    public DemoFrames(Tally tally, int width, int height, long framesPerRun, String hdrFormat, double fixedDt) {
        this.tally = tally;
        DemoSettings settings = new DemoSettings(true, framesPerRun, width, height, fixedDt, null, null, null, Metering.UNIFORM,
                false, true, hdrFormat);
        this.app = new DemoApp(tally, settings, null, new PrintStream(OutputStream.nullOutputStream()), FramePolicy.NONE);
        this.framesPerRun = framesPerRun;
    }

    /**
     * A run whose frames the caller steps one at a time ({@link DemoApp.Run#step}) and ends ({@link DemoApp.Run#finish}): a
     * benchmark whose operation is a frame, the run's start and end outside it.
     */
    public DemoApp.Run start() {
        return app.start(() -> false, f -> {
        });
    }

    /** One run of {@code framesPerRun} frames, unmeasured (warm-up, or a JMH operation). */
    public void run() {
        app.run(() -> false, f -> {
        });
    }

    /** See {@link #spinWaits}; the replay of these frames ({@link FrameReplay}) waits the same way. */
    public DemoFrames spinWaits(boolean on) {
        this.spinWaits = on;
        return this;
    }

    public boolean spinWaits() {
        return spinWaits;
    }

    /**
     * Polls the timeline until at most frames-in-flight - 1 frames are unfinished, so that the next frame's pacing finds its
     * command buffer's slot free and does not wait.
     */
    private void spinUntilSlotFree() {
        VulkanContext ctx = Engine.of(tally).context();
        long target = ctx.lastSubmitted() - (ctx.options().framesInFlight() - 1);
        long start = System.nanoTime();
        while (ctx.completedValue() < target) {
            if (System.nanoTime() - start > SPIN_LIMIT_NANOS) {
                throw new IllegalStateException("frame-cpu: the GPU has not finished timeline value " + target + " after "
                        + SPIN_LIMIT_NANOS / 1_000_000_000L + " s of polling (a hung GPU, not pacing)");
            }
            Thread.onSpinWait();
        }
    }

    /** One run, measured frame by frame. */
    public Figures measure() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        com.sun.management.ThreadMXBean allocations = threads instanceof com.sun.management.ThreadMXBean t
                && t.isThreadAllocatedMemorySupported() && t.isThreadAllocatedMemoryEnabled() ? t : null;
        double[] cpu = this.cpu;
        double[] threadCpu = this.threadCpu;
        boolean cpuTime = threads.isCurrentThreadCpuTimeSupported() && threads.isThreadCpuTimeEnabled();
        long[] lastCpu = {cpuTime ? threads.getCurrentThreadCpuTime() : 0};
        long[] count = {0};
        long[] last = {System.nanoTime()};
        double[] lastPacing = {Engine.of(tally).waits().micros(Waits.Cause.PACING)};
        // Bytes from the end of the first frame to the end of the last: the frames in steady state, not the run's set-up and tear-down.
        long[] bytesAt = {-1, -1};
        double pacingStart = lastPacing[0];
        long lastFrame = framesPerRun - 1;
        app.run(() -> false, f -> {
            // Read at the first frame's end and the last's only: the replay reads its counter once a run, and a read every
            // frame (a call into the VM) would be measured as the frame's cost on one side alone.
            if (allocations != null && (count[0] == 0 || count[0] == lastFrame)) {
                long b = allocations.getCurrentThreadAllocatedBytes();
                if (count[0] == 0) {
                    bytesAt[0] = b;
                }
                bytesAt[1] = b;
            }
            long now = System.nanoTime();
            double pacing = Engine.of(tally).waits().micros(Waits.Cause.PACING);
            long nowCpu = cpuTime ? threads.getCurrentThreadCpuTime() : 0;
            if (count[0] < cpu.length) {
                cpu[(int) count[0]] = (now - last[0]) / 1e3 - (pacing - lastPacing[0]);
                threadCpu[(int) count[0]] = (nowCpu - lastCpu[0]) / 1e3;
            }
            if (spinWaits) {
                spinUntilSlotFree();   // outside both frames' figures: the next frame's interval starts after it
                now = System.nanoTime();
                nowCpu = cpuTime ? threads.getCurrentThreadCpuTime() : 0;
            }
            lastCpu[0] = nowCpu;
            count[0]++;
            last[0] = now;
            lastPacing[0] = pacing;
        });
        // A run that ended before its last frame read no end count: its bytes are not known (-1), not 0.
        long bytes = allocations == null || count[0] != framesPerRun ? -1 : bytesAt[1] - bytesAt[0];
        int n = (int) Math.min(count[0], cpu.length);
        // The first frame's interval starts before run() (its set-up is not a frame's cost).
        double[] steady = Arrays.copyOfRange(cpu, Math.min(1, n), n);
        double mean = Arrays.stream(steady).average().orElse(0);
        double median = median(steady);
        double threadMedian = cpuTime ? median(Arrays.copyOfRange(threadCpu, Math.min(1, n), n)) : -1;
        double pacingPerFrame = (Engine.of(tally).waits().of(Waits.Cause.PACING).micros() - pacingStart) / Math.max(1, count[0]);
        return new Figures(count[0], median, mean, threadMedian, pacingPerFrame, bytes < 0 ? -1 : (double) bytes / Math.max(1, count[0] - 1));
    }

    /**
     * One run with each frame's phases timed ({@link FramePhases}): where the frame's time goes, the pacing waits taken out.
     * A run of its own, after the measured ones: its marks read the clock some twenty times a frame.
     */
    public FramePhases measurePhases() {
        return measurePhases(() -> Engine.of(tally).waits().micros(Waits.Cause.PACING));
    }

    /** As {@link #measurePhases()}, the waits to take out read from {@code waitedMicros}. */
    public FramePhases measurePhases(java.util.function.DoubleSupplier waitedMicros) {
        FramePhases phases = new FramePhases((int) Math.min(framesPerRun, cpu.length), waitedMicros);
        app.run(() -> false, f -> {
            if (spinWaits) {
                spinUntilSlotFree();   // before the next frame starts: in none of its phases
            }
        }, phases);
        return phases;
    }

    /**
     * One run whose second frame (from just after the first frame's submission to just after its own) goes
     * through {@code capture}: that frame's command stream, which the caller closes.
     */
    public CommandStream captureFrame(CommandCapture capture) {
        CommandStream stream = new CommandStream();
        boolean[] capturing = {false};
        try {
            app.run(() -> false, f -> {
                if (f == 0) {
                    capture.start(stream);
                    capturing[0] = true;
                } else if (f == 1) {
                    capturing[0] = false;
                    capture.stop();
                }
            });
            if (capturing[0]) {
                throw new IllegalStateException("internal: the demo ran one frame; a capture needs two");
            }
            return stream;
        } catch (RuntimeException e) {
            if (capturing[0]) {
                capture.stop();
            }
            stream.close();
            throw e;
        }
    }

    private static double median(double[] values) {
        Arrays.sort(values);
        return values.length == 0 ? 0 : values.length % 2 == 1 ? values[values.length / 2]
                : (values[values.length / 2 - 1] + values[values.length / 2]) / 2;
    }

    public DemoApp app() {
        return app;
    }

    @Override
    public void close() {
        app.close();
    }
}
