package dev.tally.internal.exposure;

import dev.tally.exposure.AutoExposure;

import dev.tally.internal.engine.Engine;

import dev.tally.exposure.ExposureCurve;

import dev.tally.exposure.ExposureShaderLayout;

import dev.tally.exposure.ExposureSettings;

import dev.tally.Frame;
import dev.tally.FrameCommands;
import dev.tally.GpuTestBase;
import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.ImageDesc;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassKind;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.vk.MemoryKind;
import org.junit.jupiter.api.Test;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkBufferCopy;
import org.lwjgl.vulkan.VkClearColorValue;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkImageSubresourceRange;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.vulkan.VK10.*;

/**
 * A frame given up before its recording (the swapchain went out of date after the passes were declared)
 * takes none of a node's one-time work with it: the compensation curve's upload and a camera cut are
 * declared again by the next frame and carried out there.
 */
class AbandonedFrameNodeStateTest extends GpuTestBase {
    private static final int W = 16;
    private static final int H = 8;
    /** A one-point curve is a constant: every scene EV gets these stops. */
    private static final float CURVE_STOPS = 1.5f;

    @Test
    void theCurveUploadOfAnAbandonedFirstFrameIsDeclaredAndRecordedByTheNext() {
        ExposureSettings s = ExposureSettings.DEFAULTS.withCurve(ExposureCurve.of(new float[]{0f}, new float[]{CURVE_STOPS}));
        try (FrameCommands loop = runtime.frameCommands();
             AutoExposure exposure = runtime.autoExposure("abandon", s);
             TrackedBuffer record = readbackBuffer()) {
            Frame first = runtime.beginFrame();
            exposure.add(first.graph(), grey(first.graph(), 0.18f), 1f / 60);
            first.abandon();

            float[] r = frame(loop, exposure, record, 0.18f);
            assertTrue(recordedPass("abandon/exposure.curve"),
                    "the frame after the abandoned one declares the curve upload again");
            assertEquals(CURVE_STOPS, r[ExposureShaderLayout.CURVE_EV], 1e-3f, "the curve the exposure pass read was uploaded");

            frame(loop, exposure, record, 0.18f);
            assertFalse(recordedPass("abandon/exposure.curve"), "once recorded, the upload is not declared again");
        }
    }

    @Test
    void aCameraCutMadeInAnAbandonedFrameSnapsTheNextRecordedFrame() {
        try (FrameCommands loop = runtime.frameCommands();
             AutoExposure exposure = runtime.autoExposure("cut", ExposureSettings.DEFAULTS);
             TrackedBuffer record = readbackBuffer()) {
            for (int i = 0; i < 3; i++) {
                frame(loop, exposure, record, 0.18f);   // the first frame snaps; the others adapt
            }
            float[] adapting = frame(loop, exposure, record, 4f);
            assertNotEquals(ExposureShaderLayout.PHASE_SNAP, (int) adapting[ExposureShaderLayout.PHASE], "a brighter scene without a cut adapts");

            exposure.reset();
            Frame given = runtime.beginFrame();
            exposure.add(given.graph(), grey(given.graph(), 0.01f), 1f / 60);
            given.abandon();

            float[] after = frame(loop, exposure, record, 0.01f);
            assertEquals(ExposureShaderLayout.PHASE_SNAP, (int) after[ExposureShaderLayout.PHASE], "the cut reaches the next recorded frame");
            assertEquals(after[ExposureShaderLayout.TARGET_EV], after[ExposureShaderLayout.EV], 1e-4f, "a snap applies its target at once");

            float[] next = frame(loop, exposure, record, 0.18f);
            assertNotEquals(ExposureShaderLayout.PHASE_SNAP, (int) next[ExposureShaderLayout.PHASE], "the cut is carried out once");
        }
    }

    /** Whether the last recorded frame had a pass of this name (its DOT box label; resources carry a version after the name). */
    private boolean recordedPass(String name) {
        return Engine.of(runtime).graphs().toDot().contains("label=\"" + name + "\\n");
    }

    private TrackedBuffer readbackBuffer() {
        return new TrackedBuffer(Engine.of(runtime).context(), "test.exposure", ExposureShaderLayout.EXPOSURE_BYTES, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                MemoryKind.READBACK);
    }

    /** A W x H image of one grey level, made by a clear pass. */
    private static ImageHandle grey(FrameGraph g, float level) {
        return g.addPass("scene", PassKind.TRANSFER, b -> b.write(b.create("hdr", new ImageDesc(W, H, VK_FORMAT_R16G16B16A16_SFLOAT,
                VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT)), Access.TRANSFER_DST), (img, c) -> {
            try (MemoryStack stack = MemoryStack.stackPush()) {
                VkClearColorValue colour = VkClearColorValue.calloc(stack).float32(0, level).float32(1, level).float32(2, level).float32(3, 1f);
                VkImageSubresourceRange range = VkImageSubresourceRange.calloc(stack).aspectMask(VK_IMAGE_ASPECT_COLOR_BIT)
                        .levelCount(1).layerCount(1);
                vkCmdClearColorImage(c.cmd(), c.image(img).handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, colour, range);
            }
        });
    }

    /** One recorded and submitted frame of a grey scene; returns its exposure record. */
    private float[] frame(FrameCommands loop, AutoExposure exposure, TrackedBuffer record, float level) {
        Frame frame = runtime.beginFrame();
        VkCommandBuffer cmd = loop.begin(frame);
        FrameGraph g = frame.graph();
        AutoExposure.Result r = exposure.add(g, grey(g, level), 1f / 60);
        BufferHandle out = g.importBuffer("exposure.readback", record, Access.HOST_READ);
        record Copy(BufferHandle src, BufferHandle dst) {
        }
        g.addPass("read", PassKind.TRANSFER, b -> new Copy(b.read(r.exposure(), Access.TRANSFER_SRC), b.write(out, Access.TRANSFER_DST)),
                (io, c) -> {
                    try (MemoryStack stack = MemoryStack.stackPush()) {
                        vkCmdCopyBuffer(c.cmd(), c.buffer(io.src()).handle(), c.buffer(io.dst()).handle(),
                                VkBufferCopy.calloc(1, stack).size(ExposureShaderLayout.EXPOSURE_BYTES));
                    }
                });
        frame.record(cmd);
        loop.end(cmd);
        frame.submit(cmd);
        Engine.of(runtime).context().waitIdle();
        record.invalidate(0, record.size());
        float[] got = new float[ExposureShaderLayout.EXPOSURE_FLOATS];
        for (int i = 0; i < got.length; i++) {
            got[i] = MemoryUtil.memGetFloat(record.mappedAddress() + 4L * i);
        }
        return got;
    }
}
