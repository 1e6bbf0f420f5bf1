package dev.tally.internal.hud;

import dev.tally.hud.ExposurePlot;

import dev.tally.vk.GpuBuffer;

import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.internal.graph.GraphDeclaration;
import dev.tally.graph.ImageDesc;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassBuilder;
import dev.tally.graph.PassContext;
import dev.tally.graph.PassKind;
import dev.tally.internal.hud.HudLayout.Rect;
import dev.tally.hud.HudOverlay.HistogramView;
import dev.tally.shader.BindingType;
import dev.tally.internal.shader.Bindings;
import dev.tally.internal.shader.ComputeKernel;
import dev.tally.internal.shader.PipelineCache;
import dev.tally.internal.shader.ShaderLibrary;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.internal.vk.VulkanContext;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;

import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK11.*;

/**
 * The HUD as a compute pass (hud.comp) over the 16 x 16 tiles under its panels, writing an RGBA8 storage
 * image in place. The pass's setup and recording are made once: what the pass being declared needs is
 * read from fields while {@code addPass} runs, so that no lambda captures per frame.
 */
final class HudComputePath implements AutoCloseable {
    /** Tiles of the dispatch per row (groups beyond fill further rows). */
    private static final int MAX_GROUPS_X = 4096;

    private final VulkanContext ctx;
    /** Whether a CPU device (lavapipe) takes this path too; see {@link #writes}. */
    private final boolean computeOnCpu;
    private final ShaderLibrary compiler;
    private final PipelineCache cache;
    private ComputeKernel compute;
    private Boolean computeSupported;
    /** Scratch for the scene's areas (copied into the slot by HudScene.write). */
    private final float[] histogramAreaScratch = new float[4], plotAreaScratch = new float[4];

    /**
     * The compute pass's handles and what its recording needs, set by its setup. Pooled per frame (a frame may draw several
     * HUDs): a frame's passes are recorded before the next frame is declared, or never.
     */
    private static final class ComputeIo {
        private ImageHandle target;
        private BufferHandle normalized, exposure, plot;
        private TrackedBuffer header, glyphs, atlas;
        private int groupsX, groupsY;

        ComputeIo set(ImageHandle target, BufferHandle normalized, BufferHandle exposure, BufferHandle plot, TrackedBuffer header, TrackedBuffer glyphs,
                      TrackedBuffer atlas, int groupsX, int groupsY) {
            this.target = target;
            this.normalized = normalized;
            this.exposure = exposure;
            this.plot = plot;
            this.header = header;
            this.glyphs = glyphs;
            this.atlas = atlas;
            this.groupsX = groupsX;
            this.groupsY = groupsY;
            return this;
        }

        ImageHandle target() { return target; }
        BufferHandle normalized() { return normalized; }
        BufferHandle exposure() { return exposure; }
        BufferHandle plot() { return plot; }
        TrackedBuffer header() { return header; }
        TrackedBuffer glyphs() { return glyphs; }
        TrackedBuffer atlas() { return atlas; }
        int groupsX() { return groupsX; }
        int groupsY() { return groupsY; }
    }

    private ComputeIo[] pool = new ComputeIo[2];
    private int poolUsed;
    private long poolFrame = -1;
    private ComputeIo setupIo;

    /** The next pass data of frame {@code g}'s pool (emptied when a new frame is declared). */
    private ComputeIo nextIo(dev.tally.graph.FrameGraph g) {
        if (g.frame() != poolFrame) {
            poolFrame = g.frame();
            poolUsed = 0;
        }
        if (poolUsed == pool.length) {
            pool = java.util.Arrays.copyOf(pool, 2 * pool.length);
        }
        if (pool[poolUsed] == null) {
            pool[poolUsed] = new ComputeIo();
        }
        return pool[poolUsed++];
    }

    // The compute pass being declared, read by computeSetup while addPass runs: no lambda captures per frame.
    private ImageHandle computeTarget;
    private HistogramView computeHistogram;
    private ExposurePlot.View computePlot;
    private TrackedBuffer computeHeader, computeGlyphs, computeAtlas;
    private int computeGroupsX, computeGroupsY;
    private final Bindings computeBindings = new Bindings(7);

    private final Function<PassBuilder, ComputeIo> computeSetup = b -> setupIo.set(
            b.write(computeTarget, Access.COMPUTE_READ_WRITE), b.read(computeHistogram.normalized(), Access.COMPUTE_READ),
            b.read(computeHistogram.exposure(), Access.COMPUTE_READ), computePlot == null ? null : b.read(computePlot.ring(), Access.COMPUTE_READ),
            computeHeader, computeGlyphs, computeAtlas, computeGroupsX, computeGroupsY);

    private final BiConsumer<ComputeIo, PassContext> computeRecord = (h, c) -> {
        GpuBuffer exposure = c.buffer(h.exposure());
        GpuBuffer ring = h.plot() == null ? exposure : c.buffer(h.plot());
        compute().dispatch(c.cmd(), computeBindings.clear()
                .buffer(h.atlas(), 0, h.atlas().size())
                .buffer(h.glyphs(), HudScene.GLYPH_OFFSET, h.glyphs().size() - HudScene.GLYPH_OFFSET)
                .buffer(c.buffer(h.normalized()), 0, 256 * 4)
                .buffer(exposure, 0, exposure.size())
                .buffer(ring, 0, ring.size())
                .buffer(h.header(), 0, HudScene.HEADER_BYTES)
                .storageImage(c.image(h.target())), 0L, 0, h.groupsX(), h.groupsY());
    };

