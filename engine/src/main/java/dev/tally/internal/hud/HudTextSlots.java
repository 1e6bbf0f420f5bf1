package dev.tally.internal.hud;

import java.util.Arrays;
import java.util.List;

/**
 * Which upload slot holds the HUD's glyphs and scene. A HUD's text changes a few times a second while its header (the
 * plot's clock) changes every frame, so the glyphs and the scene are built once per change, into a slot that no frame
 * in flight reads, and every frame until the next change binds that slot again. What the slot was built from (the font,
 * the output's size, the plot, the EV range and every line's text) is kept here, so a change is told by comparing the
 * caller's text with it; nothing else is laid out or written while they match.
 * <p>
 * A slot is rebuilt only when the frames that read it are done: the frame of {@code framesInFlight + 1} ago is, as for
 * the frame's own upload slot (frames in flight paced). Of {@code framesInFlight + 1} slots the last
 * {@code framesInFlight} frames bind at most {@code framesInFlight}, so one is always free.
 */
final class HudTextSlots {
    private final int framesInFlight;
    /** By slot: the last frame that bound its glyphs. */
    private final long[] lastUsed;
    /** The slot of the last build that completed (-1: none, or a build given up half way). */
    private int current = -1;
    private boolean mustBuild;

    // What the current slot was built from; its text as one array of characters and each line's end in it.
    private FontAtlas font;
    private int width, height, lineCount;
    private boolean withPlot;
    private float minEV, maxEV;
    private char[] text = new char[512];
    private int[] ends = new int[16];
    /** A line copied out of its CharSequence for the comparison. */
    private char[] line = new char[128];
    private HudLayout layout;
    private int glyphs;

    HudTextSlots(int slots, int framesInFlight) {
        if (slots < framesInFlight + 1) {
            throw new IllegalArgumentException("internal: " + slots + " HUD text slots for " + framesInFlight + " frames in flight; it takes "
                    + (framesInFlight + 1));
        }
        this.framesInFlight = framesInFlight;
        this.lastUsed = new long[slots];
        Arrays.fill(lastUsed, Long.MIN_VALUE / 2);
    }

    /**
     * The slot frame {@code frame} binds for this text: the current one while everything matches what it was built from,
     * else a slot no frame in flight reads, which must then be built ({@link #mustBuild()}) and reported ({@link #built}).
     */
    int select(long frame, FontAtlas f, int width, int height, List<? extends CharSequence> lines, boolean withPlot, float minEV, float maxEV) {
        int slot;
        if (current >= 0 && f == font && width == this.width && height == this.height && withPlot == this.withPlot
                && Float.compare(minEV, this.minEV) == 0 && Float.compare(maxEV, this.maxEV) == 0 && sameText(lines)) {
            slot = current;
            mustBuild = false;
        } else {
            slot = free(frame);
            current = -1;   // until the build completes: a build given up half way is made again
            mustBuild = true;
        }
        lastUsed[slot] = frame;
        return slot;
    }

    /** Whether the slot {@link #select} returned must be built before it is bound. */
    boolean mustBuild() {
        return mustBuild;
    }

    /** Slot {@code slot} now holds the glyphs and scene of these inputs, laid out by {@code layout} as {@code glyphs} glyphs. */
    void built(int slot, FontAtlas f, int width, int height, List<? extends CharSequence> lines, boolean withPlot, float minEV, float maxEV,
               HudLayout layout, int glyphs) {
        font = f;
        this.width = width;
        this.height = height;
        this.withPlot = withPlot;
        this.minEV = minEV;
        this.maxEV = maxEV;
        int n = lines.size();
        if (ends.length < n) {
            ends = new int[Math.max(n, 2 * ends.length)];
        }
        int at = 0;
        for (int l = 0; l < n; l++) {
            CharSequence s = lines.get(l);
            int len = s.length();
            if (text.length < at + len) {
                text = Arrays.copyOf(text, Math.max(at + len, 2 * text.length));
            }
            copy(s, len, text, at);
            at += len;
            ends[l] = at;
        }
        lineCount = n;
        this.layout = layout;
        this.glyphs = glyphs;
        current = slot;
        mustBuild = false;
    }

    /** The current slot's layout and glyph count (valid once it is built). */
    HudLayout layout() {
        return layout;
    }

    int glyphs() {
        return glyphs;
    }

    private boolean sameText(List<? extends CharSequence> lines) {
        int n = lines.size();
        if (n != lineCount) {
            return false;
        }
        int from = 0;
        for (int l = 0; l < n; l++) {
            CharSequence s = lines.get(l);
            int len = s.length();
            if (len != ends[l] - from) {
                return false;
            }
            if (line.length < len) {
                line = new char[Math.max(len, 2 * line.length)];
            }
            copy(s, len, line, 0);
            if (!Arrays.equals(line, 0, len, text, from, from + len)) {
                return false;
            }
            from += len;
        }
        return true;
    }

    /** The first slot that no frame of the last {@code framesInFlight} bound. */
    private int free(long frame) {
        for (int s = 0; s < lastUsed.length; s++) {
            if (lastUsed[s] < frame - framesInFlight) {
                return s;
            }
        }
        throw new IllegalStateException("internal: every HUD text slot is bound by a frame in flight at frame " + frame
                + " (last bound in frames " + Arrays.toString(lastUsed) + ")");
    }

    /** Copies {@code s}'s characters in one call where it can: a charAt per character, through CharSequence, costs more. */
    private static void copy(CharSequence s, int len, char[] to, int at) {
        if (s instanceof String str) {
            str.getChars(0, len, to, at);
        } else if (s instanceof StringBuilder sb) {
            sb.getChars(0, len, to, at);
        } else {
            for (int i = 0; i < len; i++) {
                to[at + i] = s.charAt(i);
            }
        }
    }
}
