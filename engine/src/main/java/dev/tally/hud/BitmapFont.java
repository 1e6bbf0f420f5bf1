package dev.tally.hud;

/**
 * Tally's built-in bitmap font: one original 5x7 design for every printable ASCII character
 * ({@value #FIRST}..{@value #LAST}), with no font files and no AWT.
 *
 * <p>Each character occupies a cell of {@value #CELL_W}x{@value #CELL_H} pixels. The glyph itself is
 * drawn in the top-left 5x7 pixels of the cell; column 5 and row 7 are always empty and act as the
 * spacing between neighbouring characters and lines. Coordinates are {@code x} to the right and
 * {@code y} downwards, with (0, 0) the top-left pixel of the cell.
 *
 * <p>Characters outside {@value #FIRST}..{@value #LAST} are drawn as a hollow 5x7 box.
 *
 * <h2>GPU layout ({@link #packedWords()})</h2>
 * The font is packed as {@code 2 * (LAST - FIRST + 1)} = 190 unsigned 32-bit words, two per glyph, ready to
 * be uploaded into a storage buffer as a {@code uint[]} (std430, no padding). For glyph
 * {@code g = c - FIRST}:
 * <ul>
 *   <li>the glyph is 64 bits: 8 rows of 8 bits; row {@code y} is byte {@code y}, and bit {@code x}
 *       ({@code 1 << x}) of that byte is set exactly when {@code pixel(c, x, y)} is true
 *       (bits 5..7 of every byte and all of byte 7 are zero);</li>
 *   <li>{@code word[2*g]} holds rows 0..3 (row {@code y} in bits {@code 8*y .. 8*y+7}),</li>
 *   <li>{@code word[2*g + 1]} holds rows 4..7 (row {@code y} in bits {@code 8*(y-4) .. 8*(y-4)+7}).</li>
 * </ul>
 * A shader decodes pixel ({@code x}, {@code y}) of glyph {@code g}, for {@code x} in 0..5 and {@code y} in 0..7, as
 * <pre>{@code
 * uint word = font[2u * g + (y >> 2)];          // y / 4
 * bool on   = ((word >> (8u * (y & 3u) + x)) & 1u) != 0u;   // y % 4
 * }</pre>
 * Characters outside the range have no entry; a shader should map them to a glyph of its choice
 * (for example {@code '?' - FIRST}).
 *
 * <p>This class is immutable and thread-safe.
 */
public final class BitmapFont {

    /** Cell width in pixels: 5 glyph columns plus 1 column of spacing. */
    public static final int CELL_W = 6;
    /** Cell height in pixels: 7 glyph rows plus 1 row of spacing. */
    public static final int CELL_H = 8;
    /** First character in the font (space). */
    public static final int FIRST = 32;
    /** Last character in the font ({@code '~'}). */
    public static final int LAST = 126;

    private static final int GLYPH_W = 5;
    private static final int GLYPH_H = 7;
    private static final int COUNT = LAST - FIRST + 1;

