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
