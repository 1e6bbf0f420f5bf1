package dev.tally.exposure;

import dev.tally.graph.FrameGraph;
import dev.tally.exposure.Metering;
import dev.tally.exposure.ExposureShaderLayout;
import dev.tally.exposure.ExposureSettings;
import dev.tally.graph.Access;
import dev.tally.graph.BufferDesc;
import dev.tally.graph.BufferHandle;
import dev.tally.internal.graph.GraphDeclaration;
import dev.tally.internal.graph.GraphRuntime;
import dev.tally.internal.graph.HistoryBuffer;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassKind;
import dev.tally.internal.graph.RecordedRequest;
import dev.tally.reduce.ReduceNode;
import dev.tally.reduce.ReduceOp;
import dev.tally.internal.reduce.Reducer;
import dev.tally.internal.shader.BindingType;
import dev.tally.internal.shader.Bindings;
import dev.tally.internal.shader.ComputeKernel;
import dev.tally.internal.shader.DescriptorSets;
import dev.tally.internal.shader.PipelineCache;
import dev.tally.internal.shader.Samplers;
import dev.tally.internal.shader.ShaderLibrary;
import dev.tally.internal.shader.SpecConstants;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.vk.GpuImage;
import dev.tally.vk.MemoryKind;
import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import static org.lwjgl.vulkan.VK10.*;

/**
 * Auto-exposure as passes in a frame graph, with no CPU round trip: histogram of the HDR image,
 * its total by the reduction node, normalization by that GPU-side total, then exposure adaptation
 * against last frame's exposure (a history resource). The tonemap pass reads the result directly.
 */
public interface AutoExposure extends AutoCloseable {
    /** Handles this frame's passes produced. {@code exposure} holds {@link ExposureShaderLayout#EXPOSURE_FLOATS} floats. */
    public record Result(BufferHandle bins, BufferHandle total, BufferHandle normalized, BufferHandle exposure) {
    }
    /**
     * Hot reload: rebuilds every pipeline from the current shader sources, between frames. On a
     * compile error the previous pipelines stay and the error is thrown.
     */
    void reload();

    /** Changes settings at run time; a new metering mode rebuilds the histogram pipeline. */
    void settings(ExposureSettings next);

    ExposureSettings settings();

    /** The metering mask (red channel = weight) used when metering is MASK; the caller owns it. */
    void mask(GpuImage image, long sampler);

    /** A camera cut: the next frame snaps to its target instead of adapting. */
    void reset();

    /** The scope this auto-exposure's names start with. */
    String scope();

    /**
     * Adds passes histogram (its resolve fused in), reduce*, and exposure (normalization fused in), each under this
     * auto-exposure's scope, metering {@code hdr}, whose extent comes from the graph.
     */
    Result add(FrameGraph frameGraph, ImageHandle hdr, float dt);

    void close();
}
