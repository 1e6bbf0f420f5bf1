package dev.tally.demo.graphcheck;
import dev.tally.demo.app.ImageCopies;

import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.Handle;
import dev.tally.graph.ImageDesc;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassKind;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.vk.MemoryKind;
import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkBufferCopy;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import static org.lwjgl.vulkan.VK10.*;

/**
 * What a run produced: images and buffers copied to host memory by side-effect transfer passes at the end
 * of each frame, hashed once the GPU is done. One host buffer per copy, so no frame's copy overwrites
 * another's while frames overlap.
 */
public final class HostCopies implements AutoCloseable {
    private final VulkanContext ctx;
    private final List<TrackedBuffer> buffers = new ArrayList<>();
    private long bytes;

    public HostCopies(VulkanContext ctx) {
        this.ctx = ctx;
    }

    /** Adds pass {@code copy/LABEL} (a side effect) copying the whole of {@code source} to a new host buffer. */
    public void copy(FrameGraph g, String label, Handle source) {
        String name = "copy/" + label;
        if (source instanceof ImageHandle image) {
            ImageDesc desc = g.desc(image);
            long size = (long) bytesPerTexel(desc.format()) * desc.width() * desc.height();
            BufferHandle dst = g.importBuffer(name + ".host", host(name, size), Access.HOST_READ);
            record Io(ImageHandle src, BufferHandle dst) {
            }
            g.addPass(name, PassKind.TRANSFER, b -> {
                b.sideEffect();
                return new Io(b.read(image, Access.TRANSFER_SRC), b.write(dst, Access.TRANSFER_DST));
            }, (h, c) -> ImageCopies.toBuffer(c.cmd(), c.image(h.src()), c.buffer(h.dst())));
            return;
        }
        BufferHandle buffer = (BufferHandle) source;
        long size = g.desc(buffer).size();
        BufferHandle dst = g.importBuffer(name + ".host", host(name, size), Access.HOST_READ);
        record Io(BufferHandle src, BufferHandle dst) {
        }
        g.addPass(name, PassKind.TRANSFER, b -> {
            b.sideEffect();
            return new Io(b.read(buffer, Access.TRANSFER_SRC), b.write(dst, Access.TRANSFER_DST));
        }, (h, c) -> {
            try (MemoryStack stack = MemoryStack.stackPush()) {
                vkCmdCopyBuffer(c.cmd(), c.buffer(h.src()).handle(), c.buffer(h.dst()).handle(), VkBufferCopy.calloc(1, stack).size(size));
            }
        });
    }

    private TrackedBuffer host(String name, long size) {
        TrackedBuffer b = new TrackedBuffer(ctx, name, size, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.READBACK);
        buffers.add(b);
        bytes += size;
        return b;
    }

    private static int bytesPerTexel(int format) {
        return switch (format) {
            case VK_FORMAT_R32G32B32A32_SFLOAT -> 16;
            case VK_FORMAT_R16G16B16A16_SFLOAT -> 8;
            case VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_B8G8R8A8_SRGB -> 4;
            default -> throw new IllegalArgumentException("graphcheck cannot copy images of format " + format);
        };
    }

    /** Bytes copied so far. */
    public long bytes() {
        return bytes;
    }

    /** Waits for the GPU (a tool's wait, once per run) and returns the SHA-256 of every copy, in the order they were made. */
    public String hash() {
        ctx.waitIdle();
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (TrackedBuffer b : buffers) {
                b.invalidate(0, b.size());
                ByteBuffer view = MemoryUtil.memByteBuffer(b.mappedAddress(), (int) b.size());
                sha.update(view);
            }
            return HexFormat.of().formatHex(sha.digest()).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    @Override
    public void close() {
        buffers.forEach(TrackedBuffer::close);
        buffers.clear();
    }
}
