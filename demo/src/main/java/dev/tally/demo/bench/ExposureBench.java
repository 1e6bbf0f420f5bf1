package dev.tally.demo.bench;

import dev.tally.Frame;
import dev.tally.FrameCommands;
import dev.tally.Tally;
import dev.tally.exposure.AutoExposure;
import dev.tally.exposure.ExposureSettings;
import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.GraphRuntime;
import dev.tally.graph.ImageDesc;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassKind;
import dev.tally.vk.Barriers;
import dev.tally.vk.GpuBuffer;
import dev.tally.vk.GpuImage;
import dev.tally.vk.MemoryKind;
import dev.tally.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkClearColorValue;
import org.lwjgl.vulkan.VkImageSubresourceRange;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK13.*;

/**
 * The auto-exposure chain (histogram with its resolve, total, exposure with normalization fused in) on a W x H RGBA16F image,
 * timed per pass by the frame graph's timestamps over many frames. Each frame first clears the image
 * to a new value (a transfer pass, not counted), as a renderer writes its HDR target before metering.
 */
public final class ExposureBench {
    private ExposureBench() {
    }

    /**
     * How the HDR image is produced before each frame's chain. CLEAR: cleared to a new value every frame
     * (a renderer writes its target just before metering: the chain reads an image whose last lines may
     * still be dirty in the cache). ONCE_COLD: written once; each later frame first reads a 512 MiB buffer
     * (a clean cache flush, as the reduction benchmarks do), so the chain reads the image from memory.
     * ONCE_WARM: written once, no flush (what of the image stays in the cache between frames is read there).
     */
    public enum Fill { CLEAR, ONCE_COLD, ONCE_WARM }

    /**
     * What the chain meters. IMAGE: an RGBA16F image (graph-created when cleared every frame). MUTABLE: the same,
     * created with MUTABLE_FORMAT, read through its RGBA16F view (the flag's own cost). PACKED_VIEW: that image
     * read through an R32G32_UINT view. BUFFER: the texels in a storage buffer (two pixels per 16-byte load),
     * filled every frame with one half value in every channel.
     */
    public enum Input { IMAGE, MUTABLE, PACKED_VIEW, BUFFER }

    /** Median microseconds per pass, and "chain" for their sum. */
    public static Map<String, Double> run(Tally rt, int width, int height, int frames, PrintStream progress) {
        return run(rt, width, height, frames, 0, progress);   // 0: rows as the engine picks them for this size
    }

    public static Map<String, Double> run(Tally rt, int width, int height, int frames, int rows, PrintStream progress) {
        return run(rt, width, height, frames, rows, Fill.CLEAR, progress);
    }

    public static Map<String, Double> run(Tally rt, int width, int height, int frames, int rows, Fill fill, PrintStream progress) {
        return run(rt, width, height, frames, rows, fill, Input.IMAGE, progress);
    }

