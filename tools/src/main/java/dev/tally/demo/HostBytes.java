package dev.tally.demo;

import org.lwjgl.system.MemoryUtil;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

/**
 * A whole input stream held in native memory, read to its end: pipes, FIFOs and /proc files report no
 * size or a wrong one, so the count that matters is the one read. Chunks grow from 64 KiB to 16 MiB, so a
 * small input costs little and a large one few allocations. Reading stops as soon as the count passes a
 * limit, before the chunk that would pass it is allocated.
 */
final class HostBytes implements AutoCloseable {
    private static final int FIRST_CHUNK = 64 << 10;
    private static final int LARGEST_CHUNK = 16 << 20;

    private final List<ByteBuffer> chunks = new ArrayList<>();
    private long bytes;

    private HostBytes() {
    }

    /**
     * Reads {@code in} to its end. {@code tooLarge} makes the exception thrown when more than {@code limit}
     * bytes arrive (its argument: the bytes read so far); a failing read is bad input naming {@code name}.
     */
    static HostBytes read(String name, InputStream in, long limit, LongFunction<RuntimeException> tooLarge) {
        HostBytes all = new HostBytes();
        try {
            byte[] buffer = new byte[FIRST_CHUNK];
            ByteBuffer chunk = null;
            for (int n; (n = in.read(buffer)) >= 0; ) {
                if (all.bytes + n > limit) {
                    throw tooLarge.apply(all.bytes + n);
                }
                for (int off = 0; off < n; ) {
                    if (chunk == null || !chunk.hasRemaining()) {
                        chunk = all.allocate(name);
                    }
                    int put = Math.min(n - off, chunk.remaining());
                    chunk.put(buffer, off, put);
                    off += put;
                }
                all.bytes += n;
            }
            for (ByteBuffer c : all.chunks) {
                c.flip();
            }
            return all;
        } catch (IOException e) {
            all.close();
            throw new UserInputException(name + ": read failed after " + all.bytes + " bytes: " + ReduceCommand.reason(e));
        } catch (RuntimeException | Error e) {
            all.close();
            throw e;
        }
    }

    private ByteBuffer allocate(String name) {
        int size = chunks.isEmpty() ? FIRST_CHUNK : Math.min(LARGEST_CHUNK, 2 * chunks.get(chunks.size() - 1).capacity());
        ByteBuffer b;
        try {
            b = MemoryUtil.memAlloc(size);
        } catch (OutOfMemoryError e) {
            throw new UserInputException(name + ": out of host memory after " + bytes + " bytes");
        }
        chunks.add(b);
        return b;
    }

    long bytes() {
        return bytes;
    }

    /** The bytes in order, as a stream; valid until {@link #close()}. */
    InputStream stream() {
        return new InputStream() {
            private int index;

            @Override
            public int read() {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                while (index < chunks.size() && !chunks.get(index).hasRemaining()) {
                    index++;
                }
                if (index == chunks.size()) {
                    return -1;
                }
                ByteBuffer c = chunks.get(index);
                int n = Math.min(len, c.remaining());
                c.get(b, off, n);
                return n;
            }
        };
    }

    @Override
    public void close() {
        chunks.forEach(MemoryUtil::memFree);
        chunks.clear();
    }
}
