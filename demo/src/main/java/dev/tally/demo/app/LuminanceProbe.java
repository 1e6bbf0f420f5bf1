package dev.tally.demo.app;

import dev.tally.graph.FrameGraph;
import dev.tally.graph.ImageDesc;
import dev.tally.graph.ImageHandle;
import dev.tally.demo.present.Window;
import dev.tally.readback.Delivery;

import static org.lwjgl.glfw.GLFW.glfwGetCursorPos;
import static org.lwjgl.glfw.GLFW.glfwGetWindowSize;

/**
 * The HDR luminance under the mouse (the image's centre headless), for the HUD: luminance (Rec. 709 weights on
 * the scene-linear RGB) and its EV, log2 of the luminance. Its texel rides in the demo's readback ring, one
 * region of the frame's one readback copy (a pass of its own would cost the GPU a pass's fixed time).
 */
public final class LuminanceProbe {
    private final Window window;
    private final double[] cursorX = new double[1], cursorY = new double[1];
    private final int[] windowW = new int[1], windowH = new int[1];
    // Where each recent frame probed, by frame number modulo the length (far more than any lag): a sample is
    // labelled with its own frame's position, not the cursor's position now.
    private final int[] probedX = new int[64], probedY = new int[64];
    private int x = -1, y = -1;
    /** This frame's texel (set by {@link #locate}). */
    private int texelX, texelY;
    private float luminance = Float.NaN;
    private long frame = -1, lag;
    private final StringBuilder line = new StringBuilder(80);

    LuminanceProbe(Window window) {
        this.window = window;
    }

    /**
     * Finds the texel under the cursor (or the centre) of {@code hdr} in this frame, which the frame's readback captures
     * ({@link #texelX()}, {@link #texelY()}), and remembers it for the sample's label.
     */
    void locate(FrameGraph g, ImageHandle hdr) {
        ImageDesc d = g.desc(hdr);
        int px = d.width() / 2, py = d.height() / 2;
        if (window != null) {
            glfwGetCursorPos(window.handle(), cursorX, cursorY);
            glfwGetWindowSize(window.handle(), windowW, windowH);
            // Cursor positions are in screen coordinates; the image is in pixels (they differ on scaled displays).
            px = (int) (cursorX[0] * d.width() / Math.max(1, windowW[0]));
            py = (int) (cursorY[0] * d.height() / Math.max(1, windowH[0]));
        }
        texelX = Math.max(0, Math.min(d.width() - 1, px));
        texelY = Math.max(0, Math.min(d.height() - 1, py));
        probedX[(int) (g.frame() % probedX.length)] = texelX;
        probedY[(int) (g.frame() % probedY.length)] = texelY;
    }

    /** {@return this frame's texel's column} */
    int texelX() {
        return texelX;
    }

    /** {@return this frame's texel's row} */
    int texelY() {
        return texelY;
    }

    /** A delivered sample: its floats hold the probed texel's RGBA at {@code at}. */
    void delivered(float[] floats, int at, Delivery d) {
        luminance = 0.2126f * floats[at] + 0.7152f * floats[at + 1] + 0.0722f * floats[at + 2];
        x = probedX[(int) (d.frame() % probedX.length)];
        y = probedY[(int) (d.frame() % probedY.length)];
        frame = d.frame();
        lag = d.lag();
    }

    /** The HUD line, or a placeholder before the first sample. */
    CharSequence hudLine() {
        if (frame < 0) {
            return "probe: no sample yet";
        }
        // Written into a kept builder, digit by digit: "probe (x, y): luminance %.4g  %.2f EV (frame %d, %d late)".
        line.setLength(0);
        line.append("probe (").append(x).append(", ").append(y).append("): luminance ");
        HudLines.significant(line, luminance, 4).append("  ");
        HudLines.fixed(line, Math.log(luminance) / Math.log(2), 2).append(" EV (frame ").append(frame).append(", ").append(lag).append(" late)");
        return line;
    }

    public float luminance() {
        return luminance;
    }

    public double ev() {
        return Math.log(luminance) / Math.log(2);
    }

}
