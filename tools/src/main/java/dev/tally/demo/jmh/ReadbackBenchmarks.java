package dev.tally.demo.jmh;

import dev.tally.internal.readback.SampleHandOut;
import dev.tally.internal.readback.SlotLayout;
import dev.tally.readback.TimeSource;
import org.lwjgl.system.MemoryUtil;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.nio.ByteBuffer;
import java.nio.FloatBuffer;
import java.util.concurrent.TimeUnit;

import static org.lwjgl.vulkan.VK10.VK_FORMAT_R16G16B16A16_SFLOAT;

/**
 * Java allocation of a readback ring's per-sample path: the {@link SampleHandOut} a ring calls for each completed
 * slot (sequence check, provenance, lag and age statistics, copy into the caller's {@code float[]} and
 * {@code ByteBuffer}, the callback, the copy kept for polling), on host memory laid out as a slot: a 16-byte
 * header, 64 floats from a buffer and a 2x2 RGBA16F image region. Run with the GC profiler; the figure that
 * matters is {@code gc.alloc.rate.norm} (bytes per operation):
 * {@code java -cp tools/target/tally-tools.jar:tools/target/lib/* org.openjdk.jmh.Main ReadbackBenchmarks -prof gc}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 3, time = 2)
@State(Scope.Thread)
public class ReadbackBenchmarks {
    private SampleHandOut handOut;
    private SlotLayout layout;
    private long slot;
    /** The slot's memory as words, made once as a ring's slot makes it. */
    private FloatBuffer slotWords;
    private long frame;
    private final float[] floats = new float[64 + 16];
    private final ByteBuffer bytes = ByteBuffer.allocateDirect(1024);
    private float sink;

    @Setup
    public void setUp() {
        handOut = new SampleHandOut("bench", 1024, 3, TimeSource.CALIBRATED);
        layout = new SlotLayout();
        layout.addBuffer(256);
        layout.addImage(VK_FORMAT_R16G16B16A16_SFLOAT, 4);
        slot = MemoryUtil.nmemCalloc(1, 16 + 1024);
        slotWords = MemoryUtil.memFloatBuffer(slot, (16 + 1024) / 4);
        for (int i = 0; i < 64; i++) {
            MemoryUtil.memPutFloat(slot + 16 + 4L * i, i * 0.5f);
        }
        handOut.subscribe(d -> sink += d.floatAt(0) + d.lag(), floats, null);
        handOut.subscribe(null, null, bytes);
    }

    /** One sample handed out: what a ring does per completed slot after reading the timeline and the timestamp. */
    @Benchmark
    public void deliverIntoCallerArrays(Blackhole bh) {
        long f = frame++;
        MemoryUtil.memPutInt(slot, (int) f);   // the sequence number the GPU writes
        long now = System.nanoTime();
        bh.consume(handOut.deliver(slot, slotWords, layout, f, f + 1, f + 2, now - 500_000, now, null));
        bh.consume(floats[3]);
    }

    /** A rejected sample (sequence not its frame's): counted, nothing handed out. */
    @Benchmark
    public void rejectMismatchedSequence(Blackhole bh) {
        long f = frame++;
        MemoryUtil.memPutInt(slot, (int) f - 3);
        long now = System.nanoTime();
        bh.consume(handOut.deliver(slot, slotWords, layout, f, f + 1, f + 2, now, now, null));
    }

    @TearDown
    public void tearDown() {
        handOut.close();
        MemoryUtil.nmemFree(slot);
        if (sink == 42.4242f) {
            System.out.println();
        }
    }

    public static void main(String[] args) throws Exception {
        org.openjdk.jmh.Main.main(args.length == 0 ? new String[]{ReadbackBenchmarks.class.getSimpleName(), "-prof", "gc"} : args);
    }
}
