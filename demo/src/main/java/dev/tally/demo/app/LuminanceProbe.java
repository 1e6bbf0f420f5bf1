package dev.tally.demo.app;

import dev.tally.Tally;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.ImageDesc;
import dev.tally.graph.ImageHandle;
import dev.tally.present.Window;
import dev.tally.readback.ReadbackRing;
import dev.tally.readback.Subscription;


import static org.lwjgl.glfw.GLFW.glfwGetCursorPos;
import static org.lwjgl.glfw.GLFW.glfwGetWindowSize;

/**
 * The HDR luminance under the mouse (the image's centre headless), read back one texel per frame through a
 * ring of its own into a caller-owned array, for the HUD: luminance (Rec. 709 weights on the scene-linear
 * RGB) and its EV, log2 of the luminance.
 */
public final class LuminanceProbe implements AutoCloseable {
    private final Window window;
    private final ReadbackRing ring;
    private final Subscription subscription;
    private final float[] rgba = new float[4];
    private final double[] cursorX = new double[1], cursorY = new double[1];
    private final int[] windowW = new int[1], windowH = new int[1];
    // Where each recent frame probed, by frame number modulo the length (far more than any lag): a sample is
    // labelled with its own frame's position, not the cursor's position now.
    private final int[] probedX = new int[64], probedY = new int[64];
    private int x = -1, y = -1;
    private float luminance = Float.NaN;
    private long frame = -1, lag;
    private final StringBuilder line = new StringBuilder(80);

    LuminanceProbe(Tally tally, Window window) {
        this.window = window;
        this.ring = tally.readback("probe", 16);
        this.subscription = ring.onSample(rgba, d -> {
            luminance = 0.2126f * rgba[0] + 0.7152f * rgba[1] + 0.0722f * rgba[2];
            x = probedX[(int) (d.frame() % probedX.length)];
            y = probedY[(int) (d.frame() % probedY.length)];
            frame = d.frame();
            lag = d.lag();
        });
    }

    /** Reads the texel under the cursor (or the centre) of {@code hdr} in this frame. */
    void capture(FrameGraph g, ImageHandle hdr) {
        ImageDesc d = g.desc(hdr);
        int px = d.width() / 2, py = d.height() / 2;
        if (window != null) {
            glfwGetCursorPos(window.handle(), cursorX, cursorY);
            glfwGetWindowSize(window.handle(), windowW, windowH);
            // Cursor positions are in screen coordinates; the image is in pixels (they differ on scaled displays).
            px = (int) (cursorX[0] * d.width() / Math.max(1, windowW[0]));
            py = (int) (cursorY[0] * d.height() / Math.max(1, windowH[0]));
        }
        px = Math.max(0, Math.min(d.width() - 1, px));
        py = Math.max(0, Math.min(d.height() - 1, py));
        probedX[(int) (g.frame() % probedX.length)] = px;
        probedY[(int) (g.frame() % probedY.length)] = py;
        ring.capture(g, java.util.List.of(ReadbackRing.ImageRegion.texel(hdr, px, py)));
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

    public ReadbackRing ring() {
        return ring;
    }

    @Override
    public void close() {
        subscription.close();
        ring.close();
    }
}
