package dev.tally.internal.shader;

import dev.tally.shader.ShaderCompileException;

import dev.tally.TestShaders;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.*;

/** The SPIR-V the build compiled into the classes, found by file and defines; needs no Vulkan device. */
class PrebuiltShadersTest {
    private static final int SPIRV_MAGIC = 0x07230203;

    @Test
    void everyListedVariantWasBuiltIntoTheClassesAsSpirv() {
        List<ShaderVariant> variants = new java.util.ArrayList<>(EngineShaders.all());
        variants.addAll(TestShaders.all());
        try (ShaderLibrary library = ShaderLibrary.prebuilt()) {
            for (ShaderVariant v : variants) {
                byte[] spirv = library.spirv(v.file(), v.defines());
                assertTrue(spirv.length >= 20 && spirv.length % 4 == 0, v + ": " + spirv.length + " bytes");
                assertEquals(SPIRV_MAGIC, ByteBuffer.wrap(spirv).order(ByteOrder.LITTLE_ENDIAN).getInt(0), v::toString);
            }
            assertNull(library.liveDirectory(), "nothing compiled, nothing to watch");
        }
    }

    @Test
    void definesPickTheVariantWhateverTheirOrder() {
        try (ShaderLibrary library = ShaderLibrary.prebuilt()) {
            byte[] twoPass = library.spirv("reduce.comp", Map.of());
            byte[] onePass = library.spirv("reduce.comp", Map.of("ONE_PASS", "1"));
            assertFalse(java.util.Arrays.equals(twoPass, onePass), "ONE_PASS builds other code");
            Map<String, String> forward = new java.util.LinkedHashMap<>();
            forward.put("TARGET_FORMAT", "rgba8");
            forward.put("ROWS_PER_INVOCATION", "4");
            Map<String, String> backward = new java.util.LinkedHashMap<>();
            backward.put("ROWS_PER_INVOCATION", "4");
            backward.put("TARGET_FORMAT", "rgba8");
            assertArrayEquals(library.spirv("tonemap.comp", forward), library.spirv("tonemap.comp", backward));
        }
    }

    @Test
    void aVariantTheBuildDidNotMakeIsAnInternalErrorNamingFileAndDefines() {
        try (ShaderLibrary library = ShaderLibrary.prebuilt()) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> library.spirv("reduce.comp", Map.of("ONE_PASS", "2")));
            assertTrue(e.getMessage().startsWith("internal: no prebuilt SPIR-V for reduce.comp {ONE_PASS=2}"), e.getMessage());
            assertTrue(e.getMessage().contains("EngineShaders"), e.getMessage());
        }
    }

    @Test
    void variantsHaveDistinctResourcesAndTheListHasNoDuplicate() {
        Set<String> resources = new HashSet<>();
        for (ShaderVariant v : EngineShaders.all()) {
            assertTrue(resources.add(v.resource()), () -> "listed twice or colliding: " + v);
        }
        assertNotEquals(ShaderVariant.of("hud.comp").resource(), ShaderVariant.of("hud.comp", "ROWS", "2").resource());
    }

    @Test
    void aFileOfNoKnownStageIsRefused() {
        ShaderCompileException e = assertThrows(ShaderCompileException.class, () -> ShaderVariant.of("common.glsl"));
        assertTrue(e.getMessage().startsWith("common.glsl: unknown shader stage"), e.getMessage());
    }
}
