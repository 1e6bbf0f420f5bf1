package dev.tally.internal.exposure;

import dev.tally.exposure.Tonemapper;

import dev.tally.graph.FrameGraph;

import dev.tally.exposure.ExposureShaderLayout;

import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.internal.graph.GraphDeclaration;
import dev.tally.graph.ImageDesc;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassKind;
import dev.tally.shader.BindingType;
import dev.tally.internal.shader.GraphicsPipeline;
import dev.tally.internal.shader.PipelineCache;
import dev.tally.internal.shader.Samplers;
import dev.tally.internal.shader.ShaderLibrary;
import dev.tally.internal.shader.SpecConstants;
import dev.tally.internal.vk.VulkanContext;


import java.util.List;
import java.util.Map;

import static org.lwjgl.vulkan.VK10.*;

/**
 * The tonemap pass: HDR x the GPU-side exposure multiplier, ACES fit, into an LDR target. A compute
 * pass writes the target as a storage image when its format supports storage on this device and the
 * image was created with STORAGE usage (on GPUs with few graphics units, fullscreen fragment work is far
 * slower than compute); otherwise a fullscreen triangle draws it. Both store the same values.
 */
public final class TonemapperNode implements Tonemapper {
    public static final String TONEMAP_COMPUTE = "tonemap.comp";
    /** tonemap.comp's workgroup is GROUP x GROUP. */
    static final int GROUP = 16;
    /** Pixels each tonemap.comp invocation writes (one column, GROUP rows apart): 4 measured best on the H200. */
    public static final int DEFAULT_ROWS_PER_INVOCATION = 4;
    private final int rows;
    private final VulkanContext ctx;
    private final ShaderLibrary compiler;
    private final PipelineCache cache;
    private final long sampler;
    private final dev.tally.internal.shader.PipelinesByFormat pipelines = new dev.tally.internal.shader.PipelinesByFormat(this::build);
    /** Compute pipelines by target format, built on first use. */
    private final Map<Integer, dev.tally.internal.shader.ComputeKernel> computeByFormat = new java.util.HashMap<>();
    /** Whether each format's optimal tiling supports storage images here (asked once per format). */
    private final Map<Integer, Boolean> storageSupport = new java.util.HashMap<>();

    public TonemapperNode(VulkanContext ctx, ShaderLibrary compiler, PipelineCache cache) {
        this(ctx, compiler, cache, DEFAULT_ROWS_PER_INVOCATION);
    }

    /** @param rows pixels each compute invocation writes: 1, 2, 4 or 8 */
    public TonemapperNode(VulkanContext ctx, ShaderLibrary compiler, PipelineCache cache, int rows) {
        if (!ROWS_CHOICES.contains(rows)) {
            throw new IllegalArgumentException("tonemap rows per invocation must be 1, 2, 4 or 8, got " + rows);
        }
        this.rows = rows;
        this.ctx = ctx;
        this.compiler = compiler;
        this.cache = cache;
        this.sampler = Samplers.create(ctx, false);
    }


    private GraphicsPipeline build(int format) {
        boolean srgbTarget = format == VK_FORMAT_B8G8R8A8_SRGB || format == VK_FORMAT_R8G8B8A8_SRGB;
        return new GraphicsPipeline(ctx, compiler, cache, ExposureShaderLayout.TONEMAP_VERTEX, ExposureShaderLayout.TONEMAP_FRAGMENT, Map.of(),
                SpecConstants.of(ExposureShaderLayout.SPEC_TONEMAP_ENCODE_SRGB, srgbTarget ? 0 : 1,
                        ExposureShaderLayout.SPEC_TONEMAP_ACES_INPUT_SCALE, Float.floatToRawIntBits(1f)),
                format, false, List.of(BindingType.SAMPLED_IMAGE, BindingType.STORAGE_BUFFER), 0);
    }

    /** The GLSL storage format qualifier tonemap.comp can write for {@code format}, or null. */
    /** The storage image formats the compute path writes, as GLSL qualifiers: one compute pipeline each. */
    public static final List<String> STORAGE_QUALIFIERS = List.of("rgba8", "rgba16f", "rgb10_a2");
    /** The rows per invocation a tonemapper can be made with. */
    public static final List<Integer> ROWS_CHOICES = List.of(1, 2, 4, 8);

    /** tonemap.comp's defines for a target of storage format {@code qualifier}, {@code rows} rows per invocation. */
    public static Map<String, String> computeDefines(String qualifier, int rows) {
        return Map.of("TARGET_FORMAT", qualifier, "ROWS_PER_INVOCATION", Integer.toString(rows));
    }

