package dev.tally;

import dev.tally.config.Config;
import dev.tally.config.ConfigException;
import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.PassKind;
import dev.tally.shader.BindingType;
import dev.tally.shader.ComputeKernel;
import dev.tally.shader.KernelBindings;
import dev.tally.shader.ShaderCompileException;
import dev.tally.vk.GpuBuffer;
import dev.tally.vk.MemoryKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkCommandBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.vulkan.VK10.VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;

/**
 * A host's own GLSL for {@code Tally.computeKernel}: compiled live from the directory {@code shaders.dir} names, and
 * refused in one line where it cannot come from anywhere (lavapipe, validation on).
 */
class HostShadersTest {
    /** The host's kernel: values[i] = i % 7 + base, for i below count. */
    private static final String HOST_KERNEL = """
            #version 460
            layout(local_size_x = 64) in;
            layout(std430, set = 0, binding = 0) writeonly buffer Out { float values[]; };
            layout(push_constant) uniform Push { uint count; float base; } pc;
            void main() {
                for (uint i = gl_GlobalInvocationID.x; i < pc.count; i += gl_NumWorkGroups.x * 64u) {
                    values[i] = float(i % 7u) + pc.base;
                }
            }
            """;

    private static Tally open(Path cache, String... overrides) {
        List<String> all = new java.util.ArrayList<>(List.of("validation.enabled=true", "cache.dir=" + cache));
        all.addAll(List.of(overrides));
        return Tally.open(Config.load(null, all), List.of());
    }

    /** One frame of one pass: {@code kernel} with {@code out} at binding 0, two groups; the GPU waited for, {@code out} readable. */
    private static void dispatchOnce(Tally tally, ComputeKernel kernel, GpuBuffer out, ByteBuffer push) {
        try (FrameCommands commands = tally.frameCommands()) {
            KernelBindings bindings = kernel.bindings();
            Frame frame = tally.beginFrame();
            BufferHandle target = frame.graph().importBuffer("host.values", out, Access.HOST_READ);
            frame.graph().addPass("host.kernel", PassKind.COMPUTE, b -> b.write(target, Access.COMPUTE_WRITE),
                    (h, c) -> kernel.dispatch(c.cmd(), bindings.clear().buffer(c.buffer(h), 0, out.size()), push, 2, 1));
            VkCommandBuffer cmd = commands.begin(frame);
            frame.record(cmd);
            commands.end(cmd);
            frame.submit(cmd);
            tally.device().waitIdle();
            out.invalidate(0, out.size());
        }
    }

