package dev.tally.readback;

import dev.tally.readback.SampleListener;
import dev.tally.readback.ReadbackRequest;
import dev.tally.readback.Subscription;
import dev.tally.graph.FrameGraph;
import dev.tally.readback.TimeSource;
import dev.tally.readback.ReadbackStats;
import dev.tally.readback.Sample;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.ImageHandle;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;

/**
 * Host-visible slots that hand the CPU GPU values without ever waiting (except in {@link Mode#SYNC}).
 * <p>
 * Made by {@link dev.tally.Tally#readback}. The ring follows Tally's frames. {@link #capture} adds a transfer pass that
 * copies the sources into slot {@code f % N}, then writes the frame number beside the payload and a GPU
 * timestamp. When a frame begins the ring reads the timeline once and delivers, depending on the
 * {@link Mode}: the slot the frame is about to reuse (fixed), or the newest completed one (freshest).
 * A delivered sample carries its provenance (frame, lag, completion time, age); one whose GPU-written
 * frame number is not its frame's is rejected and counted, never delivered. Samples reach
 * {@link #latest()} (polling), {@link #onSample subscribers} (callbacks, optionally into caller-owned
 * arrays: no allocation per sample) and {@link #requestOnce one-shot requests}.
 * <p>
 * Slot layout: a 16-byte header (word 0: the low 32 bits of the frame number, written by the GPU after
 * the copies) then the payload: buffer regions one after another without padding, each image region from
 * the next multiple of 16 bytes. Each slot remembers the layout of the frame that wrote it, so a sample
 * is never read with a later frame's (after a resize, say).
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

        /** {@return the mode as the configuration spells it ({@code fixed}, {@code sync}, {@code freshest})} */
        public String id() {
            return id;
        }
    }
    /** Something a capture copies: a buffer range or an image region. */
    public sealed interface Source permits Region, ImageRegion {
    }
    /**
     * A region to capture: {@code bytes} from {@code offset} of {@code source}; its 32-bit words are read as floats.
     *
     * @param source the buffer
     * @param offset the first byte
     * @param bytes  how many bytes
     */
    public record Region(BufferHandle source, long offset, long bytes) implements Source {
        /**
         * {@return the first {@code bytes} of {@code source}}
         *
         * @param source the buffer
         * @param bytes  how many bytes from its start
         */
        public static Region of(BufferHandle source, long bytes) {
            return new Region(source, 0, bytes);
        }
    }
    /**
     * A rectangle of an image (mip 0, layer 0), converted to RGBA floats at delivery. The image needs
     * TRANSFER_SRC usage and one of the formats R16G16B16A16_SFLOAT, R32G32B32A32_SFLOAT,
     * B10G11R11_UFLOAT_PACK32 (alpha 1), R8G8B8A8_UNORM/SRGB or B8G8R8A8_UNORM/SRGB (sRGB decoded to linear).
     *
     * @param image  the image
     * @param x      the rectangle's left column
     * @param y      its top row
     * @param width  its width in texels
     * @param height its height in texels
     */
    public record ImageRegion(ImageHandle image, int x, int y, int width, int height) implements Source {
        /**
         * {@return the one texel at ({@code x}, {@code y}): four floats}
         *
         * @param image the image
         * @param x     the texel's column
         * @param y     its row
         */
        public static ImageRegion texel(ImageHandle image, int x, int y) {
            return new ImageRegion(image, x, y, 1, 1);
        }
    }
    /**
     * Captures a small buffer into this frame's slot from its start: all of it, or, where it is larger than the ring's
     * capacity, its first capacity bytes (its size rounded down to whole floats). A reduce node's 16-byte result is
     * captured whole (the value at float 0), or its first float alone by a ring of 4 bytes.
     *
     * @param g      this frame's graph
     * @param source the buffer, as the graph knows its size
     */
    void capture(FrameGraph g, BufferHandle source);

    /**
     * Adds the transfer pass (a side effect, never culled) that copies {@code sources} into this frame's slot. A list of
     * records made each frame is garbage each frame: {@link #capture(FrameGraph, SourceList)} takes the same sources without.
     *
     * @param frameGraph this frame's graph
     * @param sources    what to copy, in payload order; together at most the ring's capacity
     */
    void capture(FrameGraph frameGraph, List<? extends Source> sources);

    /**
     * Adds the pass that copies {@code sources} into this frame's slot, as {@link #capture(FrameGraph, List)} does, from a
     * list the caller refills each frame without allocating:
     * {@code ring.capture(g, sources.clear().buffer(total, 4).buffer(stats, ReduceStats.RECORD_BYTES))}.
     *
     * @param frameGraph this frame's graph
     * @param sources    made by a ring's {@link #sourceList()}; read now, nothing of it kept
     */
    void capture(FrameGraph frameGraph, SourceList sources);

    /**
     * {@return an empty source list, made once and refilled each frame}: a list of {@link Region} records would be new
     * objects every frame, since the regions name each frame's own handles
     */
    SourceList sourceList();

    /**
     * What a capture copies, in payload order: buffer ranges and image rectangles as {@link Region} and
     * {@link ImageRegion} describe them, stored without an object per source. At most 16 sources; each is checked
     * against its frame's graph when captured.
     */
    interface SourceList {
        /** {@return this list, emptied} */
        SourceList clear();

        /**
         * {@return this list, with {@code bytes} from {@code offset} of {@code source} added}
         *
         * @param source the buffer
         * @param offset the first byte
         * @param bytes  how many bytes (whole floats)
         */
        SourceList buffer(BufferHandle source, long offset, long bytes);

        /**
         * {@return this list, with the first {@code bytes} of {@code source} added}
         *
         * @param source the buffer
         * @param bytes  how many bytes from its start (whole floats)
         */
        SourceList buffer(BufferHandle source, long bytes);

        /**
         * {@return this list, with a rectangle of {@code image} (mip 0, layer 0) added, converted to RGBA floats at delivery}
         *
         * @param image  the image (formats and usage as {@link ImageRegion} says)
         * @param x      the rectangle's left column
         * @param y      its top row
         * @param width  its width in texels
         * @param height its height in texels
         */
        SourceList image(ImageHandle image, int x, int y, int width, int height);

        /** {@return how many sources the list holds} */
        int size();
    }

    /**
     * Reads {@code sources} once: delivered exactly once to {@code listener} (may be null) and the returned
     * request's future, at the first frame beginning after the GPU finished. At most as many one-shot
     * requests as the ring has slots may be pending.
     *
     * @param frameGraph this frame's graph
     * @param sources    what to copy, in payload order
     * @param listener   called with the sample at delivery, or null
     * @return the request, whose future completes at delivery
     */
    ReadbackRequest requestOnce(FrameGraph frameGraph, List<? extends Source> sources, SampleListener listener);

    /**
     * {@return the newest every-frame sample, or empty before the first one: never waits (allocates a copy once per new sample)}
     */
    Optional<Sample> latest();

    /**
     * Every every-frame sample goes to {@code listener} when its frame begins, on that caller's thread.
     *
     * @param listener called with each sample, valid only during the call
     * @return the subscription; close it to stop hearing
     */
    Subscription onSample(SampleListener listener);

    /**
     * Each sample is converted into {@code destination} (from index 0), then {@code listener} (may be null) is called:
     * a caller-owned array, so delivery allocates nothing.
     *
     * @param destination receives the payload as floats; sized for the capture's floats
     * @param listener    called after the copy, or null
     * @return the subscription; close it to stop hearing
     */
    Subscription onSample(float[] destination, SampleListener listener);

    /**
     * Each sample's raw payload goes into {@code destination} (from 0, then flipped), then {@code listener} (may be null) is called.
     *
     * @param destination receives the payload bytes; sized for the capture's bytes
     * @param listener    called after the copy, or null
     * @return the subscription; close it to stop hearing
     */
    Subscription onSample(ByteBuffer destination, SampleListener listener);

    /** {@return the ring's live counters: one object, read in place each call (no allocation per read)} */
    ReadbackCounters counters();

    /** {@return the ring's counters so far, a snapshot} */
    ReadbackStats stats();

    /** {@return the number of slots ({@code readback.slots}): a fixed-mode sample is this many frames late} */
    int slotCount();

    /** {@return how samples are delivered} */
    Mode mode();

    /** {@return the age in frames beyond which a sample is flagged stale} */
    int maxAgeFrames();

    /** {@return how this ring's completion times are obtained on this device} */
    TimeSource timeSource();

    /** {@return the name its passes and buffers are labelled with} */
    String name();

    /** Releases the slots, deferred until the GPU is done with them; pending one-shot requests are cancelled. */
    void close();
}
