package dev.tally.internal.hud;

import dev.tally.graph.BufferHandle;
import dev.tally.hud.ExposurePlot;
import dev.tally.hud.HudOverlay.HistogramView;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.tally.ThreadAllocation.allocatedBytes;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The HUD's scene and text, filled frame after frame as the overlay fills them (no GPU needed), allocate nothing
 * also when the text changes shape: numbers gain and lose digits, so the longest line's length and with it the text
 * panel change from frame to frame, and the layout is reshaped in place rather than made again.
 */
class HudSceneGarbageTest {
    private static final ExposurePlot.View PLOT = new ExposurePlot.View() {
        @Override
        public BufferHandle ring() {
            return null;
        }

        @Override
        public float now() {
            return 1;
        }
    };

    @Test
    void aTextWhoseLongestLineChangesLengthAllocatesNothing() {
        FontAtlas font = FontAtlas.bake(FontAtlas.pixelHeightFor(720, HudOverlayNode.DEFAULT_TEXT_FRACTION));
        HudScene scene = new HudScene();
        TextLayout glyphs = new TextLayout(font);
        HudSceneBuilder builder = new HudSceneBuilder();
        HistogramView histogram = new HistogramView(null, null, -10, 20, 4);
        StringBuilder title = new StringBuilder(64), total = new StringBuilder(64);
        List<StringBuilder> lines = new ArrayList<>(List.of(title, total));
        title.append("Tally  device");
        // Lengths in a cycle: each frame but the first of a pass changes the text panel's width.
        int[] lengths = {1, 9, 30, 2, 31, 17, 5, 40, 3};
        HudLayout first = null;
        for (int warm = 0; warm < 20; warm++) {
            allocatedBytes();   // the reflective probe past its accessor's first uses (it makes a class on the 16th)
        }
        // Windows of 200 frames after two of warm-up; the least any window allocated. A layout per shape change would
        // show in every window (about 33 KB); what the JIT or the class loader does once falls in one window only.
        long fewest = Long.MAX_VALUE;
        for (int pass = 0; pass < 7; pass++) {
            long p0 = allocatedBytes();
            long probe = allocatedBytes() - p0;   // the probe's own allocation, in the window once
            long before = allocatedBytes();
            for (int i = 0; i < 200; i++) {
                total.setLength(0);
                for (int c = 0; c < lengths[i % lengths.length]; c++) {
                    total.append((char) ('0' + c % 10));
                }
                HudLayout layout = builder.build(scene, glyphs, font, 1280, 720, lines, histogram, PLOT, 2f);
                if (first == null) {
                    first = layout;
                }
                assertSame(first, layout, "the layout is reshaped in place, not made again");
                int expectedWidth = Math.min(1280 - layout.pad(), 2 * layout.pad() + Math.max(13, lengths[i % lengths.length]) * font.advance());
                assertEquals(expectedWidth, (int) layout.textPanel().w(), "the text panel follows the longest line");
            }
            long bytes = allocatedBytes() - before - probe;
            if (pass >= 2) {
                fewest = Math.min(fewest, bytes);
            }
        }
        assertEquals(0, fewest, "every window of 200 HUD frames of changing text shape allocated, the least " + fewest + " bytes");
    }
}
