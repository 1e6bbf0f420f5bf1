package dev.tally.internal.hud;

import org.junit.jupiter.api.Test;
import org.lwjgl.system.MemoryUtil;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The glyph instances TextLayout writes for the HUD's shaders, read back field by field (hud_common.glsl's layout). No GPU. */
class TextLayoutTest {
    private static final FontAtlas FONT = FontAtlas.bake(FontAtlas.pixelHeightFor(720, HudOverlayNode.DEFAULT_TEXT_FRACTION));

    @Test
    void eachInstanceHoldsItsPositionAtlasRectangleSizeAndColour() {
        String[] text = {"EV 12.5 ok", "fps: 60"};
        int[][] pens = {{10, 40, 0x11223344}, {10, 80, 0x55667788}};
        TextLayout layout = new TextLayout(FONT).add(text[0], 10, 40, 0x11223344).add(text[1], 10, 80, 0x55667788);
        assertEquals(8 + 6, layout.count(), "blanks place nothing");
        ByteBuffer memory = MemoryUtil.memCalloc(64 + layout.count() * TextLayout.GLYPH_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        try {
            assertEquals(layout.count(), layout.write(memory.slice(64, memory.capacity() - 64).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer(), 1000));
            // Expected from the font's own glyph records and the pen's advance, not from the layout's storage.
            int i = 0;
            for (int line = 0; line < text.length; line++) {
                for (int c = 0; c < text[line].length(); c++) {
                    FontAtlas.Glyph g = FONT.glyph(text[line].charAt(c));
                    if (g.width() == 0 || g.height() == 0) {
                        continue;
                    }
                    int at = 64 + i * TextLayout.GLYPH_BYTES;
                    assertEquals(pens[line][0] + c * FONT.advance() + g.xOffset(), memory.getFloat(at), "x of glyph " + i);
                    assertEquals(pens[line][1] + g.yOffset(), memory.getFloat(at + 4), "y of glyph " + i);
                    assertEquals(g.atlasX() | g.atlasY() << 16, memory.getInt(at + 8), "atlas origin of glyph " + i);
                    assertEquals(g.width() | g.height() << 16, memory.getInt(at + 12), "bitmap size of glyph " + i);
                    assertEquals(pens[line][2], memory.getInt(at + 16), "colour of glyph " + i);
                    i++;
                }
            }
            assertEquals(layout.count(), i);
            assertEquals(0, memory.getInt(60), "nothing written before the slot's glyphs");
            List<TextLayout.Placed> placed = layout.placed();
            assertEquals(FONT.glyph('E'), placed.get(0).glyph());
            assertEquals(10 + FONT.glyph('E').xOffset(), placed.get(0).x());
            assertTrue(placed.get(1).x() > placed.get(0).x(), "the pen advances");
            MemoryUtil.memSet(memory, 0);
            assertEquals(3, layout.write(memory.asIntBuffer(), 3), "at most max instances");
            assertEquals(Float.floatToRawIntBits(10 + FONT.glyph('1').xOffset() + 3 * FONT.advance()), memory.getInt(2 * TextLayout.GLYPH_BYTES),
                    "the third instance written");
            assertEquals(0, memory.getInt(3 * TextLayout.GLYPH_BYTES), "nothing past the third");
        } finally {
            MemoryUtil.memFree(memory);
        }
    }

    @Test
    void boundsCoverEveryGlyphPlacedSinceTheMark() {
        TextLayout layout = new TextLayout(FONT).add("ignored", 500, 500, -1);
        layout.mark();
        layout.add("Wg|", 10, 40, -1);
        int[] b = new int[4];
        layout.markedBounds(b);
        int x0 = Integer.MAX_VALUE, y0 = Integer.MAX_VALUE, x1 = Integer.MIN_VALUE, y1 = Integer.MIN_VALUE;
        String s = "Wg|";
        for (int c = 0; c < s.length(); c++) {
            FontAtlas.Glyph g = FONT.glyph(s.charAt(c));
            int gx = 10 + c * FONT.advance() + g.xOffset(), gy = 40 + g.yOffset();
            x0 = Math.min(x0, gx);
            y0 = Math.min(y0, gy);
            x1 = Math.max(x1, gx + g.width());
            y1 = Math.max(y1, gy + g.height());
        }
        assertArrayEquals(new int[]{x0, y0, x1, y1}, b, "the glyphs since the mark, not the run before it");
        layout.mark();
        layout.add("   ", 0, 0, -1);
        layout.markedBounds(b);
        assertArrayEquals(new int[4], b, "blanks: empty");
    }

    /**
     * A layout used frame after frame keeps the glyphs of lines laid out the same way as last time, and of a changed line's
     * unchanged start: whatever changes
     * between frames (a line's text, length, pen or colour, the number of lines, a frame given up half laid out), each
     * frame's instances and marked bounds are those of a fresh layout of the same lines.
     */
    @Test
    void aLayoutLaidOutAgainMatchesAFreshOneFrameAfterFrame() {
        java.util.SplittableRandom r = new java.util.SplittableRandom(7);
        TextLayout reused = new TextLayout(FONT);
        String[] words = {"frame", "EV", "12.50", "-3.25", "samples", "lag 3", "", "   ", "readback ring: 3 slots", "~|"};
        String[] lines = new String[8];
        int[] xs = new int[8], colours = new int[8];
        for (int i = 0; i < lines.length; i++) {
            lines[i] = words[r.nextInt(words.length)];
            xs[i] = 10;
            colours[i] = -1;
        }
        ByteBuffer a = MemoryUtil.memCalloc(64 * 1024).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer b = MemoryUtil.memCalloc(64 * 1024).order(ByteOrder.LITTLE_ENDIAN);
        try {
            for (int frame = 0; frame < 400; frame++) {
                int n = 3 + r.nextInt(6);
                for (int i = 0; i < n; i++) {
                    switch (r.nextInt(10)) {
                        case 0 -> lines[i] = words[r.nextInt(words.length)];                  // another text
                        case 1 -> lines[i] = lines[i] + (char) ('0' + r.nextInt(10));         // one glyph longer
                        case 2 -> lines[i] = lines[i].isEmpty() ? "x" : lines[i].substring(1); // one shorter
                        case 3 -> xs[i] = 10 + r.nextInt(3);                                   // the pen moved
                        case 4 -> colours[i] = r.nextInt();                                    // another colour
                        case 5, 6 -> lines[i] = lines[i].isEmpty() ? "0"                       // its last figure changed
                                : lines[i].substring(0, lines[i].length() - 1) + (char) ('0' + r.nextInt(10));
                        default -> { }                                                         // the same
                    }
                    if (lines[i].length() > 60) {
                        lines[i] = lines[i].substring(0, 10);
                    }
                }
                if (r.nextInt(25) == 0) {   // a frame given up half laid out
                    reused.clear();
                    for (int i = 0; i < n / 2; i++) {
                        reused.add(lines[i] + "!!", xs[i], 40 + 30 * i, colours[i]);
                    }
                }
                TextLayout fresh = new TextLayout(FONT);
                reused.clear();
                int[] got = new int[4], want = new int[4];
                for (int i = 0; i < n; i++) {
                    if (i % 3 == 0) {
                        reused.mark();
                        fresh.mark();
                    }
                    reused.add(new StringBuilder(lines[i]), xs[i], 40 + 30 * i, colours[i]);
                    fresh.add(lines[i], xs[i], 40 + 30 * i, colours[i]);
                    reused.markedBounds(got);
                    fresh.markedBounds(want);
                    assertArrayEquals(want, got, "bounds after line " + i + " of frame " + frame);
                }
                assertEquals(fresh.count(), reused.count(), "glyphs in frame " + frame);
                // The reused layout writes into the same memory every frame (a HUD slot's), copying what changed since.
                MemoryUtil.memSet(b, 0);
                reused.write(a.asIntBuffer(), 10_000);
                fresh.write(b.asIntBuffer(), 10_000);
                int bytes = fresh.count() * TextLayout.GLYPH_BYTES;
                assertEquals(b.slice(0, bytes), a.slice(0, bytes), "instances of frame " + frame);
                MemoryUtil.memSet(MemoryUtil.memAddress(a) + bytes, 0xAB, a.capacity() - bytes);   // past the count, the slot promises nothing
                assertEquals(fresh.placed(), reused.placed(), "placed glyphs of frame " + frame);
            }
        } finally {
            MemoryUtil.memFree(a);
            MemoryUtil.memFree(b);
        }
    }

    /**
     * A write cut short by its maximum leaves the rest to the next write into the same memory; other memory, and a new layout, get
     * every glyph.
     */
    @Test
    void aWriteCutShortCopiesTheRestNextTimeAndOtherMemoryGetsEverything() {
        TextLayout layout = new TextLayout(FONT).add("abcdef", 10, 40, -1);
        TextLayout fresh = new TextLayout(FONT).add("abcdef", 10, 40, -1);
        ByteBuffer slot = MemoryUtil.memCalloc(6 * TextLayout.GLYPH_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer other = MemoryUtil.memCalloc(6 * TextLayout.GLYPH_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer want = MemoryUtil.memCalloc(6 * TextLayout.GLYPH_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        try {
            fresh.write(want.asIntBuffer(), 6);
            assertEquals(2, layout.write(slot.asIntBuffer(), 2));
            layout.clear();
            layout.add("abcdef", 10, 40, -1);   // laid out as before: nothing to copy but what the last write left out
            assertEquals(6, layout.write(slot.asIntBuffer(), 6));
            assertEquals(want, slot, "the glyphs the cut-short write left out");
            assertEquals(6, layout.write(other.asIntBuffer(), 6));
            assertEquals(want, other, "every glyph, into memory the layout has not written");
            MemoryUtil.memSet(slot, 0xAB);
            assertEquals(6, new TextLayout(FONT).add("abcdef", 10, 40, -1).write(slot.asIntBuffer(), 6));   // a slot's layout made again (the font changed)
            assertEquals(want, slot, "every glyph, from a new layout into memory another layout wrote");
        } finally {
            MemoryUtil.memFree(slot);
            MemoryUtil.memFree(other);
            MemoryUtil.memFree(want);
        }
    }

    @Test
    void aRunThatWouldOverrunTheBufferOrMissMappedMemoryIsReportedAsABug() {
        TextLayout layout = new TextLayout(FONT).add("overrun", 0, 20, -1);
        ByteBuffer out = MemoryUtil.memCalloc(2 * TextLayout.GLYPH_BYTES);
        try {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> layout.write(out.asIntBuffer(), 100));
            assertTrue(e.getMessage().startsWith("internal: 7 glyph instances overrun the 40-byte slot"), e.getMessage());
            IllegalArgumentException heap = assertThrows(IllegalArgumentException.class, () -> layout.write(java.nio.IntBuffer.allocate(4096), 100));
            assertTrue(heap.getMessage().contains("written to a heap buffer"), heap.getMessage());
        } finally {
            MemoryUtil.memFree(out);
        }
    }
}
