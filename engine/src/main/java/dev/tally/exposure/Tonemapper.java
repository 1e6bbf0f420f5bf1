package dev.tally.exposure;

import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassKind;
import dev.tally.shader.BindingType;
import dev.tally.shader.DescriptorSets;
import dev.tally.shader.GraphicsPipeline;
import dev.tally.shader.PipelineCache;
import dev.tally.shader.Samplers;
import dev.tally.shader.ShaderCompiler;
import dev.tally.shader.SpecConstants;
import dev.tally.vk.VulkanContext;

import java.util.List;
import java.util.Map;

import static org.lwjgl.vulkan.VK10.*;

/** The tonemap pass: HDR x the GPU-side exposure multiplier, ACES fit, into an LDR target. */
public final class Tonemapper implements AutoCloseable {
    private final VulkanContext ctx;
    private final ShaderCompiler compiler;
    private final PipelineCache cache;
    private final long sampler;
    private final dev.tally.shader.PipelinesByFormat pipelines = new dev.tally.shader.PipelinesByFormat(this::build);

    public Tonemapper(VulkanContext ctx, ShaderCompiler compiler, PipelineCache cache) {
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

    /** Rebuilds pipelines from current sources (hot reload); on a compile error the old ones stay. */
    public void reload() {
        pipelines.reload();
    }

    /** Adds pass {@code tonemap} writing {@code target} (cleared); returns its new version. */
    public ImageHandle add(FrameGraph g, ImageHandle hdr, BufferHandle exposure, ImageHandle target) {
        return add(g, "tonemap", hdr, exposure, target);
    }

    /**
     * Adds pass {@code name} (a label, e.g. {@code "left/tonemap"}) writing {@code target} (cleared),
     * in the target's format as the graph knows it; returns the target's new version.
     */
    public ImageHandle add(FrameGraph g, String name, ImageHandle hdr, BufferHandle exposure, ImageHandle target) {
        GraphicsPipeline p = pipelines.get(g.desc(target).format());
        record Io(ImageHandle hdr, BufferHandle exposure, ImageHandle target) {
        }
        return g.addPass(name, PassKind.GRAPHICS, b -> new Io(b.read(hdr, Access.FRAGMENT_SAMPLED), b.read(exposure, Access.GRAPHICS_READ),
                b.colorAttachment(target, new float[]{0, 0, 0, 1})), (h, c) ->
                p.draw(c.cmd(), List.of(DescriptorSets.Sampled.of(c.image(h.hdr()), sampler),
                        DescriptorSets.Range.of(c.buffer(h.exposure()), 0, ExposureShaderLayout.EXPOSURE_BYTES)), null, c.width(), c.height(), 3)).target();
    }

    @Override
    public void close() {
        pipelines.close();
        Samplers.destroy(ctx, sampler);
    }
}