    @Test
    void aHostsOwnShaderIsCompiledFromShadersDir(@TempDir Path shaders, @TempDir Path cache) throws IOException {
        Files.writeString(shaders.resolve("host_fill.comp"), HOST_KERNEL);
        int count = 1001;
        try (Tally tally = open(cache, "shaders.live=true", "shaders.dir=" + shaders)) {
            assertEquals(shaders, tally.liveShaderDirectory(), "the directory watched for reload");
            try (ComputeKernel fill = tally.computeKernel("host_fill.comp", Map.of(), List.of(BindingType.STORAGE_BUFFER), 8);
                 GpuBuffer out = tally.createBuffer("host.values", 4L * count, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.READBACK)) {
                dispatchOnce(tally, fill, out, ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder()).putInt(0, count).putFloat(4, 0.5f));
                for (int i = 0; i < count; i++) {
                    assertEquals(i % 7 + 0.5f, MemoryUtil.memGetFloat(out.mappedAddress() + 4L * i), "value " + i);
                }
            }
            assertEquals(0, tally.diagnostics().validationMessages());
        }
    }

    /**
     * A kernel whose SPIR-V outgrows a thread's MemoryStack (64 KiB): 2048 multiply-adds in a row, each with constants of
     * its own. Its module once went to the driver from the stack, and making it failed with "Out of stack space".
     */
    private static final String LARGE_KERNEL = """
            #version 460
            layout(local_size_x = 64) in;
            layout(std430, set = 0, binding = 0) writeonly buffer Out { uint values[]; };
            layout(push_constant) uniform Push { uint count; } pc;
            #define S0(n) x = x * (((n) * 2654435761u) | 1u) + (n);
            #define S1(n) S0(2u * (n)) S0(2u * (n) + 1u)
            #define S2(n) S1(2u * (n)) S1(2u * (n) + 1u)
            #define S3(n) S2(2u * (n)) S2(2u * (n) + 1u)
            #define S4(n) S3(2u * (n)) S3(2u * (n) + 1u)
            #define S5(n) S4(2u * (n)) S4(2u * (n) + 1u)
            #define S6(n) S5(2u * (n)) S5(2u * (n) + 1u)
            #define S7(n) S6(2u * (n)) S6(2u * (n) + 1u)
            #define S8(n) S7(2u * (n)) S7(2u * (n) + 1u)
            #define S9(n) S8(2u * (n)) S8(2u * (n) + 1u)
            #define S10(n) S9(2u * (n)) S9(2u * (n) + 1u)
            #define S11(n) S10(2u * (n)) S10(2u * (n) + 1u)
            void main() {
                for (uint i = gl_GlobalInvocationID.x; i < pc.count; i += gl_NumWorkGroups.x * 64u) {
                    uint x = i;
                    S11(0u)
                    values[i] = x;
                }
            }
            """;

    /** LARGE_KERNEL's value at {@code i}, in 32-bit arithmetic. */
    private static int largeKernelValue(int i) {
        int x = i;
        for (int n = 0; n < 2048; n++) {
            x = x * ((n * (int) 2654435761L) | 1) + n;
        }
        return x;
    }

    @Test
    void aKernelWhoseSpirvOutgrowsTheStackIsMade(@TempDir Path shaders, @TempDir Path built, @TempDir Path cache) throws IOException {
        Files.writeString(shaders.resolve("host_large.comp"), LARGE_KERNEL);
        // The same source through the host's build step: its SPIR-V is the size this test is about.
        dev.tally.shader.ShaderBuild.main(new String[]{shaders.toString(), built.toString(), "host_large.comp"});
        long spirvBytes;
        try (var files = Files.walk(built)) {
            spirvBytes = files.filter(f -> f.toString().endsWith(".spv")).mapToLong(f -> f.toFile().length()).sum();
        }
        assertTrue(spirvBytes > 64 * 1024, "the kernel's SPIR-V is " + spirvBytes + " bytes: no larger than a MemoryStack");
        int count = 1000;
        try (Tally tally = open(cache, "shaders.live=true", "shaders.dir=" + shaders);
             ComputeKernel large = tally.computeKernel("host_large.comp", Map.of(), List.of(BindingType.STORAGE_BUFFER), 4);
             GpuBuffer out = tally.createBuffer("host.values", 4L * count, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.READBACK)) {
            dispatchOnce(tally, large, out, ByteBuffer.allocateDirect(4).order(ByteOrder.nativeOrder()).putInt(0, count));
            for (int i = 0; i < count; i++) {
                assertEquals(largeKernelValue(i), MemoryUtil.memGetInt(out.mappedAddress() + 4L * i), "value " + i);
            }
            assertEquals(0, tally.diagnostics().validationMessages());
        }
    }

    @Test
    void aShaderThatIsNowhereIsRefusedNamingWhereItWouldGo(@TempDir Path shaders, @TempDir Path cache) {
        try (Tally tally = open(cache, "shaders.live=true", "shaders.dir=" + shaders)) {
            ShaderCompileException missing = assertThrows(ShaderCompileException.class,
                    () -> tally.computeKernel("absent.comp", Map.of(), List.of(BindingType.STORAGE_BUFFER), 0));
            assertTrue(missing.getMessage().startsWith("absent.comp: no such shader in " + shaders), missing.getMessage());
            assertTrue(missing.getMessage().contains("shaders.dir"), missing.getMessage());
        }
        try (Tally tally = open(cache)) {
            // Without live shaders only what the build compiled exists: test_fill.comp without defines, not with one.
            ShaderCompileException notBuilt = assertThrows(ShaderCompileException.class,
                    () -> tally.computeKernel("test_fill.comp", Map.of("EXTRA", "1"), List.of(BindingType.STORAGE_BUFFER), 12));
            assertTrue(notBuilt.getMessage().startsWith("computeKernel test_fill.comp: no SPIR-V of it with these defines was built into the jars"),
                    notBuilt.getMessage());
            assertTrue(notBuilt.getMessage().contains("shaders.live=true and shaders.dir"), notBuilt.getMessage());
        }
    }

    @Test
    void aShadersDirThatIsNotADirectoryIsRefusedAtOpen(@TempDir Path cache) {
        Path absent = cache.resolve("no-such-dir");
        ConfigException e = assertThrows(ConfigException.class, () -> open(cache, "shaders.live=true", "shaders.dir=" + absent).close());
        assertEquals("key 'shaders.dir': " + absent.toAbsolutePath() + " is not a directory; give the directory holding your .comp files, or auto",
                e.getMessage());
    }
}
