package dev.tally.internal.hud;

import org.lwjgl.system.MemoryUtil;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * One frame of the HUD as a draw list: ranges of shapes in draw order (solid rectangles, the histogram,
 * the plot, glyphs), each with the pixel bounds its shapes may cover and the panel box it belongs to.
 * The graphics path draws the ranges one by one; the compute path reads the same list from the
 * header {@link #write} puts in the frame's upload slot (the Scene block of shaders/hud.comp) and runs
 * only the 16 x 16 tiles under the boxes. Reused frame after frame: no allocation per frame.
 */
final class HudScene {
    static final int KIND_RECTS = 0, KIND_HISTOGRAM = 1, KIND_PLOT = 2, KIND_GLYPHS = 3;
    static final int MAX_RANGES = 64, MAX_RECTS = 32, BOXES = 3, TILE = 16;
    /** Bytes of the Scene block: 3 boxes, 2 uvec4, 5 vec4, the ranges, the rectangles. */
    static final int HEADER_BYTES = 16 * (BOXES + 2 + 5) + 32 * MAX_RANGES + 32 * MAX_RECTS;
    /** Where the glyph instances start in a slot: after the header, aligned for any storage offset alignment. */
    static final int GLYPH_OFFSET = (HEADER_BYTES + 255) / 256 * 256;

    private final int[] kind = new int[MAX_RANGES], first = new int[MAX_RANGES], count = new int[MAX_RANGES];
    private final int[] rangeBox = new int[MAX_RANGES], bounds = new int[4 * MAX_RANGES];
    private final int[] rects = new int[4 * MAX_RECTS], rectRgba = new int[MAX_RECTS];
    private final int[] boxes = new int[4 * BOXES], tiles = new int[4 * BOXES], boxEnds = new int[BOXES];
    private int ranges, rectCount, width, height;
    /** The group count {@link #planTiles} found for the list as it stands, or -1 once the list changed since. */
    private int planned = -1;

    /** Starts a new list for a {@code width x height} target. */
    void reset(int width, int height) {
        this.width = width;
        this.height = height;
        ranges = 0;
        rectCount = 0;
        planned = -1;
    }

    int ranges() {
        return ranges;
    }

    int kind(int r) {
        return kind[r];
    }

    int first(int r) {
        return first[r];
    }

    int count(int r) {
        return count[r];
    }

    /** Rectangle {@code i}: [x0, y0, x1, y1). */
    int rect(int i, int k) {
        return rects[4 * i + k];
    }

    int rectRgba(int i) {
        return rectRgba[i];
    }

    /** Appends a solid rectangle [x0, x1) x [y0, y1) in box {@code box} (joined to the previous range when that is one of rectangles in the same box). */
    void rect(int box, int x0, int y0, int x1, int y1, int rgba) {
        if (rectCount == MAX_RECTS) {
            throw new IllegalStateException("HUD draws more than " + MAX_RECTS + " rectangles");
        }
        planned = -1;
        int r = rectCount++;
        rects[4 * r] = x0;
        rects[4 * r + 1] = y0;
        rects[4 * r + 2] = x1;
        rects[4 * r + 3] = y1;
        rectRgba[r] = rgba;
        int last = ranges - 1;
        if (last >= 0 && kind[last] == KIND_RECTS && rangeBox[last] == box) {
            count[last]++;
            union(bounds, 4 * last, x0, y0, x1, y1);
        } else {
            range(box, KIND_RECTS, r, 1, x0, y0, x1, y1);
        }
    }

    /** Appends {@code n} shapes of {@code kind} from {@code first}, covering at most [x0, x1) x [y0, y1), in box {@code box}. */
    void range(int box, int kind, int first, int n, int x0, int y0, int x1, int y1) {
        if (n == 0) {
            return;
        }
        if (ranges == MAX_RANGES) {
            throw new IllegalStateException("HUD draws more than " + MAX_RANGES + " ranges");
        }
        planned = -1;
        int r = ranges++;
        this.kind[r] = kind;
        this.first[r] = first;
        this.count[r] = n;
        rangeBox[r] = box;
        bounds[4 * r] = x0;
        bounds[4 * r + 1] = y0;
        bounds[4 * r + 2] = x1;
        bounds[4 * r + 3] = y1;
    }

    private static void union(int[] b, int at, int x0, int y0, int x1, int y1) {
        b[at] = Math.min(b[at], x0);
        b[at + 1] = Math.min(b[at + 1], y0);
        b[at + 2] = Math.max(b[at + 2], x1);
        b[at + 3] = Math.max(b[at + 3], y1);
    }

    /**
     * Sizes the dispatch: each box is the union of its ranges, clipped to the target, in whole tiles. Returns the group count.
     * A list bound frame after frame is planned once.
     */
    int planTiles() {
        if (planned >= 0) {
            return planned;
        }
        Arrays.fill(boxes, 0);
        int total = 0;
        for (int b = 0; b < BOXES; b++) {
            int x0 = Integer.MAX_VALUE, y0 = Integer.MAX_VALUE, x1 = Integer.MIN_VALUE, y1 = Integer.MIN_VALUE;
            for (int r = 0; r < ranges; r++) {
                if (rangeBox[r] == b && bounds[4 * r] < bounds[4 * r + 2] && bounds[4 * r + 1] < bounds[4 * r + 3]) {
                    x0 = Math.min(x0, bounds[4 * r]);
                    y0 = Math.min(y0, bounds[4 * r + 1]);
                    x1 = Math.max(x1, bounds[4 * r + 2]);
                    y1 = Math.max(y1, bounds[4 * r + 3]);
                }
            }
            x0 = Math.max(0, x0);
            y0 = Math.max(0, y0);
            x1 = Math.min(width, x1);
            y1 = Math.min(height, y1);
            if (x0 >= x1 || y0 >= y1) {
                tiles[4 * b] = tiles[4 * b + 1] = tiles[4 * b + 2] = tiles[4 * b + 3] = 0;
            } else {
                tiles[4 * b] = x0 / TILE;
                tiles[4 * b + 1] = y0 / TILE;
                tiles[4 * b + 2] = (x1 + TILE - 1) / TILE;
                tiles[4 * b + 3] = (y1 + TILE - 1) / TILE;
            }
            total += (tiles[4 * b + 2] - tiles[4 * b]) * (tiles[4 * b + 3] - tiles[4 * b + 1]);
            boxEnds[b] = total;
        }
        return planned = total;
    }

    /**
     * Writes the Scene block of shaders/hud.comp at offset 0 of {@code out} (a direct buffer; native order, little-endian on
     * every platform LWJGL runs on); {@link #planTiles} first. By address, and only the ranges and rectangles in use: the
     * shader reads no range past the count and no rectangle no range names, so what a slot held before may stay.
     */
    void write(ByteBuffer out, int groupsX, int groupsY, float[] histArea, float minEV, float binsPerEV, int atlasWidth,
               float[] plotArea, float now, float span, float evLow, float evHigh, float lineWidth) {
        if (!out.isDirect() || out.capacity() < HEADER_BYTES) {
            throw new IllegalArgumentException("internal: the HUD scene needs " + HEADER_BYTES + " bytes of mapped memory, the slot has "
                    + out.capacity() + (out.isDirect() ? "" : " on the heap"));
        }
        long at = MemoryUtil.memAddress0(out);
        for (int i = 0; i < 4 * BOXES; i++, at += 4) {
            MemoryUtil.memPutInt(at, tiles[i]);
        }
        putInts(at, boxEnds[0], boxEnds[1], boxEnds[2], ranges);
        putInts(at + 16, groupsX, groupsY, width, height);
        at += 32;
        for (int i = 0; i < 4; i++) {
            MemoryUtil.memPutFloat(at + 4 * i, histArea[i]);
            MemoryUtil.memPutFloat(at + 16 + 4 * i, plotArea[i]);
        }
        at += 32;
        putFloats(at, minEV, binsPerEV, 0, 0);
        MemoryUtil.memPutInt(at + 8, atlasWidth);   // read as float bits (histParams.z)
        putFloats(at + 16, now, span, evLow, evHigh);
        putFloats(at + 32, lineWidth, 0, 0, 0);
        at += 48;
        long rectsAt = at + 32L * MAX_RANGES;
        for (int r = 0; r < ranges; r++, at += 32) {
            putInts(at, kind[r], first[r], count[r], 0);
            putInts(at + 16, bounds[4 * r], bounds[4 * r + 1], bounds[4 * r + 2], bounds[4 * r + 3]);
        }
        for (int i = 0; i < rectCount; i++, rectsAt += 32) {
            putInts(rectsAt, rects[4 * i], rects[4 * i + 1], rects[4 * i + 2], rects[4 * i + 3]);
            putInts(rectsAt + 16, rectRgba[i], 0, 0, 0);
        }
    }

    private static void putInts(long at, int a, int b, int c, int d) {
        MemoryUtil.memPutInt(at, a);
        MemoryUtil.memPutInt(at + 4, b);
        MemoryUtil.memPutInt(at + 8, c);
        MemoryUtil.memPutInt(at + 12, d);
    }

    private static void putFloats(long at, float a, float b, float c, float d) {
        MemoryUtil.memPutFloat(at, a);
        MemoryUtil.memPutFloat(at + 4, b);
        MemoryUtil.memPutFloat(at + 8, c);
        MemoryUtil.memPutFloat(at + 12, d);
    }
}
