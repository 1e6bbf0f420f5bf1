package dev.tally.shader;

import org.lwjgl.vulkan.VkCommandBuffer;

import java.nio.ByteBuffer;

/**
 * A compute pipeline of the host's own, for its passes in a frame graph: set-0 bindings of the declared
 * {@link BindingType}s, push constants, dispatch. Made by {@code Tally.computeKernel}; the SPIR-V comes from
 * the same place as Tally's own (built into the jars, or compiled live from {@code shaders.dir}), and Tally's
 * pipeline cache keeps it. Closing it defers the destruction until the GPU is done with it.
 */
public interface ComputeKernel extends AutoCloseable {
    /** {@return an empty binding list for this kernel's dispatches, to keep and refill every frame} */
    KernelBindings bindings();

    /**
     * Binds the pipeline and {@code bindings}, pushes {@code push} and dispatches, into {@code cmd}.
     *
     * @param cmd      a command buffer in the recording state (a pass's {@code PassContext.cmd()})
     * @param bindings from {@link #bindings()}, one entry per declared binding
     * @param push     the push constants (position to limit), or null when the kernel has none
     * @param groupsX  workgroups in x
     * @param groupsY  workgroups in y
     * @throws IllegalArgumentException when the bindings do not match the declared ones, or a group count is negative or past the device's maxComputeWorkGroupCount
     */
    void dispatch(VkCommandBuffer cmd, KernelBindings bindings, ByteBuffer push, int groupsX, int groupsY);

    /**
     * Hot reload, between frames: rebuilds the pipeline from the current source.
     *
     * @throws ShaderCompileException on a compile error; the running pipeline stays
     */
    void reload();

    /** Destroys the pipeline once the GPU is done with it. */
    @Override
    void close();
}
