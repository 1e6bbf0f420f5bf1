package dev.tally;

import dev.tally.config.Config;
import dev.tally.shader.BindingType;
import dev.tally.shader.ComputeKernel;
import dev.tally.shader.ShaderCompileException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static dev.tally.shader.BindingType.SAMPLED_IMAGE;
import static dev.tally.shader.BindingType.STORAGE_BUFFER;
import static dev.tally.shader.BindingType.STORAGE_IMAGE;
import static org.junit.jupiter.api.Assertions.*;

/**
 * {@code Tally.computeKernel} holds a host's declaration against what the shader's SPIR-V uses: push constants wider
 * than {@code pushBytes}, a binding past the declared ones, or one of another kind is refused where the kernel is made
 * (and on reload, where the running pipeline stays), in one line naming the shader, the binding and both sides. Before,
 * each reached the device and only the validation layer spoke. Shaders compiled live from a temporary shaders.dir
 * (lavapipe, validation on: a kernel that is accepted must also be silent).
 */
class KernelInterfaceTest {
    @TempDir
    static Path shaders;
    @TempDir
    static Path cache;
    private static Tally tally;

    @BeforeAll
    static void open() {
        tally = Tally.open(Config.load(null, List.of("validation.enabled=true", "cache.dir=" + cache, "shaders.live=true",
                "shaders.dir=" + shaders)), List.of());
    }

    @AfterAll
    static void close() {
        tally.close();
    }

    private static String shader(String name, String declarations, String body) throws IOException {
        Files.writeString(shaders.resolve(name), "#version 460\nlayout(local_size_x = 64) in;\n" + declarations + "\nvoid main() {\n" + body + "\n}\n");
        return name;
    }

    private static String refused(String shader, List<BindingType> bindings, int pushBytes) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> tally.computeKernel(shader, Map.of(), bindings, pushBytes).close());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        return e.getMessage();
    }

    private static void accepted(String shader, List<BindingType> bindings, int pushBytes) {
        long before = tally.diagnostics().validationMessages();
        tally.computeKernel(shader, Map.of(), bindings, pushBytes).close();
        assertEquals(before, tally.diagnostics().validationMessages(), shader + ": an accepted kernel is one the device takes silently");
    }

    private static final String OUT = "layout(std430, binding = 0) buffer Out { float v[]; } o;";

    @Test
    void pushConstantsWiderThanDeclaredAreRefused() throws IOException {
        String s = shader("push12.comp", OUT + "\nlayout(push_constant) uniform P { uint n; float a; float b; } p;",
                "if (gl_GlobalInvocationID.x < p.n) o.v[gl_GlobalInvocationID.x] = p.a + p.b;");
        assertEquals("computeKernel push12.comp: the shader's push constants span 12 bytes, pushBytes declares 8", refused(s, List.of(STORAGE_BUFFER), 8));
        accepted(s, List.of(STORAGE_BUFFER), 12);
        accepted(s, List.of(STORAGE_BUFFER), 16);   // a wider range than the shader reaches is allowed
    }

    @Test
    void aPushBlockSpanIsItsLastMembersOffsetPlusSize() throws IOException {
        // std430 offsets, worked by hand: vec3 at 0 (12 bytes), float at 12, mat4 at 16 (64), uint[3] at 80 (stride 4): 92.
        String s = shader("push92.comp", OUT + "\nlayout(push_constant) uniform P { vec3 a; float b; mat4 m; uint k[3]; } p;",
                "o.v[0] = p.a.x + p.b + p.m[3][3] + float(p.k[2]);");
        assertEquals("computeKernel push92.comp: the shader's push constants span 92 bytes, pushBytes declares 88", refused(s, List.of(STORAGE_BUFFER), 88));
        accepted(s, List.of(STORAGE_BUFFER), 92);
    }

    @Test
    void aBindingPastTheDeclaredOnesIsRefused() throws IOException {
        String s = shader("twoBindings.comp", OUT + "\nlayout(binding = 1, rgba8) uniform writeonly image2D img;",
                "o.v[0] = 1.0; imageStore(img, ivec2(0), vec4(1.0));");
        assertEquals("computeKernel twoBindings.comp: the shader uses set 0 binding 1 (storage image), but 1 bindings are declared",
                refused(s, List.of(STORAGE_BUFFER), 0));
        accepted(s, List.of(STORAGE_BUFFER, STORAGE_IMAGE), 0);
    }

    @Test
    void aBindingOfAnotherKindIsRefused() throws IOException {
        String s = shader("sampled.comp", OUT + "\nlayout(binding = 1) uniform sampler2D tex;", "o.v[0] = texelFetch(tex, ivec2(0), 0).r;");
        assertEquals("computeKernel sampled.comp: set 0 binding 1 is a sampled image in the shader, declared STORAGE_IMAGE",
                refused(s, List.of(STORAGE_BUFFER, STORAGE_IMAGE), 0));
        accepted(s, List.of(STORAGE_BUFFER, SAMPLED_IMAGE), 0);
        String u = shader("uniform.comp", OUT + "\nlayout(std140, binding = 1) uniform U { float k; } u;", "o.v[0] = u.k;");
        assertEquals("computeKernel uniform.comp: set 0 binding 1 is a uniform buffer in the shader, declared STORAGE_BUFFER"
                + " (kernels bind STORAGE_BUFFER, SAMPLED_IMAGE or STORAGE_IMAGE)", refused(u, List.of(STORAGE_BUFFER, STORAGE_BUFFER), 0));
    }

    @Test
    void whatTheShaderDeclaresButNeverUsesNeedsNothing() throws IOException {
        String s = shader("unused.comp", OUT + "\nlayout(push_constant) uniform P { vec4 a[4]; } p;\nlayout(binding = 3, rgba8) uniform image2D img;",
                "o.v[0] = 2.0;");
        accepted(s, List.of(STORAGE_BUFFER), 0);
    }

    @Test
    void aReloadThatNoLongerFitsTheDeclarationKeepsTheRunningPipeline() throws IOException {
        String s = shader("reload.comp", OUT + "\nlayout(push_constant) uniform P { float a; } p;", "o.v[0] = p.a;");
        try (ComputeKernel k = tally.computeKernel(s, Map.of(), List.of(STORAGE_BUFFER), 4)) {
            shader("reload.comp", OUT + "\nlayout(push_constant) uniform P { float a; float b; } p;", "o.v[0] = p.a + p.b;");
            ShaderCompileException e = assertThrows(ShaderCompileException.class, k::reload);
            assertEquals("computeKernel reload.comp: the shader's push constants span 8 bytes, pushBytes declares 4", e.getMessage());
        }
    }
}
