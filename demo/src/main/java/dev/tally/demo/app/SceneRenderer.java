package dev.tally.demo.app;

import dev.tally.graph.Access;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.ImageDesc;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassKind;
import dev.tally.shader.BindingType;
import dev.tally.shader.ComputeKernel;
import dev.tally.shader.DescriptorSets;
import dev.tally.shader.PipelineCache;
import dev.tally.shader.ShaderCompiler;
import dev.tally.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

import static org.lwjgl.vulkan.VK10.*;

/**
 * The demo's HDR scene as a compute pass writing a transient RGBA16F storage image (see
 * shaders/scene.comp); the camera follows {@link ScenePath}. Compute, not a fullscreen triangle:
 * on GPUs with few graphics units the fragment path is many times slower for the same work.
 */
final class SceneRenderer implements AutoCloseable {
    static final int HDR_FORMAT = VK_FORMAT_R16G16B16A16_SFLOAT;
    private static final int PUSH_BYTES = 32;
    private static final int GROUP = 8;
    /** Vertical field of view: 70 degrees. */
    private static final float TAN_HALF_FOV = (float) Math.tan(Math.toRadians(35));
    private final VulkanContext ctx;
    private final ShaderCompiler compiler;
    private final PipelineCache cache;
    private ComputeKernel kernel;

    SceneRenderer(VulkanContext ctx, ShaderCompiler compiler, PipelineCache cache) {
        this.ctx = ctx;
        this.compiler = compiler;
        this.cache = cache;
        this.kernel = build();
    }

    private ComputeKernel build() {
        return new ComputeKernel(ctx, compiler, cache, "scene.comp", Map.of(), null, List.of(BindingType.STORAGE_IMAGE), PUSH_BYTES);
    }

    /** Rebuilds from current sources; throws (keeping the old pipeline) on a compile error. */
    void reload() {
        ComputeKernel fresh = build();
        kernel.close();
        kernel = fresh;
    }

    ImageHandle add(FrameGraph g, int width, int height, float time) {
        ComputeKernel k = kernel;
        ScenePath.Camera cam = ScenePath.at(time);
        // TRANSFER_SRC: the HUD's luminance probe reads a texel back.
        ImageDesc desc = new ImageDesc(width, height, HDR_FORMAT, VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
        return g.addPass("scene", PassKind.COMPUTE, b -> b.write(b.create("hdr", desc), Access.COMPUTE_WRITE), (h, c) -> {
            try (MemoryStack stack = MemoryStack.stackPush()) {
                ByteBuffer push = stack.malloc(PUSH_BYTES).putFloat(0, (float) cam.x()).putFloat(4, (float) cam.y()).putFloat(8, (float) cam.z())
                        .putFloat(12, (float) cam.heading()).putFloat(16, width).putFloat(20, height).putFloat(24, TAN_HALF_FOV).putFloat(28, time);
                k.dispatch(c.cmd(), List.of(DescriptorSets.StorageImage.of(c.image(h))), push,
                        (width + GROUP - 1) / GROUP, (height + GROUP - 1) / GROUP);
            }
        });
    }

    @Override
    public void close() {
        kernel.close();
    }
}