    /*
     * The glyph art. Each band lists its characters, then the 7 rows of their glyphs side by side,
     * 5 columns per glyph ('#' = ink, '.' = blank) separated by single spaces.
     */
    private static final String[][] BANDS = {
        {   " !\"#$%&'",
            "..... ..#.. .#.#. .#.#. ..#.. ##... .##.. ..#..",
            "..... ..#.. .#.#. .#.#. .#### ##..# #..#. ..#..",
            "..... ..#.. .#.#. ##### #.#.. ...#. #.#.. .#...",
            "..... ..#.. ..... .#.#. .###. ..#.. .#... .....",
            "..... ..#.. ..... ##### ..#.# .#... #.#.# .....",
            "..... ..... ..... .#.#. ####. #..## #..#. .....",
            "..... ..#.. ..... .#.#. ..#.. ...## .##.# ....."
        },
        {   "()*+,-./",
            "...#. .#... ..... ..... ..... ..... ..... .....",
            "..#.. ..#.. ..#.. ..#.. ..... ..... ..... ....#",
            ".#... ...#. #.#.# ..#.. ..... ..... ..... ...#.",
            ".#... ...#. .###. ##### ..... ##### ..... ..#..",
            ".#... ...#. #.#.# ..#.. .##.. ..... ..... .#...",
            "..#.. ..#.. ..#.. ..#.. ..#.. ..... .##.. #....",
            "...#. .#... ..... ..... .#... ..... .##.. ....."
        },
        {   "01234567",
            ".###. ..#.. .###. ####. ...#. ##### ..##. #####",
            "#...# .##.. #...# ....# ..##. #.... .#... ....#",
            "#..## ..#.. ....# ....# .#.#. ####. #.... ...#.",
            "#.#.# ..#.. ...#. .###. #..#. ....# ####. ..#..",
            "##..# ..#.. ..#.. ....# ##### ....# #...# .#...",
            "#...# ..#.. .#... ....# ...#. #...# #...# .#...",
            ".###. .###. ##### ####. ...#. .###. .###. .#..."
        },
        {   "89:;<=>?",
            ".###. .###. ..... ..... ...#. ..... .#... .###.",
            "#...# #...# .##.. .##.. ..#.. ..... ..#.. #...#",
            "#...# #...# .##.. .##.. .#... ##### ...#. ....#",
            ".###. .#### ..... ..... #.... ..... ....# ...#.",
            "#...# ....# .##.. .##.. .#... ##### ...#. ..#..",
            "#...# ...#. .##.. ..#.. ..#.. ..... ..#.. .....",
            ".###. .##.. ..... .#... ...#. ..... .#... ..#.."
        },
        {   "@ABCDEFG",
            ".###. .###. ####. .###. ###.. ##### ##### .###.",
            "#...# #...# #...# #...# #..#. #.... #.... #...#",
            "#.### #...# #...# #.... #...# #.... #.... #....",
            "#.#.# ##### ####. #.... #...# ####. ####. #.###",
            "#.### #...# #...# #.... #...# #.... #.... #...#",
            "#.... #...# #...# #...# #..#. #.... #.... #...#",
            ".#### #...# ####. .###. ###.. ##### #.... .####"
        },
        {   "HIJKLMNO",
            "#...# .###. ..### #...# #.... #...# #...# .###.",
            "#...# ..#.. ...#. #..#. #.... ##.## #...# #...#",
            "#...# ..#.. ...#. #.#.. #.... #.#.# ##..# #...#",
            "##### ..#.. ...#. ##... #.... #.#.# #.#.# #...#",
            "#...# ..#.. ...#. #.#.. #.... #...# #..## #...#",
            "#...# ..#.. #..#. #..#. #.... #...# #...# #...#",
            "#...# .###. .##.. #...# ##### #...# #...# .###."
        },
        {   "PQRSTUVW",
            "####. .###. ####. .#### ##### #...# #...# #...#",
            "#...# #...# #...# #.... ..#.. #...# #...# #...#",
            "#...# #...# #...# #.... ..#.. #...# #...# #...#",
            "####. #...# ####. .###. ..#.. #...# #...# #.#.#",
            "#.... #.#.# #.#.. ....# ..#.. #...# #...# #.#.#",
            "#.... #..#. #..#. ....# ..#.. #...# .#.#. #.#.#",
            "#.... .##.# #...# ####. ..#.. .###. ..#.. .#.#."
        },
        {   "XYZ[\\]^_",
            "#...# #...# ##### .###. ..... .###. ..#.. .....",
            "#...# #...# ....# .#... #.... ...#. .#.#. .....",
            ".#.#. .#.#. ...#. .#... .#... ...#. #...# .....",
            "..#.. ..#.. ..#.. .#... ..#.. ...#. ..... .....",
            ".#.#. ..#.. .#... .#... ...#. ...#. ..... .....",
            "#...# ..#.. #.... .#... ....# ...#. ..... .....",
            "#...# ..#.. ##### .###. ..... .###. ..... #####"
        },
        {   "`abcdefg",
            ".#... ..... #.... ..... ....# ..... ..##. .....",
            "..#.. ..... #.... ..... ....# ..... .#..# .####",
            "...#. .###. #.##. .###. .##.# .###. .#... #...#",
            "..... ....# ##..# #.... #..## #...# ###.. #...#",
            "..... .#### #...# #.... #...# ##### .#... .####",
            "..... #...# #...# #...# #...# #.... .#... ....#",
            "..... .#### ####. .###. .#### .###. .#... .###."
        },
        {   "hijklmno",
            "#.... ..#.. ...#. #.... .##.. ..... ..... .....",
            "#.... ..... ..... #.... ..#.. ..... ..... .....",
            "#.##. .##.. ..##. #..#. ..#.. ##.#. #.##. .###.",
            "##..# ..#.. ...#. #.#.. ..#.. #.#.# ##..# #...#",
            "#...# ..#.. ...#. ##... ..#.. #.#.# #...# #...#",
            "#...# ..#.. #..#. #.#.. ..#.. #.#.# #...# #...#",
            "#...# .###. .##.. #..#. .###. #.#.# #...# .###."
        },
        {   "pqrstuvw",
            "..... ..... ..... ..... .#... ..... ..... .....",
            "####. .#### ..... ..... .#... ..... ..... .....",
            "#...# #...# #.##. .#### ###.. #...# #...# #...#",
            "#...# #...# ##..# #.... .#... #...# #...# #...#",
            "####. .#### #.... .###. .#... #...# #...# #.#.#",
            "#.... ....# #.... ....# .#..# #..## .#.#. #.#.#",
            "#.... ....# #.... ####. ..##. .##.# ..#.. .#.#."
        },
        {   "xyz{|}~",
            "..... ..... ..... ...## ..#.. ##... .....",
            "..... #...# ..... ..#.. ..#.. ..#.. .....",
            "#...# #...# ##### ..#.. ..#.. ..#.. .#...",
            ".#.#. #...# ...#. .#... ..#.. ...#. #.#.#",
            "..#.. .#### ..#.. ..#.. ..#.. ..#.. ...#.",
            ".#.#. ....# .#... ..#.. ..#.. ..#.. .....",
            "#...# .###. ##### ...## ..#.. ##... ....."
        },
    };

