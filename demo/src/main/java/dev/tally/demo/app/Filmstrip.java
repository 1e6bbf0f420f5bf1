package dev.tally.demo.app;
import dev.tally.vk.GpuImage;

import dev.tally.exposure.ExposureShaderLayout;
import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassKind;
import dev.tally.vk.GpuBuffer;
import dev.tally.vk.MemoryKind;
import dev.tally.Tally;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkBufferCopy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.lwjgl.vulkan.VK10.*;

/**
 * {@code --filmstrip}: a few tonemapped frames (no HUD) across the walk out of the tunnel, from the
 * dark end into the sun, side by side, each labelled with its scene time and the applied EV from
 * that frame's own exposure record (copied with the frame, so the label and the picture agree).
 */
public final class Filmstrip implements AutoCloseable {
    /** Seconds around the moment the camera leaves the tunnel at which frames are taken. */
    static final double[] OFFSETS = {-3.3, -1.0, 0.5, 2.0, 3.2, 4.5};
    private static final int MAX_THUMB_WIDTH = 480;
    private static final int GAP = 4;

    private record Shot(long frame, double time, GpuBuffer pixels, GpuBuffer record, int width, int height) {
    }

    private final Tally tally;
    private final Path file;
    private final double dt;
    private final List<Shot> shots = new ArrayList<>();

    public Filmstrip(Tally tally, Path file, double dt) {
        this.tally = tally;
        this.file = file;
        this.dt = dt;
    }

    /** Frames the run needs so that every shot is taken. */
    public static long framesNeeded(double dt) {
        return Math.round((ScenePath.EXIT_SECONDS + OFFSETS[OFFSETS.length - 1]) / dt) + 1;
    }

    private boolean wanted(long frame) {
        for (double o : OFFSETS) {
            if (frame == Math.round((ScenePath.EXIT_SECONDS + o) / dt)) {
                return true;
            }
        }
        return false;
    }

    /** In frame {@code frame}: when it is one of the shots, copies {@code image} (RGBA8) and the exposure record to the host. */
    void capture(FrameGraph g, long frame, float time, ImageHandle image, GpuImage physical, BufferHandle exposure) {
        if (!wanted(frame)) {
            return;
        }
        int w = physical.width(), h = physical.height();
        GpuBuffer pixels = tally.createBuffer("filmstrip.pixels" + frame, 4L * w * h, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.READBACK);
        GpuBuffer record = tally.createBuffer("filmstrip.record" + frame, ExposureShaderLayout.EXPOSURE_BYTES, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                MemoryKind.READBACK);
        shots.add(new Shot(frame, time, pixels, record, w, h));
        BufferHandle px = g.importBuffer("filmstrip.pixels", pixels, Access.HOST_READ);
        BufferHandle rec = g.importBuffer("filmstrip.record", record, Access.HOST_READ);
        record Io(ImageHandle image, BufferHandle exposure, BufferHandle pixels, BufferHandle record) {
        }
        g.addPass("filmstrip", PassKind.TRANSFER, b -> {
            b.sideEffect();
            return new Io(b.read(image, Access.TRANSFER_SRC), b.read(exposure, Access.TRANSFER_SRC), b.write(px, Access.TRANSFER_DST),
                    b.write(rec, Access.TRANSFER_DST));
        }, (io, c) -> {
            try (MemoryStack stack = MemoryStack.stackPush()) {
                ImageCopies.toBuffer(c.cmd(), c.image(io.image()), c.buffer(io.pixels()));
                vkCmdCopyBuffer(c.cmd(), c.buffer(io.exposure()).handle(), c.buffer(io.record()).handle(),
                        VkBufferCopy.calloc(1, stack).size(ExposureShaderLayout.EXPOSURE_BYTES));
            }
        });
    }

    /** Shots taken so far. */
    public int shots() {
        return shots.size();
    }

    /** Waits for the GPU, then writes the strip (nothing when no shot was taken; then returns false). */
    public boolean write() {
        if (shots.isEmpty()) {
            return false;
        }
        tally.device().waitIdle();
        Shot first = shots.get(0);
        int k = Math.max(1, (first.width() + MAX_THUMB_WIDTH - 1) / MAX_THUMB_WIDTH);
        int tw = first.width() / k, th = first.height() / k;
        int outW = shots.size() * tw + (shots.size() + 1) * GAP, outH = th + 2 * GAP;
        byte[] out = new byte[4 * outW * outH];
        for (int i = 3; i < out.length; i += 4) {
            out[i] = (byte) 255;
        }
        int scale = Math.max(1, th / (8 * EasyFontLabel.LINE_HEIGHT));
        int band = EasyFontLabel.LINE_HEIGHT * scale;
        for (int s = 0; s < shots.size(); s++) {
            Shot shot = shots.get(s);
            shot.pixels().invalidate(0, shot.pixels().size());
            shot.record().invalidate(0, shot.record().size());
            int x0 = GAP + s * (tw + GAP);
            downscale(shot, k, tw, th, out, outW, x0, GAP);
            float ev = MemoryUtil.memGetFloat(shot.record().mappedAddress() + 4L * ExposureShaderLayout.EV);
            String label = String.format(Locale.ROOT, "%.1f s  EV %.1f", shot.time(), ev);
            int top = GAP + th - band - 2 * scale;
            darken(out, outW, x0, top - scale, tw, band + 2 * scale);
            EasyFontLabel.draw(out, outW, outH, label, x0 + 3 * scale, top + 2 * scale, scale, 0xffffff);
        }
        PngWriter.write(file, outW, outH, out);
        return true;
    }

    /** Box-filters the shot by k x k into out at (x0, y0). */
    private static void downscale(Shot shot, int k, int tw, int th, byte[] out, int outW, int x0, int y0) {
        byte[] src = new byte[(int) shot.pixels().size()];
        MemoryUtil.memByteBuffer(shot.pixels().mappedAddress(), src.length).get(src);
        for (int y = 0; y < th; y++) {
            for (int x = 0; x < tw; x++) {
                for (int c = 0; c < 3; c++) {
                    int sum = 0;
                    for (int dy = 0; dy < k; dy++) {
                        for (int dx = 0; dx < k; dx++) {
                            sum += src[4 * ((y * k + dy) * shot.width() + x * k + dx) + c] & 0xff;
                        }
                    }
                    out[4 * ((y0 + y) * outW + x0 + x) + c] = (byte) ((sum + k * k / 2) / (k * k));
                }
            }
        }
    }

    /** Halves the brightness of a band, so a label reads over any frame. */
    private static void darken(byte[] out, int outW, int x0, int y0, int w, int h) {
        int outH = out.length / (4 * outW);
        for (int y = Math.max(0, y0); y < Math.min(outH, y0 + h); y++) {
            for (int x = x0; x < x0 + w; x++) {
                for (int c = 0; c < 3; c++) {
                    int i = 4 * (y * outW + x) + c;
                    out[i] = (byte) ((out[i] & 0xff) / 2);
                }
            }
        }
    }

    @Override
    public void close() {
        for (Shot s : shots) {
            s.pixels().close();
            s.record().close();
        }
    }
}
