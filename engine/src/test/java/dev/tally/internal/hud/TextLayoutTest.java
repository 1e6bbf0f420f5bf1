package dev.tally.internal.hud;

import org.junit.jupiter.api.Test;
import org.lwjgl.system.MemoryUtil;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The glyph instances TextLayout writes for the HUD's shaders, read back field by field (hud_common.glsl's layout). No GPU. */
class TextLayoutTest {
    private static final FontAtlas FONT = FontAtlas.bake(FontAtlas.pixelHeightFor(720, HudOverlayNode.DEFAULT_TEXT_FRACTION));

    @Test
    void eachInstanceHoldsItsPositionAtlasRectangleSizeAndColour() {
        TextLayout layout = new TextLayout(FONT).add("EV 12.5 ok", 10, 40, 0x11223344).add("fps: 60", 10, 80, 0x55667788);
        List<TextLayout.Placed> placed = layout.placed();
        assertEquals(8 + 6, placed.size(), "blanks place nothing");
        ByteBuffer out = MemoryUtil.memCalloc(64 + placed.size() * TextLayout.GLYPH_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        try {
            assertEquals(placed.size(), layout.write(out, 64, 1000));
            for (int i = 0; i < placed.size(); i++) {
                TextLayout.Placed p = placed.get(i);
                int at = 64 + i * TextLayout.GLYPH_BYTES;
                assertEquals(p.x(), out.getFloat(at), "x of glyph " + i);
                assertEquals(p.y(), out.getFloat(at + 4), "y of glyph " + i);
                assertEquals(p.glyph().atlasX() | p.glyph().atlasY() << 16, out.getInt(at + 8), "atlas origin of glyph " + i);
                assertEquals(p.glyph().width() | p.glyph().height() << 16, out.getInt(at + 12), "bitmap size of glyph " + i);
                assertEquals(p.rgba(), out.getInt(at + 16), "colour of glyph " + i);
            }
            assertEquals(0, out.getInt(60), "nothing written before the offset");
            assertTrue(placed.get(1).x() > placed.get(0).x(), "the pen advances");
            assertEquals(3, layout.write(out, 0, 3), "at most max instances");
        } finally {
            MemoryUtil.memFree(out);
        }
    }

    @Test
    void aRunThatWouldOverrunTheBufferOrMissMappedMemoryIsReportedAsABug() {
        TextLayout layout = new TextLayout(FONT).add("overrun", 0, 20, -1);
        ByteBuffer out = MemoryUtil.memCalloc(2 * TextLayout.GLYPH_BYTES);
        try {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> layout.write(out, 0, 100));
            assertTrue(e.getMessage().startsWith("internal: 7 glyph instances at 0 overrun the 40-byte slot"), e.getMessage());
            IllegalArgumentException heap = assertThrows(IllegalArgumentException.class, () -> layout.write(ByteBuffer.allocate(4096), 0, 100));
            assertTrue(heap.getMessage().contains("written to a heap buffer"), heap.getMessage());
        } finally {
            MemoryUtil.memFree(out);
        }
    }
}