    public static Map<String, Double> run(Tally rt, int width, int height, int frames, int rows, Fill fill, Input input, PrintStream progress) {
        if (input != Input.IMAGE && fill != Fill.CLEAR) {
            throw new IllegalArgumentException("exposure bench: input " + input + " is only measured with fill CLEAR");
        }
        if (input == Input.BUFFER) {
            return runBuffer(rt, width, height, frames, rows, progress);
        }
        VulkanContext ctx = rt.context();
        Map<String, Double> out = new LinkedHashMap<>();
        GraphRuntime graphs = rt.graphs();
        String scope = "bench/exposure-" + width + "x" + height + "-rows" + rows + "-" + fill.name().toLowerCase(Locale.ROOT)
                + "-" + input.name().toLowerCase(Locale.ROOT);
        try (ReductionBench.CacheFlush flush = fill == Fill.ONCE_COLD ? new ReductionBench.CacheFlush(rt, ReductionBench.FlushMode.CLEAN, 512L << 20) : null;
             FrameCommands commands = new FrameCommands(rt);
             AutoExposure exposure = new AutoExposure(graphs, rt.compiler(), rt.pipelineCache(), rt.reducer(), scope, ExposureSettings.DEFAULTS, rows)) {
            ImageDesc desc = new ImageDesc(width, height, VK_FORMAT_R16G16B16A16_SFLOAT,
                    VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT);
            MutableImage mutable = input == Input.IMAGE ? null : new MutableImage(ctx, width, height, desc.usage(),
                    input == Input.PACKED_VIEW ? VK_FORMAT_R32G32_UINT : VK_FORMAT_R16G16B16A16_SFLOAT);
            GpuImage once = mutable != null ? mutable.image : fill == Fill.CLEAR ? null
                    : GpuImage.create(ctx, "bench.exposure.hdr", width, height, desc.format(), desc.usage());
            for (int f = 0; f < frames; f++) {
                float level = 0.05f * (1 + f % 50);
                Frame frame = rt.beginFrame();
                var cmd = commands.begin(frame);
                FrameGraph g = frame.graph();
                boolean clear = fill == Fill.CLEAR || f == 0;
                ImageHandle imported = once == null ? null : g.importImage("hdr", once, null);
                if (!clear) {
                    g.addPass("flush", PassKind.COMPUTE, b -> {
                        b.sideEffect();
                        return null;
                    }, (h, c) -> {
                        if (flush != null) {
                            flush.record(c.cmd());
                            Barriers.memory(c.cmd(), VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                                    VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
                        }
                    });
                }
                ImageHandle hdr = !clear ? imported : g.addPass("fill", PassKind.TRANSFER, b -> b.write(imported != null ? imported : b.create("hdr", desc), Access.TRANSFER_DST), (h, c) -> {
                    try (MemoryStack stack = MemoryStack.stackPush()) {
                        VkClearColorValue color = VkClearColorValue.calloc(stack).float32(0, level).float32(1, level * 2).float32(2, level / 2).float32(3, 1);
                        VkImageSubresourceRange range = VkImageSubresourceRange.calloc(stack).aspectMask(VK_IMAGE_ASPECT_COLOR_BIT).levelCount(1).layerCount(1);
                        vkCmdClearColorImage(c.cmd(), c.image(h).handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, color, range);
                    }
                });
                AutoExposure.Result r = exposure.add(g, hdr, 1f / 60);
                g.addPass("keep", PassKind.COMPUTE, b -> {
                    b.sideEffect();
                    return b.read(r.exposure(), Access.COMPUTE_READ);
                }, (h, c) -> {
                });
                frame.record(cmd);
                commands.end(cmd);
                frame.submit(cmd);
            }
            ctx.waitIdle();
            if (mutable != null) {
                mutable.close();
            } else if (once != null) {
                once.close();
            }
            summarize(graphs, scope, frames, width + "x" + height + " rows " + rows + " " + fill + " " + input, out, progress);
        }
        return out;
    }

    /**
     * Median per pass of {@code scope}, "chain" for the sum of the passes that ran in most frames (the
     * per-frame chain), and each pass that ran only in a few frames (the curve upload, recorded when the
     * curve changes) reported as it is but left out of the chain, with "chain+once" for the sum of all.
     */
    private static void summarize(GraphRuntime graphs, String scope, int frames, String label, Map<String, Double> out, PrintStream progress) {
        graphs.collectTimings();
        double chain = 0;
        double all = 0;
        for (String pass : graphs.stats().passes().keySet()) {
            if (!pass.startsWith(scope + "/")) {
                continue;
            }
            double median = graphs.stats().medianMicros(pass);
            long samples = graphs.stats().samples(pass);
            String local = pass.substring(scope.length() + 1);
            out.put(local, median);
            all += median;
            boolean everyFrame = samples * 2 >= Math.min(frames, 100);
            if (everyFrame) {
                chain += median;
            }
            progress.printf(Locale.ROOT, "  exposure %s %-18s %8.2f us (%d samples%s)%n", label, local, median, samples, everyFrame ? "" : ", not per frame");
        }
        out.put("chain", chain);
        out.put("chain+once", all);
        progress.printf(Locale.ROOT, "  exposure %s %-18s %8.2f us%n", label, "chain (per frame)", chain);
        progress.printf(Locale.ROOT, "  exposure %s %-18s %8.2f us%n", label, "chain+once", all);
    }

    /** The chain metering a storage buffer of RGBA16F texels ({@link AutoExposure#add(FrameGraph, BufferHandle, int, int, float)}). */
    private static Map<String, Double> runBuffer(Tally rt, int width, int height, int frames, int rows, PrintStream progress) {
        Map<String, Double> out = new LinkedHashMap<>();
        GraphRuntime graphs = rt.graphs();
        String scope = "bench/exposure-" + width + "x" + height + "-rows" + rows + "-buffer";
        long bytes = dev.tally.exposure.ExposureShaderLayout.hdrBufferBytes(width, height);
        try (FrameCommands commands = new FrameCommands(rt);
             AutoExposure exposure = new AutoExposure(graphs, rt.compiler(), rt.pipelineCache(), rt.reducer(), scope, ExposureSettings.DEFAULTS, rows);
             GpuBuffer texels = new GpuBuffer(rt.context(), "bench.exposure.texels", bytes,
                     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.DEVICE)) {
            for (int f = 0; f < frames; f++) {
                int half = halfBits(0.05f * (1 + f % 50));
                Frame frame = rt.beginFrame();
                var cmd = commands.begin(frame);
                FrameGraph g = frame.graph();
                BufferHandle imported = g.importBuffer("hdr.texels", texels, null);
                BufferHandle hdr = g.addPass("fill", PassKind.TRANSFER, b -> b.write(imported, Access.TRANSFER_DST),
                        (h, c) -> vkCmdFillBuffer(c.cmd(), c.buffer(h).handle(), 0, VK_WHOLE_SIZE, half | half << 16));
                AutoExposure.Result r = exposure.add(g, hdr, width, height, 1f / 60);
                g.addPass("keep", PassKind.COMPUTE, b -> {
                    b.sideEffect();
                    return b.read(r.exposure(), Access.COMPUTE_READ);
                }, (h, c) -> {
                });
                frame.record(cmd);
                commands.end(cmd);
                frame.submit(cmd);
            }
            rt.context().waitIdle();
            summarize(graphs, scope, frames, width + "x" + height + " rows " + rows + " BUFFER", out, progress);
        }
        return out;
    }

    /** IEEE half bits of a positive normal float in half range (truncated mantissa: a benchmark fill value). */
    static int halfBits(float v) {
        int bits = Float.floatToRawIntBits(v);
        int exponent = ((bits >>> 23) & 0xff) - 127 + 15;
        return (exponent << 10) | ((bits >>> 13) & 0x3ff);
    }

    /**
     * An RGBA16F image created with MUTABLE_FORMAT, seen by the graph through one view of {@code viewFormat}
     * (the benchmark owns the image and its memory; the wrapper owns only the view).
     */
    static final class MutableImage implements AutoCloseable {
        final GpuImage image;
        private final VulkanContext ctx;
        private final long handle;
        private final long allocation;

        MutableImage(VulkanContext ctx, int width, int height, int usage, int viewFormat) {
            this.ctx = ctx;
            try (MemoryStack stack = MemoryStack.stackPush()) {
                org.lwjgl.vulkan.VkImageCreateInfo info = org.lwjgl.vulkan.VkImageCreateInfo.calloc(stack).sType$Default()
                        .flags(VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT).imageType(VK_IMAGE_TYPE_2D).format(VK_FORMAT_R16G16B16A16_SFLOAT)
                        .mipLevels(1).arrayLayers(1).samples(VK_SAMPLE_COUNT_1_BIT).tiling(VK_IMAGE_TILING_OPTIMAL)
                        .usage(usage).sharingMode(VK_SHARING_MODE_EXCLUSIVE).initialLayout(VK_IMAGE_LAYOUT_UNDEFINED);
                info.extent().set(width, height, 1);
                org.lwjgl.util.vma.VmaAllocationCreateInfo alloc = org.lwjgl.util.vma.VmaAllocationCreateInfo.calloc(stack)
                        .usage(org.lwjgl.util.vma.Vma.VMA_MEMORY_USAGE_AUTO);
                java.nio.LongBuffer pImage = stack.mallocLong(1);
                org.lwjgl.PointerBuffer pAlloc = stack.mallocPointer(1);
                dev.tally.vk.VkCheck.check(org.lwjgl.util.vma.Vma.vmaCreateImage(ctx.allocator(), info, alloc, pImage, pAlloc, null),
                        "vmaCreateImage('bench.exposure.mutable')");
                handle = pImage.get(0);
                allocation = pAlloc.get(0);
            }
            image = GpuImage.wrap(ctx, "bench.exposure.mutable", handle, width, height, viewFormat, usage);
        }

        @Override
        public void close() {
            image.close();
            long h = handle, a = allocation;
            ctx.defer(() -> org.lwjgl.util.vma.Vma.vmaDestroyImage(ctx.allocator(), h, a));
        }
    }
}
