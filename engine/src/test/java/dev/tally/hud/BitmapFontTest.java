package dev.tally.hud;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** The built-in font: complete, unambiguous, spaced, and packed exactly as the shader decodes it. */
class BitmapFontTest {

    private static final int COUNT = BitmapFont.LAST - BitmapFont.FIRST + 1;

    /** The cell as a string of '#' and '.', row by row, for comparisons and messages. */
    private static String bitmap(char c) {
        StringBuilder sb = new StringBuilder();
        for (int y = 0; y < BitmapFont.CELL_H; y++) {
            for (int x = 0; x < BitmapFont.CELL_W; x++) {
                sb.append(BitmapFont.pixel(c, x, y) ? '#' : '.');
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** Renders {@code s} on one line as ASCII art, one text line per pixel row. */
    private static String render(String s) {
        StringBuilder sb = new StringBuilder();
        for (int y = 0; y < BitmapFont.CELL_H; y++) {
            for (int px = 0; px < BitmapFont.textWidth(s); px++) {
                char c = s.charAt(px / BitmapFont.CELL_W);
                sb.append(BitmapFont.pixel(c, px % BitmapFont.CELL_W, y) ? '#' : '.');
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static boolean on(String art, int x, int y) {
        return art.split("\n")[y].charAt(x) == '#';
    }

    @Test
    void constants() {
        assertEquals(6, BitmapFont.CELL_W);
        assertEquals(8, BitmapFont.CELL_H);
        assertEquals(32, BitmapFont.FIRST);
        assertEquals(126, BitmapFont.LAST);
    }

    @Test
    void everyPrintableCharHasInkExceptSpace() {
        for (char c = (char) BitmapFont.FIRST; c <= BitmapFont.LAST; c++) {
            int ink = 0;
            for (int y = 0; y < BitmapFont.CELL_H; y++) {
                for (int x = 0; x < BitmapFont.CELL_W; x++) {
                    if (BitmapFont.pixel(c, x, y)) {
                        ink++;
                    }
                }
            }
            if (c == ' ') {
                assertEquals(0, ink, "space must be blank");
            } else {
                assertTrue(ink > 0, "'" + c + "' has no ink");
            }
        }
    }

    @Test
    void spacingColumnAndRowAreAlwaysBlank() {
        for (char c = 0; c < 256; c++) {
            for (int y = 0; y < BitmapFont.CELL_H; y++) {
                assertFalse(BitmapFont.pixel(c, 5, y), "column 5 of char " + (int) c);
            }
            for (int x = 0; x < BitmapFont.CELL_W; x++) {
                assertFalse(BitmapFont.pixel(c, x, 7), "row 7 of char " + (int) c);
            }
        }
    }

    @Test
    void outsideTheCellIsBlank() {
        int[][] outside = {{-1, 0}, {0, -1}, {6, 0}, {0, 8}, {Integer.MIN_VALUE, 3}, {2, Integer.MAX_VALUE}};
        for (int[] p : outside) {
            assertFalse(BitmapFont.pixel('#', p[0], p[1]), p[0] + "," + p[1]);
            assertFalse(BitmapFont.pixel('\u00e9', p[0], p[1]), p[0] + "," + p[1]);
        }
    }

    @Test
    void allPrintableGlyphsDifferPairwise() {
        Map<String, Character> seen = new HashMap<>();
        for (char c = (char) BitmapFont.FIRST; c <= BitmapFont.LAST; c++) {
            Character previous = seen.put(bitmap(c), c);
            assertNull(previous, "'" + c + "' has the same bitmap as '" + previous + "'");
        }
        assertEquals(COUNT, seen.size());
    }

    @Test
    void unknownCharsDrawAHollowBoxUnlikeAnyPrintableGlyph() {
        String box = """
                #####.
                #...#.
                #...#.
                #...#.
                #...#.
                #...#.
                #####.
                ......
                """;
        for (char c : new char[] {0, 9, 10, 31, 127, 128, '\u00e9', '\u20ac', '\uffff'}) {
            assertEquals(box, bitmap(c), "char " + (int) c);
        }
        for (char c = (char) BitmapFont.FIRST; c <= BitmapFont.LAST; c++) {
            assertNotEquals(box, bitmap(c), "'" + c + "' looks like the placeholder");
        }
    }

    @Test
    void packedWordsRoundTripWithPixel() {
        int[] words = BitmapFont.packedWords();
        assertEquals(2 * COUNT, words.length);
        for (char c = (char) BitmapFont.FIRST; c <= BitmapFont.LAST; c++) {
            int g = c - BitmapFont.FIRST;
            for (int y = 0; y < BitmapFont.CELL_H; y++) {
                for (int x = 0; x < BitmapFont.CELL_W; x++) {
                    int word = words[2 * g + y / 4];
                    boolean decoded = ((word >>> (8 * (y % 4) + x)) & 1) != 0;
                    assertEquals(BitmapFont.pixel(c, x, y), decoded, "'" + c + "' at " + x + "," + y);
                }
            }
            // Nothing outside the 5x7 glyph: bits 5..7 of every byte, and all of row 7.
            assertEquals(0, words[2 * g] & 0xE0E0E0E0, "'" + c + "' rows 0..3 spill past column 4");
            assertEquals(0, words[2 * g + 1] & 0xFFE0E0E0, "'" + c + "' rows 4..7 spill past column 4 or into row 7");
        }
    }

    @Test
    void packedWordsLayoutOfKnownGlyphs() {
        int[] words = BitmapFont.packedWords();
        int t = 'T' - BitmapFont.FIRST;
        // 'T': row 0 is the full bar (0x1F), rows 1..6 the stem in column 2 (0x04).
        assertEquals(0x0404041F, words[2 * t]);
        assertEquals(0x00040404, words[2 * t + 1]);
        int space = ' ' - BitmapFont.FIRST;
        assertEquals(0, words[2 * space]);
        assertEquals(0, words[2 * space + 1]);
        int dot = '.' - BitmapFont.FIRST;
        // '.': a 2x2 square in columns 1..2 (0x06) of rows 5 and 6.
        assertEquals(0, words[2 * dot]);
        assertEquals(0x00060600, words[2 * dot + 1]);
    }

    @Test
    void packedWordsIsADefensiveCopy() {
        int[] a = BitmapFont.packedWords();
        int before = a[2 * ('T' - BitmapFont.FIRST)];
        a[2 * ('T' - BitmapFont.FIRST)] = 0;
        assertEquals(before, BitmapFont.packedWords()[2 * ('T' - BitmapFont.FIRST)]);
        assertNotSame(a, BitmapFont.packedWords());
    }

    @Test
    void textWidthIsOneCellPerChar() {
        assertEquals(0, BitmapFont.textWidth(""));
        assertEquals(6, BitmapFont.textWidth("x"));
        assertEquals(14 * 6, BitmapFont.textWidth("Tally 0.123 EV"));
    }

    @Test
    void rendersTallyVersionLine() {
        String text = "Tally 0.123 EV";
        String art = render(text);
        System.out.println("BitmapFont: \"" + text + "\"");
        System.out.print(art);

        String[] lines = art.split("\n");
        assertEquals(BitmapFont.CELL_H, lines.length);
        for (String line : lines) {
            assertEquals(BitmapFont.textWidth(text), line.length());
        }
        // 'T' (cell 0): full top bar, stem in column 2, nothing beside the stem.
        for (int x = 0; x < 5; x++) {
            assertTrue(on(art, x, 0), "T top bar at x=" + x);
        }
        for (int y = 1; y < 7; y++) {
            assertTrue(on(art, 2, y), "T stem at y=" + y);
            assertFalse(on(art, 1, y), "T left of stem at y=" + y);
            assertFalse(on(art, 3, y), "T right of stem at y=" + y);
        }
        // 'a' (cell 1, x 6..11): no ascender, closing stroke on the right of rows 3..6.
        assertFalse(on(art, 6 + 2, 0));
        assertTrue(on(art, 6 + 4, 3));
        assertTrue(on(art, 6 + 4, 6));
        // 'l' (cell 2): serif foot spans columns 1..3.
        assertTrue(on(art, 12 + 1, 6));
        assertTrue(on(art, 12 + 3, 6));
        // 'y' (cell 4, x 24..29): descender tail at the bottom, arms start at row 1.
        assertTrue(on(art, 24, 1));
        assertTrue(on(art, 24 + 4, 5));
        // space (cell 5, x 30..35) is blank.
        for (int y = 0; y < 8; y++) {
            assertEquals("......", lines[y].substring(30, 36));
        }
        // '0' (cell 6, x 36..41): slashed - the diagonal passes the centre.
        assertTrue(on(art, 36 + 2, 3));
        assertFalse(on(art, 36 + 2, 1));
        // '.' (cell 7, x 42..47): 2x2 dot at the bottom.
        assertTrue(on(art, 42 + 1, 5));
        assertTrue(on(art, 42 + 2, 6));
        assertFalse(on(art, 42 + 1, 4));
        // '1' (cell 8, x 48..53): flag at row 1, column 1.
        assertTrue(on(art, 48 + 1, 1));
        assertTrue(on(art, 48 + 2, 0));
        // 'E' (cell 12, x 72..77): three bars, the middle one shorter.
        assertTrue(on(art, 72 + 4, 0));
        assertTrue(on(art, 72 + 3, 3));
        assertFalse(on(art, 72 + 4, 3));
        assertTrue(on(art, 72 + 4, 6));
        // 'V' (cell 13, x 78..83): the point at the bottom centre.
        assertTrue(on(art, 78 + 2, 6));
        assertFalse(on(art, 78, 6));
        // Row 7 is blank across the whole line.
        assertEquals(".".repeat(BitmapFont.textWidth(text)), lines[7]);
    }
}
