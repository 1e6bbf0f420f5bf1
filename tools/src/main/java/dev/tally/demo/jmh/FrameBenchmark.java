package dev.tally.demo.jmh;

import dev.tally.Tally;
import dev.tally.config.Config;
import dev.tally.demo.bench.DemoFrames;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Tally's CPU cost per frame on the path users run: the demo's frame loop ({@link DemoFrames}: begin the
 * frame, declare the scene, auto-exposure, tonemap, plot and HUD passes, cached compile, barriers,
 * recording into a real command buffer, submission, readback ring delivery) on the device Tally opens
 * (config device.select; lavapipe on the development machines). One operation is one frame
 * ({@code @OperationsPerInvocation}); run with {@code -prof gc} for bytes per frame (gc.alloc.rate.norm, every thread's: JMH's own
 * threads allocate too); each iteration also prints the frame thread's own bytes per frame.
 * <p>
 * The time per frame is wall time: where the GPU is slower than the CPU it includes frame pacing (the CPU
 * waiting for a frame-in-flight slot). The tear-down prints the same frames measured as CPU time, with
 * the pacing waits taken out; keep the resolution small ({@link #size}) so the GPU keeps up.
 * <p>
 * Run: {@code java -cp "tools/target/tally-tools.jar:tools/target/lib/*" org.openjdk.jmh.Main FrameBenchmark -prof gc}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xss4m")
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
public class FrameBenchmark {
    static final int FRAMES_PER_OPERATION = 100;

    @State(Scope.Thread)
    public static class Demo {
        /** Output size WIDTHxHEIGHT: small, so that the GPU (or lavapipe's CPU threads) keeps up. */
        @Param({"160x90"})
        public String size;

        Tally tally;
        DemoFrames frames;
        /** One run for the whole trial: its start (the HUD laid out on the first frame) and its end (the summary) are not a frame's. */
        dev.tally.demo.app.DemoApp.Run run;

        @Setup(Level.Trial)
        public void open() {
            String[] wh = size.split("x");
            tally = Tally.open(Config.load(null, List.of(dev.tally.demo.CommonOptions.LIVE_SHADERS)), List.of());
            frames = new DemoFrames(tally, Integer.parseInt(wh[0]), Integer.parseInt(wh[1]), Long.MAX_VALUE);
            run = frames.start();
        }

        /** The frame thread's own allocation, apart from JMH's threads (which gc.alloc.rate.norm counts too): bytes at the iteration's start, frames since. */
        private final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        private long bytesAtStart;
        long framesStepped;

        @Setup(Level.Iteration)
        public void startIteration() {
            framesStepped = 0;
            bytesAtStart = threads.getCurrentThreadAllocatedBytes();
        }

        /** Prints the frame thread's bytes per frame over the iteration (helper methods of a thread-scoped state run on its thread). */
        @TearDown(Level.Iteration)
        public void endIteration() {
            long bytes = threads.getCurrentThreadAllocatedBytes() - bytesAtStart;
            System.out.printf(Locale.ROOT, "  frame thread: %.3f bytes/frame (%d B over %d frames)%n", (double) bytes / Math.max(1, framesStepped), bytes, framesStepped);
        }

        @TearDown(Level.Trial)
        public void close() {
            run.finish();
            frames.close();
            String[] wh = size.split("x");
            try (DemoFrames measured = new DemoFrames(tally, Integer.parseInt(wh[0]), Integer.parseInt(wh[1]), FRAMES_PER_OPERATION)) {
                measured.run();   // its own warm-up
                DemoFrames.Figures f = measured.measure();
                System.out.printf(Locale.ROOT, "%n  frame CPU (pacing waits taken out): median %.2f us, mean %.2f us; the thread's own CPU time: "
                        + "median %.2f us; pacing %.2f us/frame; %.0f bytes/frame allocated by the frame thread (%d frames)%n", f.cpuMicrosMedian(),
                        f.cpuMicrosMean(), f.threadCpuMicrosMedian(), f.pacingMicrosPerFrame(), f.bytesPerFrame(), f.frames());
            }
            tally.close();
        }
    }

    /**
     * One frame of the demo, averaged over {@link #FRAMES_PER_OPERATION} frames of one run that lasts the whole trial: the run's
     * start and its end (a summary, a GPU drain) are outside every operation, as they are outside a game's frames.
     */
    @Benchmark
    @OperationsPerInvocation(FRAMES_PER_OPERATION)
    public void demoFrame(Demo d) {
        for (int i = 0; i < FRAMES_PER_OPERATION; i++) {
            d.run.step();
        }
        d.framesStepped += FRAMES_PER_OPERATION;
    }
}
