/**
 * Tally: GPU reductions, a frame graph, auto-exposure and a never-waiting readback ring for Vulkan
 * renderers. Start at {@link dev.tally.Tally}: {@code open} for a device of its own, {@code wrap} for a
 * renderer's device, queue and allocator.
 * <p>
 * LWJGL's native libraries are the application's choice (one {@code natives-<os>} jar per platform), so
 * this module depends on LWJGL's Java modules only.
 */
module dev.tally {
    requires transitive org.lwjgl;
    requires transitive org.lwjgl.vulkan;
    requires org.lwjgl.vma;
    // Only to compile shaders: at build time and for live reload (shaders.live); the jar carries SPIR-V.
    requires static org.lwjgl.shaderc;
    requires org.lwjgl.stb;

    exports dev.tally;
    exports dev.tally.config;
    exports dev.tally.exposure;
    exports dev.tally.graph;
    exports dev.tally.hud;
    exports dev.tally.readback;
    exports dev.tally.shader;
    exports dev.tally.reduce;
    exports dev.tally.vk;
}
