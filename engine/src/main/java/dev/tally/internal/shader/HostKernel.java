package dev.tally.internal.shader;

import dev.tally.internal.vk.VulkanContext;
import dev.tally.shader.BindingType;
import dev.tally.shader.ComputeKernel;
import dev.tally.shader.KernelBindings;
import dev.tally.shader.ShaderCompileException;
import org.lwjgl.vulkan.VkCommandBuffer;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

/**
 * A host's compute kernel ({@code Tally.computeKernel}): Tally's own kernel machinery behind the exported
 * interface, with the checks a caller's bindings and push constants get where they are handed.
 */
public final class HostKernel implements ComputeKernel {
    private final VulkanContext ctx;
    private final ShaderLibrary compiler;
    private final PipelineCache cache;
    private final String shader;
    private final Map<String, String> defines;
    private final List<BindingType> types;
    private final int pushBytes;
    private dev.tally.internal.shader.ComputeKernel kernel;

    private final java.util.function.Consumer<HostKernel> onClose;

    public HostKernel(VulkanContext ctx, ShaderLibrary compiler, PipelineCache cache, String shader, Map<String, String> defines,
                      List<BindingType> types, int pushBytes, java.util.function.Consumer<HostKernel> onClose) {
        this.onClose = onClose;
        if (shader == null || !shader.endsWith(".comp")) {
            throw new IllegalArgumentException("computeKernel: shader '" + shader + "' is not a compute shader file name (name.comp under shaders/)");
        }
        EngineShaders.requireHostName("computeKernel: shader ", shader);
        if (pushBytes < 0 || pushBytes > 128 || pushBytes % 4 != 0) {
            throw new IllegalArgumentException("computeKernel " + shader + ": pushBytes " + pushBytes
                    + " is not a multiple of 4 from 0 to 128 (the push-constant size every Vulkan device supports)");
        }
        this.ctx = ctx;
        this.compiler = compiler;
        this.cache = cache;
        this.shader = shader;
        this.defines = Map.copyOf(defines);
        this.types = List.copyOf(types);
        this.pushBytes = pushBytes;
        if (!compiler.provides(shader, this.defines)) {
            throw new ShaderCompileException("computeKernel " + shader + ": no SPIR-V of it with these defines was built into the jars; build it into yours"
                    + " with dev.tally.shader.ShaderBuild, or compile it at run time with shaders.live=true and shaders.dir set to the directory"
                    + " holding it (both need lwjgl-shaderc and its natives)");
        }
        this.kernel = build();
    }

    /** The kernel from the shader's current SPIR-V, once what the shader uses is found among the declared bindings and push constants. */
    private dev.tally.internal.shader.ComputeKernel build() {
        ShaderInterface.requireDeclared(shader, compiler.spirv(shader, defines), types, pushBytes);
        return new dev.tally.internal.shader.ComputeKernel(ctx, compiler, cache, shader, defines, null, types, pushBytes);
    }

    @Override
    public KernelBindings bindings() {
        return new Bindings(Math.max(1, types.size()));
    }

    @Override
    public void dispatch(VkCommandBuffer cmd, KernelBindings bindings, ByteBuffer push, int groupsX, int groupsY) {
        if (!(bindings instanceof Bindings b)) {
            throw new IllegalArgumentException("kernel " + shader + ": bindings not made by ComputeKernel.bindings()");
        }
        if (b.size() != types.size()) {
            throw new IllegalArgumentException("kernel " + shader + ": " + b.size() + " bindings given, " + types.size() + " declared");
        }
        for (int i = 0; i < types.size(); i++) {
            if (b.kind(i) != Bindings.kindOf(types.get(i))) {
                throw new IllegalArgumentException("kernel " + shader + ": binding " + i + " is declared " + types.get(i) + " but was given another kind");
            }
        }
        int given = push == null ? 0 : push.remaining();
        if (given != pushBytes) {
            throw new IllegalArgumentException("kernel " + shader + ": " + given + " push-constant bytes given, " + pushBytes + " declared");
        }
        if (groupsX < 0 || groupsY < 0 || groupsX > ctx.info().maxComputeWorkGroupCount() || groupsY > ctx.info().maxComputeWorkGroupCountY()) {
            throw new IllegalArgumentException("kernel " + shader + ": " + groupsX + " x " + groupsY + " workgroups; device '" + ctx.info().name()
                    + "' takes 0.." + ctx.info().maxComputeWorkGroupCount() + " x 0.." + ctx.info().maxComputeWorkGroupCountY()
                    + " (maxComputeWorkGroupCount): split the dispatch or give each invocation more work");
        }
        kernel.dispatch(cmd, b, push, groupsX, groupsY);
    }

    @Override
    public void reload() {
        dev.tally.internal.shader.ComputeKernel fresh;
        try {
            fresh = build();
        } catch (IllegalArgumentException e) {
            throw new ShaderCompileException(e.getMessage());   // the edited source no longer fits the declaration: the running pipeline stays
        }
        kernel.close();
        kernel = fresh;
    }

    @Override
    public void close() {
        if (closed) {
            return;   // closed by its holder, or by Tally.close for a holder that forgot: once
        }
        closed = true;
        kernel.close();
        onClose.accept(this);
    }

    private boolean closed;
}
