package dev.tally.internal.hud;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which slot holds the HUD's glyphs: built once per change, never into a slot a frame in flight reads. No GPU. */
class HudTextSlotsTest {
    private static final FontAtlas FONT = FontAtlas.bake(FontAtlas.pixelHeightFor(360, HudOverlayNode.DEFAULT_TEXT_FRACTION));
    private static final FontAtlas OTHER_FONT = FontAtlas.bake(FontAtlas.pixelHeightFor(720, HudOverlayNode.DEFAULT_TEXT_FRACTION));

    /** Selects for {@code lines} at frame {@code frame} and, when it must, builds (as the overlay does); the slot. */
    private static int frame(HudTextSlots slots, long frame, List<? extends CharSequence> lines) {
        int slot = slots.select(frame, FONT, 640, 360, lines, true, -10, 20);
        if (slots.mustBuild()) {
            slots.built(slot, FONT, 640, 360, lines, true, -10, 20, null, 7);
        }
        return slot;
    }

    @Test
    void unchangedTextIsBuiltOnceAndBoundFrameAfterFrame() {
        HudTextSlots slots = new HudTextSlots(4, 3);
        StringBuilder figure = new StringBuilder("EV 1.5");
        List<CharSequence> lines = List.of("Tally", figure);
        int first = slots.select(0, FONT, 640, 360, lines, true, -10, 20);
        assertTrue(slots.mustBuild(), "the first frame builds");
        slots.built(first, FONT, 640, 360, lines, true, -10, 20, null, 9);
        for (long f = 1; f < 50; f++) {
            assertEquals(first, slots.select(f, FONT, 640, 360, lines, true, -10, 20));
            assertFalse(slots.mustBuild(), "frame " + f + ": nothing changed");
            assertEquals(9, slots.glyphs());
        }
        figure.setCharAt(5, '6');   // the caller's builder changed in place: the same object, other text
        int next = slots.select(50, FONT, 640, 360, lines, true, -10, 20);
        assertTrue(slots.mustBuild(), "a figure changed in place");
        assertNotEquals(first, next, "the slot of frame 49 is still read");
    }

    @Test
    void everyInputOfTheBuildIsCompared() {
        List<String> lines = List.of("Tally", "EV 1.5");
        record Case(String what, FontAtlas font, int width, int height, List<String> lines, boolean plot, float minEV, float maxEV) {
        }
        List<Case> cases = List.of(
                new Case("the font", OTHER_FONT, 640, 360, lines, true, -10, 20),
                new Case("the width", FONT, 641, 360, lines, true, -10, 20),
                new Case("the height", FONT, 640, 361, lines, true, -10, 20),
                new Case("the plot", FONT, 640, 360, lines, false, -10, 20),
                new Case("the lowest EV", FONT, 640, 360, lines, true, -9, 20),
                new Case("the highest EV", FONT, 640, 360, lines, true, -10, 21),
                new Case("a line's last character", FONT, 640, 360, List.of("Tally", "EV 1.6"), true, -10, 20),
                new Case("a line's first character", FONT, 640, 360, List.of("tally", "EV 1.5"), true, -10, 20),
                new Case("a line's length", FONT, 640, 360, List.of("Tally", "EV 1.55"), true, -10, 20),
                new Case("a character moved between lines", FONT, 640, 360, List.of("TallyE", "V 1.5"), true, -10, 20),
                new Case("a line more", FONT, 640, 360, List.of("Tally", "EV 1.5", ""), true, -10, 20),
                new Case("a line less", FONT, 640, 360, List.of("Tally"), true, -10, 20));
        for (Case c : cases) {
            HudTextSlots slots = new HudTextSlots(4, 3);
            frame(slots, 0, lines);
            slots.select(1, c.font(), c.width(), c.height(), c.lines(), c.plot(), c.minEV(), c.maxEV());
            assertTrue(slots.mustBuild(), c.what() + " changed: built again");
        }
    }

    @Test
    void aBuildGivenUpIsMadeAgain() {
        HudTextSlots slots = new HudTextSlots(4, 3);
        frame(slots, 0, List.of("one"));
        slots.select(1, FONT, 640, 360, List.of("two"), true, -10, 20);
        assertTrue(slots.mustBuild());
        // No built(): the frame's build threw half way. The same text next frame is built, not bound half-written.
        slots.select(2, FONT, 640, 360, List.of("two"), true, -10, 20);
        assertTrue(slots.mustBuild(), "the build given up is made again");
    }

    /**
     * Text changing at random frames, with frames in flight 1 to 3: a slot is built only when no frame of the last
     * framesInFlight bound it, and every frame binds a slot built from exactly its own text.
     */
    @Test
    void aRebuiltSlotIsNeverOneAFrameInFlightReads() {
        Random random = new Random(25);
        for (int inFlight = 1; inFlight <= 3; inFlight++) {
            HudTextSlots slots = new HudTextSlots(inFlight + 1, inFlight);
            Map<Integer, String> builtText = new HashMap<>();
            List<Integer> bound = new ArrayList<>();
            StringBuilder text = new StringBuilder("fps 60");
            int builds = 0;
            for (int f = 0; f < 3000; f++) {
                int change = random.nextInt(4);
                if (change == 0) {
                    text.setCharAt(4 + random.nextInt(2), (char) ('0' + random.nextInt(10)));
                } else if (change == 1 && random.nextInt(8) == 0) {
                    text.append('!');
                }
                List<CharSequence> lines = List.of("Tally", text);
                int slot = slots.select(f, FONT, 640, 360, lines, true, -10, 20);
                if (slots.mustBuild()) {
                    for (int back = 1; back <= inFlight && f - back >= 0; back++) {
                        assertNotEquals(bound.get(f - back), slot, "frame " + f + " rebuilt the slot frame " + (f - back) + " reads");
                    }
                    slots.built(slot, FONT, 640, 360, lines, true, -10, 20, null, 0);
                    builtText.put(slot, text.toString());
                    builds++;
                }
                assertEquals(text.toString(), builtText.get(slot), "frame " + f + " binds a slot built from its own text");
                bound.add(slot);
            }
            assertTrue(builds > 100 && builds < 2900, "the text changed at some frames and not others: " + builds + " builds");
        }
    }
}
