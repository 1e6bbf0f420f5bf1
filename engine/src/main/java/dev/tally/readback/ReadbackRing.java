package dev.tally.readback;

import dev.tally.readback.SampleListener;
import dev.tally.readback.ReadbackRequest;
import dev.tally.readback.Subscription;
import dev.tally.graph.FrameGraph;
import dev.tally.readback.TimeSource;
import dev.tally.readback.ReadbackStats;
import dev.tally.readback.Sample;
import dev.tally.graph.BufferHandle;
import dev.tally.internal.graph.GraphDeclaration;
import dev.tally.internal.graph.GraphRuntime;
import dev.tally.graph.ImageHandle;
import dev.tally.internal.guard.ConstructionGuard;
import dev.tally.internal.vk.VulkanContext;
import dev.tally.internal.vk.Waits;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;

/**
 * Host-visible slots that hand the CPU GPU values without ever waiting (except in {@link Mode#SYNC}).
 * <p>
 * The ring follows the frames of its {@link GraphRuntime}. {@link #capture} adds a transfer pass that
 * copies the sources into slot {@code f % N}, then writes the frame number beside the payload and a GPU
 * timestamp. When a frame begins the ring reads the timeline once and delivers, depending on the
 * {@link Mode}: the slot the frame is about to reuse (fixed), or the newest completed one (freshest).
 * A delivered sample carries its provenance (frame, lag, completion time, age); one whose GPU-written
 * frame number is not its frame's is rejected and counted, never delivered. Samples reach
 * {@link #latest()} (polling), {@link #onSample subscribers} (callbacks, optionally into caller-owned
 * arrays: no allocation per sample) and {@link #requestOnce one-shot requests}.
 * <p>
 * Slot layout: a 16-byte header (word 0: the low 32 bits of the frame number, written by the GPU after
 * the copies) then the payload (see {@link SlotLayout}).
 * <p>
 * The ring is the public face and owns the every-frame slots; {@link FrameDelivery} hands samples out,
 * {@link CapturePass} declares and records the copies, {@link OneShotRequests} keeps the one-shot slots
 * and {@link CompletionTimes} dates each sample.
 */
public interface ReadbackRing extends AutoCloseable {
    /** How samples are delivered. */
    public enum Mode {
        /** Exactly N frames late, never waits. */
        FIXED,
        /**
         * Read within the frame: when Tally submits the frame it waits for it and delivers at once (lag 0);
         * when the caller submits, at the next frame's beginning (lag 1). A baseline, counted as readback waits.
         */
        SYNC,
        /**
         * The newest completed slot at each frame's beginning (typically 1-2 frames old on a fast GPU, at
         * most N), never waits; older completed slots are skipped and counted as superseded.
         */
        FRESHEST;

        private final String id = name().toLowerCase(java.util.Locale.ROOT);

        /** The mode as the configuration spells it ({@code fixed}, {@code sync}, {@code freshest}). */
        public String id() {
            return id;
        }
    }
    /** Something a capture copies: a buffer range or an image region. */
    public sealed interface Source permits Region, ImageRegion {
    }
    /** A region to capture: {@code bytes} from {@code offset} of {@code source}. */
    public record Region(BufferHandle source, long offset, long bytes) implements Source {
        /** The first {@code bytes} of {@code source}. */
        public static Region of(BufferHandle source, long bytes) {
            return new Region(source, 0, bytes);
        }
    }
    /**
     * A rectangle of an image (mip 0, layer 0), converted to RGBA floats at delivery. The image needs
     * TRANSFER_SRC usage and one of the formats {@link TexelFormats#supported()} names.
     */
    public record ImageRegion(ImageHandle image, int x, int y, int width, int height) implements Source {
        public static ImageRegion texel(ImageHandle image, int x, int y) {
            return new ImageRegion(image, x, y, 1, 1);
        }
    }
    /** Captures the whole of a small buffer (at most the slot capacity). */
    void capture(FrameGraph g, BufferHandle source);

    /** Adds the transfer pass (a side effect, never culled) that copies {@code sources} into this frame's slot. */
    void capture(FrameGraph frameGraph, List<? extends Source> sources);

    /**
     * Reads {@code sources} once: delivered exactly once to {@code listener} (may be null) and the returned
     * request's future, at the first frame beginning after the GPU finished. At most as many one-shot
     * requests as the ring has slots may be pending.
     */
    ReadbackRequest requestOnce(FrameGraph frameGraph, List<? extends Source> sources, SampleListener listener);

    /** The newest every-frame sample, or empty before the first one: never waits (allocates a copy once per new sample). */
    Optional<Sample> latest();

    /** Every every-frame sample goes to {@code listener} when its frame begins, on that caller's thread. */
    Subscription onSample(SampleListener listener);

    /** Each sample is converted into {@code destination} (from index 0), then {@code listener} (may be null) is called. */
    Subscription onSample(float[] destination, SampleListener listener);

    /** Each sample's raw payload goes into {@code destination} (from 0, then flipped), then {@code listener} (may be null) is called. */
    Subscription onSample(ByteBuffer destination, SampleListener listener);

    /** Counters; {@code blockingWaits} are the context's readback waits, from the one place that counts waits. */
    ReadbackStats stats();

    int slotCount();

    Mode mode();

    int maxAgeFrames();

    /** How this ring's completion times are obtained on this device. */
    TimeSource timeSource();

    String name();

    void close();
}
