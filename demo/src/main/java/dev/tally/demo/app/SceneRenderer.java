package dev.tally.demo.app;

import dev.tally.graph.FrameGraph;
import dev.tally.graph.ImageDesc;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassKind;
import dev.tally.shader.GraphicsPipeline;
import dev.tally.shader.PipelineCache;
import dev.tally.shader.ShaderCompiler;
import dev.tally.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;

import java.util.List;
import java.util.Map;

import static org.lwjgl.vulkan.VK10.*;

/** The demo's HDR scene as a graphics pass into a transient RGBA16F image (see shaders/scene.frag). */
final class SceneRenderer implements AutoCloseable {
    static final int HDR_FORMAT = VK_FORMAT_R16G16B16A16_SFLOAT;
    private final VulkanContext ctx;
    private final ShaderCompiler compiler;
    private final PipelineCache cache;
    private GraphicsPipeline pipeline;

    SceneRenderer(VulkanContext ctx, ShaderCompiler compiler, PipelineCache cache) {
        this.ctx = ctx;
        this.compiler = compiler;
        this.cache = cache;
        this.pipeline = build();
    }

    private GraphicsPipeline build() {
        return new GraphicsPipeline(ctx, compiler, cache, "fullscreen.vert", "scene.frag", Map.of(), HDR_FORMAT, false, List.of(), 8);
    }

    /** Rebuilds from current sources; throws (keeping the old pipeline) on a compile error. */
    void reload() {
        GraphicsPipeline fresh = build();
        pipeline.close();
        pipeline = fresh;
    }

    ImageHandle add(FrameGraph g, int width, int height, float time) {
        GraphicsPipeline p = pipeline;
        ImageDesc desc = new ImageDesc(width, height, HDR_FORMAT,
                VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT);
        return g.addPass("scene", PassKind.GRAPHICS, b -> b.colorAttachment(b.create("hdr", desc), new float[]{0, 0, 0, 1}), (h, c) -> {
            try (MemoryStack stack = MemoryStack.stackPush()) {
                p.draw(c.cmd(), List.of(), stack.malloc(8).putFloat(0, time).putFloat(4, (float) width / height), c.width(), c.height(), 3);
            }
        });
    }

    @Override
    public void close() {
        pipeline.close();
    }
}
