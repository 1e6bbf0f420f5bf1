package dev.tally.shader;

import dev.tally.internal.shader.ShaderVariant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The host's build step: each variant's SPIR-V lands where Tally's lookup reads it (file and defines, in any order),
 * SPIR-V an earlier build left that the list no longer names goes, and a malformed, repeated or broken variant is
 * refused in one line naming it. Needs shaderc, no Vulkan device.
 */
class ShaderBuildTest {
    private static final String KERNEL = """
            #version 460
            layout(local_size_x = 64) in;
            layout(std430, binding = 0) buffer Out { float v[]; } o;
            void main() { o.v[gl_GlobalInvocationID.x] = float(SCALE); }
            """;

    @Test
    void eachVariantIsWrittenWhereTheLookupReadsIt(@TempDir Path glsl, @TempDir Path out) throws IOException {
        Files.writeString(glsl.resolve("k.comp"), KERNEL);
        ShaderBuild.build(glsl, out, List.of("k.comp:SCALE=2,EXTRA=x", "k.comp:SCALE=3"));
        Path two = out.resolve(new ShaderVariant("k.comp", Map.of("EXTRA", "x", "SCALE", "2")).resource());
        Path three = out.resolve(new ShaderVariant("k.comp", Map.of("SCALE", "3")).resource());
        for (Path p : List.of(two, three)) {
            byte[] spirv = Files.readAllBytes(p);
            assertEquals(0x07230203, ByteBuffer.wrap(spirv).order(ByteOrder.LITTLE_ENDIAN).getInt(0), p::toString);
        }
        assertFalse(java.util.Arrays.equals(Files.readAllBytes(two), Files.readAllBytes(three)), "the defines build other code");
        // A later build without the first variant leaves only the second.
        ShaderBuild.build(glsl, out, List.of("k.comp:SCALE=3"));
        assertFalse(Files.exists(two), "a variant the list no longer names is removed");
        assertTrue(Files.exists(three));
    }

    @Test
    void aHostShaderNamedLikeOneOfTallysIsRefusedAndTallysOwnLiveApart(@TempDir Path glsl, @TempDir Path out) throws IOException {
        // A host's readback_gather.comp built where the engine reads its own would replace the readback rings' capture kernel.
        Files.writeString(glsl.resolve("k.comp"), KERNEL);
        for (String engine : List.of("readback_gather.comp", "normalize.comp", "reduce.comp")) {
            Files.writeString(glsl.resolve(engine), KERNEL.replace("SCALE", "1"));
            String message = assertThrows(IllegalArgumentException.class, () -> ShaderBuild.build(glsl, out, List.of("k.comp:SCALE=1", engine))).getMessage();
            assertTrue(message.startsWith("variant '" + engine + "': " + engine + " is the name of one of Tally's own shaders; give the host's shader"
                    + " a name of its own (Tally's: "), message);
            assertTrue(message.contains(engine + ",") || message.endsWith(engine + ")"), "the list names it: " + message);
        }
        assertFalse(Files.exists(out.resolve("tally")), "nothing is written for a refused list, not even its valid variant");
        // The engine's SPIR-V has a directory of its own, which a host's build never writes into.
        assertTrue(new ShaderVariant("normalize.comp", Map.of()).resource().startsWith("tally/engine-spirv/normalize.comp-"));
        assertTrue(new ShaderVariant("k.comp", Map.of()).resource().startsWith("tally/spirv/k.comp-"));
    }

    @Test
    void aMalformedOrRepeatedVariantIsRefusedNamingIt(@TempDir Path glsl, @TempDir Path out) throws IOException {
        Files.writeString(glsl.resolve("k.comp"), KERNEL);
        assertEquals("variant 'k.comp:SCALE': 'SCALE' is not NAME=VALUE",
                assertThrows(IllegalArgumentException.class, () -> ShaderBuild.build(glsl, out, List.of("k.comp:SCALE"))).getMessage());
        assertEquals("variant 'k.comp:SCALE=1,SCALE=2': SCALE is defined twice",
                assertThrows(IllegalArgumentException.class, () -> ShaderBuild.build(glsl, out, List.of("k.comp:SCALE=1,SCALE=2"))).getMessage());
        assertEquals("variant 'sub/k.comp': give a file name under GLSL_DIR, e.g. fill.comp",
                assertThrows(IllegalArgumentException.class, () -> ShaderBuild.build(glsl, out, List.of("sub/k.comp"))).getMessage());
        assertEquals("the variants given lists k.comp {SCALE=1} twice",
                assertThrows(IllegalArgumentException.class, () -> ShaderBuild.build(glsl, out, List.of("k.comp:SCALE=1", "k.comp:SCALE=1"))).getMessage());
        assertTrue(assertThrows(ShaderCompileException.class, () -> ShaderBuild.build(glsl, out, List.of("k.txt"))).getMessage()
                .startsWith("k.txt: unknown shader stage"));
        assertEquals("GLSL_DIR " + glsl.resolve("none") + " is not a directory",
                assertThrows(IllegalArgumentException.class, () -> ShaderBuild.build(glsl.resolve("none"), out, List.of("k.comp"))).getMessage());
    }

    @Test
    void aVariantThatDoesNotCompileIsNamed(@TempDir Path glsl, @TempDir Path out) throws IOException {
        Files.writeString(glsl.resolve("k.comp"), KERNEL);
        ShaderCompileException e = assertThrows(ShaderCompileException.class, () -> ShaderBuild.build(glsl, out, List.of("k.comp")));
        assertTrue(e.getMessage().startsWith("k.comp (no defines): k.comp:4: "), e.getMessage());   // SCALE undefined
        assertTrue(e.getMessage().contains("SCALE"), e.getMessage());
    }
}
