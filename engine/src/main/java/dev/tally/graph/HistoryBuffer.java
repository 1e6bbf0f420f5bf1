package dev.tally.graph;

import dev.tally.vk.GpuBuffer;
import dev.tally.vk.MemoryKind;
import dev.tally.vk.VulkanContext;

import static org.lwjgl.vulkan.VK10.vkCmdFillBuffer;

/**
 * A buffer that persists across frames: each frame writes the current copy and may read last
 * frame's. Two physical buffers alternate. Without an initial value the previous copy is null on the
 * first frame; with one, it reads as that value repeated. After {@link #reset()} it is null.
 */
public final class HistoryBuffer implements AutoCloseable {
    private final String name;
    private final BufferDesc desc;
    private final GpuBuffer[] copies = new GpuBuffer[2];
    private final Integer initialWord;
    private long frames;
    private boolean valid;

    public HistoryBuffer(VulkanContext ctx, String name, BufferDesc desc, Integer initialWord) {
        this.name = name;
        this.desc = desc;
        this.initialWord = initialWord;
        try (dev.tally.vk.ConstructionGuard guard = new dev.tally.vk.ConstructionGuard()) {
            for (int i = 0; i < 2; i++) {
                copies[i] = guard.add(new GpuBuffer(ctx, name + "[" + i + "]", desc.size(),
                        desc.usage() | org.lwjgl.vulkan.VK10.VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.DEVICE));
            }
            if (initialWord != null) {
                ctx.submitAndWait(cmd -> {
                    for (GpuBuffer b : copies) {
                        vkCmdFillBuffer(cmd, b.handle(), 0, b.size(), initialWord);
                    }
                });
                valid = true;
            }
            guard.done();
        }
    }

    public String name() { return name; }
    public BufferDesc desc() { return desc; }

    GpuBuffer current() {
        return copies[(int) (frames & 1)];
    }

    GpuBuffer previousOrNull() {
        return valid ? copies[(int) ((frames + 1) & 1)] : null;
    }

    /** Called by the runtime after each recorded frame. */
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
