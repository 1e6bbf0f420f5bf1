package dev.tally.demo.app;

import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.ImageDesc;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassKind;
import dev.tally.vk.GpuBuffer;
import dev.tally.vk.MemoryKind;
import dev.tally.Tally;
import org.lwjgl.system.MemoryUtil;

import java.nio.file.Path;

import static org.lwjgl.vulkan.VK10.*;

/** A copy of a frame's final image to host memory (a side-effect pass), written as PNG once the GPU is done. */
final class Screenshot implements AutoCloseable {
    private final GpuBuffer buffer;
    private final ImageDesc desc;
    private final Tally tally;

    private Screenshot(Tally tally, GpuBuffer buffer, ImageDesc desc) {
        this.tally = tally;
        this.buffer = buffer;
        this.desc = desc;
    }

    /** Adds the copy of {@code image} (8-bit RGBA or BGRA) to frame {@code g}. */
    static Screenshot capture(Tally tally, FrameGraph g, ImageHandle image) {
        ImageDesc desc = g.desc(image);
        GpuBuffer buffer = tally.createBuffer("screenshot", 4L * desc.width() * desc.height(), VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                MemoryKind.READBACK);
        BufferHandle dst = g.importBuffer("screenshot", buffer, Access.HOST_READ);
        record Io(ImageHandle src, BufferHandle dst) {
        }
        g.addPass("screenshot", PassKind.TRANSFER, b -> {
            b.sideEffect();
            return new Io(b.read(image, Access.TRANSFER_SRC), b.write(dst, Access.TRANSFER_DST));
        }, (h, c) -> ImageCopies.toBuffer(c.cmd(), c.image(h.src()), c.buffer(h.dst())));
        return new Screenshot(tally, buffer, desc);
    }

    /** Waits for the frame that took it (a tool's wait: every frame submitted so far) and writes the PNG. */
    void write(Path file) {
        tally.device().waitIdle();
        buffer.invalidate(0, buffer.size());
        byte[] rgba = new byte[(int) buffer.size()];
        MemoryUtil.memByteBuffer(buffer.mappedAddress(), rgba.length).get(rgba);
        if (desc.format() == VK_FORMAT_B8G8R8A8_UNORM || desc.format() == VK_FORMAT_B8G8R8A8_SRGB) {
            for (int i = 0; i < rgba.length; i += 4) {
                byte t = rgba[i];
                rgba[i] = rgba[i + 2];
                rgba[i + 2] = t;
            }
        }
        for (int i = 3; i < rgba.length; i += 4) {
            rgba[i] = (byte) 255;
        }
        PngWriter.write(file, desc.width(), desc.height(), rgba);
    }

    @Override
    public void close() {
        buffer.close();
    }
}