    static String storageQualifier(int format) {
        return switch (format) {
            case VK_FORMAT_R8G8B8A8_UNORM -> "rgba8";
            case VK_FORMAT_R16G16B16A16_SFLOAT -> "rgba16f";
            case VK_FORMAT_A2B10G10R10_UNORM_PACK32 -> "rgb10_a2";
            default -> null;
        };
    }

    /** True when the compute path writes {@code target}: a storable format, STORAGE usage, device support. */
    public boolean usesCompute(ImageDesc target) {
        if (storageQualifier(target.format()) == null || (target.usage() & VK_IMAGE_USAGE_STORAGE_BIT) == 0) {
            return false;
        }
        if (target.format() != lastSupportFormat) {   // steady state: one format, no boxed key nor lambda per frame
            lastSupport = storageSupport.computeIfAbsent(target.format(), f -> ctx.optimalTilingSupports(f, VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT));
            lastSupportFormat = target.format();
        }
        return lastSupport;
    }

    private int lastSupportFormat = -1;
    private boolean lastSupport;

    private dev.tally.internal.shader.ComputeKernel buildCompute(int format) {
        return new dev.tally.internal.shader.ComputeKernel(ctx, compiler, cache, TONEMAP_COMPUTE, computeDefines(storageQualifier(format), rows),
                SpecConstants.of(ExposureShaderLayout.SPEC_TONEMAP_ENCODE_SRGB, 1,
                        ExposureShaderLayout.SPEC_TONEMAP_ACES_INPUT_SCALE, Float.floatToRawIntBits(1f)),
                List.of(BindingType.SAMPLED_IMAGE, BindingType.STORAGE_BUFFER, BindingType.STORAGE_IMAGE), 0);
    }

    /** Rebuilds pipelines from current sources (hot reload); on a compile error the old ones stay. */
    public void reload() {
        buildCompute(VK_FORMAT_R8G8B8A8_UNORM).close();   // throws on a compile error, before anything is replaced
        pipelines.reload();
        computeByFormat.values().forEach(dev.tally.internal.shader.ComputeKernel::close);   // destruction deferred past frames in flight
        computeByFormat.clear();
        lastKernel = null;
    }

    /** Adds pass {@code tonemap} writing {@code target} (cleared); returns its new version. */
    public ImageHandle add(FrameGraph g, ImageHandle hdr, BufferHandle exposure, ImageHandle target) {
        return add(g, "tonemap", hdr, exposure, target);
    }

    /**
     * Adds pass {@code name} (a label, e.g. {@code "left/tonemap"}) writing {@code target} (cleared),
     * in the target's format as the graph knows it: a compute pass where the format and the image's
     * usage allow storage writes, a fullscreen draw otherwise. Returns the target's new version.
     */
    public ImageHandle add(FrameGraph frameGraph, String name, ImageHandle hdr, BufferHandle exposure, ImageHandle target) {
        GraphDeclaration g = GraphDeclaration.of(frameGraph);
        ImageDesc desc = g.desc(target);
        if (usesCompute(desc)) {
            return addCompute(g, name, hdr, exposure, target, desc);
        }
        setupHdr = hdr;
        setupExposure = exposure;
        setupTarget = target;
        setupIo = nextComputeIo(g);
        setupPipeline = pipelines.get(desc.format());
        ImageHandle out = g.addPass(name, PassKind.GRAPHICS, graphicsSetup, graphicsRecord).target();
        setupIo = null;
        setupPipeline = null;
        setupHdr = setupTarget = null;
        setupExposure = null;
        return out;
    }


    /**
     * The tonemap pass's handles and what its recording needs (the compute kernel and groups, or the graphics pipeline), set by
     * its setup. Pooled per frame (a frame may tonemap several views with one tonemapper): a frame's passes are recorded before
     * the next frame is declared, or never.
     */
    private static final class ComputeIo {
        private ImageHandle hdr, target;
        private BufferHandle exposure;
        private dev.tally.internal.shader.ComputeKernel kernel;
        /** The fullscreen draw's pipeline (the graphics path's pass; null for the compute pass). */
        private GraphicsPipeline pipeline;
        private int groupsX, groupsY;

        ComputeIo set(ImageHandle hdr, BufferHandle exposure, ImageHandle target, dev.tally.internal.shader.ComputeKernel kernel, int groupsX,
                      int groupsY) {
            this.hdr = hdr;
            this.exposure = exposure;
            this.target = target;
            this.kernel = kernel;
            this.groupsX = groupsX;
            this.groupsY = groupsY;
            this.pipeline = null;
            return this;
        }

        ComputeIo drawnWith(GraphicsPipeline p) {
            this.pipeline = p;
            return this;
        }

        ImageHandle hdr() { return hdr; }
        BufferHandle exposure() { return exposure; }
        ImageHandle target() { return target; }
        dev.tally.internal.shader.ComputeKernel kernel() { return kernel; }
        int groupsX() { return groupsX; }
        int groupsY() { return groupsY; }
    }

