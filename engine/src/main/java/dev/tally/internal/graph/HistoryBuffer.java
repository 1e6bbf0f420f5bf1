package dev.tally.internal.graph;

import dev.tally.graph.BufferDesc;

import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.vk.MemoryKind;
import dev.tally.internal.vk.VulkanContext;


/**
 * A buffer that persists across frames: each frame writes the current copy and may read last
 * frame's. Two physical buffers alternate. Without an initial value the previous copy is null on the
 * first frame; with one, it reads as that value repeated. After {@link #reset()} it is null.
 */
public final class HistoryBuffer implements AutoCloseable {
    private final String name;
    /** The name of last frame's copy in a graph (made once: declaring the history builds no string). */
    final String previousName;
    private final BufferDesc desc;
    private final TrackedBuffer[] copies = new TrackedBuffer[2];
    private long frames;
    private boolean valid;

    /** Made by {@link GraphRuntime#history}, which also schedules the initial fill. */
    HistoryBuffer(VulkanContext ctx, String name, BufferDesc desc, boolean initialized) {
        this.name = name;
        this.previousName = name + "@prev";
        this.desc = desc;
        try (dev.tally.internal.guard.ConstructionGuard guard = new dev.tally.internal.guard.ConstructionGuard()) {
            for (int i = 0; i < 2; i++) {
                copies[i] = guard.add(new TrackedBuffer(ctx, name + "[" + i + "]", desc.size(),
                        desc.usage() | org.lwjgl.vulkan.VK10.VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.DEVICE));
            }
            guard.done();
        }
        valid = initialized;
    }

    java.util.List<TrackedBuffer> copies() {
        return java.util.List.of(copies);
    }

    public String name() { return name; }
    public BufferDesc desc() { return desc; }

    TrackedBuffer current() {
        return copies[(int) (frames & 1)];
    }

    TrackedBuffer previousOrNull() {
        return valid ? copies[(int) ((frames + 1) & 1)] : null;
    }

    /** Called by the runtime after each recorded frame that declared this history. */
    void advance() {
        frames++;
        valid = true;
    }

    /** Forget the past (a camera cut): next frame's previous copy is null. */
    public void reset() {
        valid = false;
    }

    @Override
    public void close() {
        copies[0].close();
        copies[1].close();
    }
}
