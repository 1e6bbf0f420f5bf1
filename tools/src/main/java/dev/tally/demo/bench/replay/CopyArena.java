package dev.tally.demo.bench.replay;

import org.lwjgl.system.MemoryUtil;

/**
 * Off-heap memory for the structs a captured frame's commands point to, filled once while capturing and
 * read by every replayed frame; freed by {@link #close}. Bump-allocated in blocks, 16-byte aligned.
 */
final class CopyArena implements AutoCloseable {
    private static final int BLOCK = 64 << 10;
    private long[] blocks = new long[4];
    private int count;
    private long next, end;

    /** A copy of {@code bytes} bytes at {@code src} (0 when {@code src} is 0 or there is nothing to copy). */
    long copy(long src, long bytes) {
        if (src == 0 || bytes == 0) {
            return 0;
        }
        long dst = allocate(bytes);
        MemoryUtil.memCopy(src, dst, bytes);
        return dst;
    }

    private long allocate(long bytes) {
        long size = (bytes + 15) & ~15L;
        if (next + size > end) {
            long block = MemoryUtil.nmemAlignedAllocChecked(16, Math.max(BLOCK, size));
            if (count == blocks.length) {
                blocks = java.util.Arrays.copyOf(blocks, count * 2);
            }
            blocks[count++] = block;
            next = block;
            end = block + Math.max(BLOCK, size);
        }
        long at = next;
        next += size;
        return at;
    }

    @Override
    public void close() {
        for (int i = 0; i < count; i++) {
            MemoryUtil.nmemAlignedFree(blocks[i]);
        }
        count = 0;
        next = end = 0;
    }
}