    HudComputePath(VulkanContext ctx, ShaderLibrary compiler, PipelineCache cache, boolean computeOnCpu) {
        this.ctx = ctx;
        this.computeOnCpu = computeOnCpu;
        this.compiler = compiler;
        this.cache = cache;
    }

    /**
     * True when this path writes {@code target}: RGBA8 UNORM, STORAGE usage, storage support and the
     * subgroup operations hud.comp uses (ballot, shuffle, arithmetic, in compute) on this device, and the
     * device a GPU (or the overlay made with {@code computeOnCpu}).
     */
    boolean writes(ImageDesc target) {
        if (target.format() != VK_FORMAT_R8G8B8A8_UNORM || (target.usage() & VK_IMAGE_USAGE_STORAGE_BIT) == 0) {
            return false;
        }
        if (computeSupported == null) {
            int ops = VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT | VK_SUBGROUP_FEATURE_SHUFFLE_BIT
                    | VK_SUBGROUP_FEATURE_ARITHMETIC_BIT;
            // The compute path walks every shape with subgroup ballots and shuffles: fast on a GPU (H200 4K
            // 33.5 us), but lavapipe spends 40-60 ms on the demo's 160x90 HUD that its graphics path draws
            // in 1.5-5 ms. A CPU device draws unless asked otherwise.
            computeSupported = (computeOnCpu || !ctx.info().isCpu())
                    && ctx.optimalTilingSupports(VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT)
                    && ctx.info().subgroupComputeSupports(ops);
        }
        return computeSupported;
    }

    /** Compiles hud.comp from the current sources (throws on a compile error, replacing nothing). */
    ComputeKernel newKernel() {
        return new ComputeKernel(ctx, compiler, cache, "hud.comp", ExposurePlotNode.recordDefines(), null,
                List.of(BindingType.STORAGE_BUFFER, BindingType.STORAGE_BUFFER, BindingType.STORAGE_BUFFER, BindingType.STORAGE_BUFFER,
                        BindingType.STORAGE_BUFFER, BindingType.STORAGE_BUFFER, BindingType.STORAGE_IMAGE), 0);
    }

    /** Uses {@code fresh} from now on (hot reload). */
    void replaceKernel(ComputeKernel fresh) {
        if (compute != null) {
            compute.close();   // destruction deferred past frames in flight
        }
        compute = fresh;
    }

    /**
     * Writes the scene header into the frame's slot ({@code header}, mapped as {@code mapped}), flushes it and adds the
     * pass over {@code target}, reading the scene's glyphs from {@code glyphSlot} (written and flushed when they were built).
     */
    ImageHandle add(GraphDeclaration g, String name, ImageHandle target, HudScene scene, HudLayout layout, ByteBuffer mapped, TrackedBuffer header,
                    TrackedBuffer glyphSlot, TrackedBuffer atlasBuffer, FontAtlas f, HistogramView histogram, ExposurePlot.View plot,
                    float lineWidth) {
        Rect ha = layout.histogramArea();
        Rect area = layout.plotArea();
        int groups = scene.planTiles();
        int groupsX = Math.max(1, Math.min(groups, MAX_GROUPS_X)), groupsY = (groups + groupsX - 1) / groupsX;
        float[] haf = histogramAreaScratch, af = plotAreaScratch;
        haf[0] = ha.x(); haf[1] = ha.y(); haf[2] = ha.w(); haf[3] = ha.h();
        af[0] = area.x(); af[1] = area.y(); af[2] = area.w(); af[3] = area.h();
        scene.write(mapped, groupsX, groupsY, haf, histogram.minEV(), histogram.binsPerEV(),
                f.width(), af, plot == null ? 0 : plot.now(), ExposurePlotNode.SPAN_SECONDS,
                histogram.minEV(), histogram.maxEV(), lineWidth);
        header.flush(0, HudScene.HEADER_BYTES);
        compute();
        computeTarget = target;
        computeHistogram = histogram;
        computePlot = plot;
        computeHeader = header;
        computeGlyphs = glyphSlot;
        computeAtlas = atlasBuffer;
        computeGroupsX = groupsX;
        computeGroupsY = groupsY;
        setupIo = nextIo(g);
        ImageHandle out = g.addPass(name, PassKind.COMPUTE, computeSetup, computeRecord).target();
        setupIo = null;
        computeTarget = null;   // declared: the pass's data carries what recording needs
        computeHistogram = null;
        computePlot = null;
        computeHeader = computeGlyphs = computeAtlas = null;
        return out;
    }

    private ComputeKernel compute() {
        if (compute == null) {
            compute = newKernel();
        }
        return compute;
    }

    @Override
    public void close() {
        if (compute != null) {
            compute.close();
        }
    }
}
