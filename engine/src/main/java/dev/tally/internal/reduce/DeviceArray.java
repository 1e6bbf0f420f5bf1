package dev.tally.internal.reduce;

import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.vk.MemoryKind;
import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.system.MemoryUtil;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;

import static org.lwjgl.vulkan.VK10.*;

/**
 * An array of f32 on the GPU, filled from host data in bounded chunks (never one giant host copy):
 * written in place where the memory is host-visible, otherwise through a reused staging buffer.
 */
public final class DeviceArray implements AutoCloseable {
    private static final long STAGING_BYTES = 64L << 20;
    private final VulkanContext ctx;
    private final TrackedBuffer buffer;
    private final long count;

    private DeviceArray(VulkanContext ctx, String name, long count) {
        this.ctx = ctx;
        this.count = count;
        // Vulkan has no empty buffers; an empty array still owns 16 bytes that are never read.
        this.buffer = new TrackedBuffer(ctx, name, Math.max(16, 4 * count),
                VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                MemoryKind.DEVICE_FILLED);
    }

    public static DeviceArray of(VulkanContext ctx, String name, float[] values) {
        DeviceArray a = new DeviceArray(ctx, name, values.length);
        try {
            ByteBuffer bytes = MemoryUtil.memAlloc(Math.max(4, values.length * 4)).order(ByteOrder.LITTLE_ENDIAN);
            try {
                bytes.asFloatBuffer().put(values);
                bytes.limit(values.length * 4);
                a.fill(new ByteBufferInput(bytes));
            } finally {
                MemoryUtil.memFree(bytes);
            }
            return a;
        } catch (IOException | RuntimeException e) {
            a.close();
            throw e instanceof IOException io ? new IllegalStateException(io) : (RuntimeException) e;
        }
    }

    /** Reads exactly {@code count} little-endian floats from {@code in}; EOF before that is an error. */
    public static DeviceArray read(VulkanContext ctx, String name, long count, InputStream in) throws IOException {
        DeviceArray a = new DeviceArray(ctx, name, count);
        try {
            a.fill(in);
            return a;
        } catch (IOException | RuntimeException e) {
            a.close();
            throw e;
        }
    }

    private void fill(InputStream in) throws IOException {
        long total = 4 * count;
        if (total == 0) {
            return;
        }
        if (buffer.isMapped()) {
            long dst = buffer.mappedAddress();
            ByteBuffer window = MemoryUtil.memAlloc((int) Math.min(STAGING_BYTES, total));
            try {
                for (long done = 0; done < total; ) {
                    int n = (int) Math.min(window.capacity(), total - done);
                    readFully(in, window, n, done, total);
                    MemoryUtil.memCopy(MemoryUtil.memAddress0(window), dst + done, n);
                    done += n;
                }
            } finally {
                MemoryUtil.memFree(window);
            }
            buffer.flush(0, total);
            return;
        }
        try (TrackedBuffer staging = new TrackedBuffer(ctx, buffer.name() + ".staging", Math.min(STAGING_BYTES, total),
                VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryKind.UPLOAD)) {
            ByteBuffer view = MemoryUtil.memByteBuffer(staging.mappedAddress(), (int) staging.size());
            for (long done = 0; done < total; ) {
                int n = (int) Math.min(staging.size(), total - done);
                readFully(in, view, n, done, total);
                staging.flush(0, n);
                long offset = done;
                ctx.submitAndWait(cmd -> {
                    try (org.lwjgl.system.MemoryStack stack = org.lwjgl.system.MemoryStack.stackPush()) {
                        vkCmdCopyBuffer(cmd, staging.handle(), buffer.handle(),
                                org.lwjgl.vulkan.VkBufferCopy.calloc(1, stack).srcOffset(0).dstOffset(offset).size(n));
                    }
                });
                done += n;
            }
        }
    }

    private static void readFully(InputStream in, ByteBuffer window, int n, long done, long total) throws IOException {
        window.clear().limit(n);
        byte[] tmp = new byte[Math.min(n, 1 << 20)];
        while (window.hasRemaining()) {
            int r = in.read(tmp, 0, Math.min(tmp.length, window.remaining()));
            if (r < 0) {
                throw new EOFException("input ended after " + (done + window.position()) + " of " + total + " bytes");
            }
            window.put(tmp, 0, r);
        }
    }

    /** An InputStream over a direct ByteBuffer, to share the chunked path. */
    private static final class ByteBufferInput extends InputStream {
        private final ByteBuffer src;

        ByteBufferInput(ByteBuffer src) {
            this.src = src;
        }

        @Override
        public int read() {
            return src.hasRemaining() ? src.get() & 0xff : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (!src.hasRemaining()) {
                return -1;
            }
            int n = Math.min(len, src.remaining());
            src.get(b, off, n);
            return n;
        }
    }

    public TrackedBuffer buffer() {
        return buffer;
    }

    public long count() {
        return count;
    }

    @Override
    public void close() {
        buffer.close();
    }
}