    /** Placeholder for characters outside FIRST..LAST: a hollow box. */
    private static final String[] BOX = {
        "#####",
        "#...#",
        "#...#",
        "#...#",
        "#...#",
        "#...#",
        "#####",
    };

    /** Row bit masks per glyph: ROWS[g][y] has bit x set when pixel (x, y) is ink; index COUNT is the box. */
    private static final byte[][] ROWS = new byte[COUNT + 1][CELL_H];

    /** The packed GPU representation; never handed out directly. */
    private static final int[] PACKED = new int[2 * COUNT];

    static {
        boolean[] defined = new boolean[COUNT];
        for (String[] band : BANDS) {
            String chars = band[0];
            if (band.length != 1 + GLYPH_H) {
                throw new IllegalStateException("font band \"" + chars + "\" has " + (band.length - 1) + " rows, expected " + GLYPH_H);
            }
            int expectedLength = chars.length() * (GLYPH_W + 1) - 1;
            for (int y = 0; y < GLYPH_H; y++) {
                String row = band[1 + y];
                if (row.length() != expectedLength) {
                    throw new IllegalStateException("font band \"" + chars + "\" row " + y + " has length " + row.length() + ", expected " + expectedLength);
                }
            }
            for (int i = 0; i < chars.length(); i++) {
                int c = chars.charAt(i);
                if (c < FIRST || c > LAST) {
                    throw new IllegalStateException("font band \"" + chars + "\" defines non-printable character " + c);
                }
                if (defined[c - FIRST]) {
                    throw new IllegalStateException("font defines '" + (char) c + "' twice");
                }
                defined[c - FIRST] = true;
                String[] art = new String[GLYPH_H];
                for (int y = 0; y < GLYPH_H; y++) {
                    String row = band[1 + y];
                    int start = i * (GLYPH_W + 1);
                    if (start + GLYPH_W < row.length() && row.charAt(start + GLYPH_W) != ' ') {
                        throw new IllegalStateException("font band \"" + chars + "\" row " + y + " is missing the separator after '" + (char) c + "'");
                    }
                    art[y] = row.substring(start, start + GLYPH_W);
                }
                ROWS[c - FIRST] = parse((char) c, art);
            }
        }
        for (int g = 0; g < COUNT; g++) {
            if (!defined[g]) {
                throw new IllegalStateException("font has no glyph for '" + (char) (g + FIRST) + "'");
            }
        }
        ROWS[COUNT] = parse('?', BOX);
        for (int g = 0; g < COUNT; g++) {
            byte[] rows = ROWS[g];
            for (int y = 0; y < CELL_H; y++) {
                PACKED[2 * g + (y >> 2)] |= (rows[y] & 0xFF) << (8 * (y & 3));
            }
        }
    }

    private static byte[] parse(char c, String[] art) {
        byte[] rows = new byte[CELL_H];
        for (int y = 0; y < GLYPH_H; y++) {
            int bits = 0;
            for (int x = 0; x < GLYPH_W; x++) {
                char p = art[y].charAt(x);
                if (p == '#') {
                    bits |= 1 << x;
                } else if (p != '.') {
                    throw new IllegalStateException("glyph '" + c + "' row " + y + " has stray character '" + p + "'");
                }
            }
            rows[y] = (byte) bits;
        }
        return rows;
    }

    private BitmapFont() {
    }

    /**
     * Whether pixel ({@code x}, {@code y}) of the cell for {@code c} is ink.
     *
     * @param c any character; those outside {@value #FIRST}..{@value #LAST} are drawn as a hollow box
     * @param x column, 0..{@value #CELL_W}-1 (column 5 is spacing and always false)
     * @param y row, 0..{@value #CELL_H}-1 (row 7 is spacing and always false)
     * @return true for ink; false for blank pixels and for coordinates outside the cell
     */
    public static boolean pixel(char c, int x, int y) {
        if (x < 0 || x >= CELL_W || y < 0 || y >= CELL_H) {
            return false;
        }
        int g = (c >= FIRST && c <= LAST) ? c - FIRST : COUNT;
        return ((ROWS[g][y] >> x) & 1) != 0;
    }

    /**
     * The whole font packed for a GPU storage buffer: {@code 2 * (LAST - FIRST + 1)} words, layout as
     * described in the {@linkplain BitmapFont class documentation}. For glyph {@code g = c - FIRST},
     * {@code word[2*g]} holds rows 0..3 and {@code word[2*g+1]} rows 4..7; pixel ({@code x}, {@code y}) is
     * {@code (word[2*g + y/4] >> (8*(y%4) + x)) & 1}.
     *
     * @return a fresh copy the caller may modify
     */
    public static int[] packedWords() {
        return PACKED.clone();
    }

    /**
     * Width in pixels of {@code s} drawn on one line (every char one cell, including the trailing spacing
     * column of the last one).
     *
     * @param s the text; not interpreted, so a newline also counts as one cell
     * @return {@code s.length() * CELL_W}
     */
    public static int textWidth(String s) {
        return s.length() * CELL_W;
    }
}