    private ComputeIo[] computePool = new ComputeIo[2];
    private int computeUsed;
    private long computeFrame = -1;

    /** The next pass data of frame {@code g}'s pool (emptied when a new frame is declared). */
    private ComputeIo nextComputeIo(FrameGraph g) {
        if (g.frame() != computeFrame) {
            computeFrame = g.frame();
            computeUsed = 0;
        }
        if (computeUsed == computePool.length) {
            computePool = java.util.Arrays.copyOf(computePool, 2 * computePool.length);
        }
        if (computePool[computeUsed] == null) {
            computePool[computeUsed] = new ComputeIo();
        }
        return computePool[computeUsed++];
    }

    private ComputeIo setupIo;

    // The pass being declared, read by computeSetup while addPass runs: no lambda captures per frame.
    private ImageHandle setupHdr, setupTarget;
    private BufferHandle setupExposure;
    private dev.tally.internal.shader.ComputeKernel setupKernel;
    private int setupGroupsX, setupGroupsY;
    private int lastFormat = -1;
    private dev.tally.internal.shader.ComputeKernel lastKernel;
    private final dev.tally.internal.shader.Bindings computeBindings = new dev.tally.internal.shader.Bindings(3);

    private final java.util.function.Function<dev.tally.graph.PassBuilder, ComputeIo> computeSetup = b -> setupIo.set(
            b.read(setupHdr, Access.COMPUTE_SAMPLED), b.read(setupExposure, Access.COMPUTE_READ), b.write(setupTarget, Access.COMPUTE_WRITE),
            setupKernel, setupGroupsX, setupGroupsY);

    private final java.util.function.BiConsumer<ComputeIo, dev.tally.graph.PassContext> computeRecord = this::recordCompute;

    private GraphicsPipeline setupPipeline;
    /** The fullscreen draw's clear colour (the attachment copies it). */
    private static final float[] CLEAR_BLACK = {0, 0, 0, 1};
    private final dev.tally.internal.shader.Bindings graphicsBindings = new dev.tally.internal.shader.Bindings(2);

    private final java.util.function.Function<dev.tally.graph.PassBuilder, ComputeIo> graphicsSetup = b -> setupIo.set(
            b.read(setupHdr, Access.FRAGMENT_SAMPLED), b.read(setupExposure, Access.GRAPHICS_READ), b.colorAttachment(setupTarget, CLEAR_BLACK),
            null, 0, 0).drawnWith(setupPipeline);

    private final java.util.function.BiConsumer<ComputeIo, dev.tally.graph.PassContext> graphicsRecord = this::recordGraphics;

    private void recordGraphics(ComputeIo h, dev.tally.graph.PassContext c) {
        h.pipeline.draw(c.cmd(), graphicsBindings.clear().sampled(c.image(h.hdr()), sampler)
                .buffer(c.buffer(h.exposure()), 0, ExposureShaderLayout.EXPOSURE_BYTES), 0L, 0, c.width(), c.height(), 3);
    }

    private void recordCompute(ComputeIo h, dev.tally.graph.PassContext c) {
        h.kernel().dispatch(c.cmd(), computeBindings.clear().sampled(c.image(h.hdr()), sampler)
                .buffer(c.buffer(h.exposure()), 0, ExposureShaderLayout.EXPOSURE_BYTES)
                .storageImage(c.image(h.target())), 0L, 0, h.groupsX(), h.groupsY());
    }

    private ImageHandle addCompute(GraphDeclaration g, String name, ImageHandle hdr, BufferHandle exposure, ImageHandle target, ImageDesc desc) {
        if (desc.format() != lastFormat || lastKernel == null) {
            lastKernel = computeByFormat.computeIfAbsent(desc.format(), this::buildCompute);   // a boxed key only when the format changes
            lastFormat = desc.format();
        }
        setupHdr = hdr;
        setupExposure = exposure;
        setupTarget = target;
        setupKernel = lastKernel;
        setupGroupsX = (desc.width() + GROUP - 1) / GROUP;
        setupGroupsY = (desc.height() + GROUP * rows - 1) / (GROUP * rows);
        setupIo = nextComputeIo(g);
        ImageHandle out = g.addPass(name, PassKind.COMPUTE, computeSetup, computeRecord).target();
        setupIo = null;
        setupHdr = setupTarget = null;
        setupExposure = null;
        setupKernel = null;
        return out;
    }

    @Override
    public void close() {
        ctx.requireOpen("Tonemapper");
        computeByFormat.values().forEach(dev.tally.internal.shader.ComputeKernel::close);
        pipelines.close();
        Samplers.destroy(ctx, sampler);
    }
}
