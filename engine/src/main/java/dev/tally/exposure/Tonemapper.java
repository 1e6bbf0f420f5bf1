package dev.tally.exposure;

import dev.tally.graph.FrameGraph;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.ImageHandle;
import static org.lwjgl.vulkan.VK10.*;

/**
 * The tonemap pass: HDR x the GPU-side exposure multiplier, ACES fit, into an LDR target. A compute
 * pass writes the target as a storage image when its format supports storage on this device and the
 * image was created with STORAGE usage (on GPUs with few graphics units, fullscreen fragment work is far
 * slower than compute); otherwise a fullscreen triangle draws it. Both store the same values.
 */
public interface Tonemapper extends AutoCloseable {
    /** Rebuilds pipelines from current sources (hot reload); on a compile error the old ones stay. */
    void reload();

    /**
     * Adds pass {@code tonemap} writing {@code target} (cleared).
     *
     * @param g        this frame's graph
     * @param hdr      the HDR image, sampled
     * @param exposure the exposure record ({@link AutoExposure.Result#exposure()}): its multiplier scales the image
     * @param target   the LDR image written: a UNORM format (the pass encodes sRGB) or an _SRGB one
     * @return the target's new version, for the passes after (a HUD, a copy, presentation)
     */
    ImageHandle add(FrameGraph g, ImageHandle hdr, BufferHandle exposure, ImageHandle target);

    /**
     * Adds pass {@code name} (a label, e.g. {@code "left/tonemap"}) writing {@code target} (cleared),
     * in the target's format as the graph knows it: a compute pass where the format and the image's
     * usage allow storage writes, a fullscreen draw otherwise.
     *
     * @param frameGraph this frame's graph
     * @param name       the pass's name
     * @param hdr        the HDR image, sampled
     * @param exposure   the exposure record: its multiplier scales the image
     * @param target     the LDR image written
     * @return the target's new version
     */
    ImageHandle add(FrameGraph frameGraph, String name, ImageHandle hdr, BufferHandle exposure, ImageHandle target);

    /** Releases the pipelines, deferred until the GPU is done with them. */
    void close();
}
