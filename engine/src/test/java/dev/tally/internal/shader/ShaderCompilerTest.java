package dev.tally.internal.shader;

import dev.tally.shader.ShaderCompileException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/** GLSL to SPIR-V through shaderc with a directory of sources; needs no Vulkan device. */
class ShaderCompilerTest {
    private static final int SPIRV_MAGIC = 0x07230203;

    /** A compute shader; {@code body} goes inside main(), which opens on line 5. */
    private static String compute(String body) {
        return "#version 460\n"                                                          // 1
                + "layout(local_size_x = 64) in;\n"                                      // 2
                + "layout(std430, binding = 0) buffer Data { float v[]; } data;\n"       // 3
                + "void main() {\n"                                                      // 4
                + body + "\n"                                                            // 5
                + "}\n";
    }

    @TempDir
    Path src;
    @TempDir
    Path cache;

    private final List<ShaderCompiler> compilers = new ArrayList<>();

    private ShaderCompiler compiler(Path cacheDir) {
        ShaderCompiler c = new ShaderCompiler(ShaderSources.directory(src), cacheDir);
        compilers.add(c);
        return c;
    }

    @AfterEach
    void release() {
        compilers.forEach(ShaderCompiler::close);
    }

    private void write(String name, String text) throws IOException {
        Files.writeString(src.resolve(name), text, StandardCharsets.UTF_8);
    }

    private static void assertSpirv(byte[] spirv) {
        assertNotNull(spirv);
        assertTrue(spirv.length >= 20 && spirv.length % 4 == 0, "SPIR-V is whole words with a header: " + spirv.length);
        int magic = ByteBuffer.wrap(spirv).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
        assertEquals(SPIRV_MAGIC, magic, () -> "magic " + Integer.toHexString(magic));
    }

    private static void assertContains(String message, String... fragments) {
        for (String f : fragments) {
            assertTrue(message.contains(f), () -> "expected \"" + f + "\" in: " + message);
        }
    }

    private long cachedFiles() throws IOException {
        if (!Files.isDirectory(cache)) {
            return 0;
        }
        try (Stream<Path> s = Files.list(cache)) {
            return s.filter(p -> p.toString().endsWith(".spv")).count();
        }
    }

    @Test
    void validComputeShaderCompilesToSpirv() throws IOException {
        write("double.comp", compute("    data.v[gl_GlobalInvocationID.x] *= 2.0;"));
        ShaderCompiler c = compiler(null);
        assertSpirv(c.compile("double.comp", Map.of()));
        assertEquals(1, c.compiledCount());
        assertEquals(0, c.cacheHitCount());
    }

    @Test
    void macrosReachThePreprocessor() throws IOException {
        write("macro.comp", compute("    data.v[gl_GlobalInvocationID.x] = SCALE;"));
        ShaderCompiler c = compiler(null);
        assertSpirv(c.compile("macro.comp", Map.of("SCALE", "3.0")));
        ShaderCompileException e = assertThrows(ShaderCompileException.class, () -> c.compile("macro.comp", Map.of()));
        assertContains(e.getMessage(), "macro.comp:5:", "SCALE");
    }

    @Test
    void errorOnLineFiveIsReportedWithFileAndLine() throws IOException {
        write("broken.comp", compute("    data.v[0] = undefinedThing;"));
        ShaderCompileException e = assertThrows(ShaderCompileException.class, () -> compiler(null).compile("broken.comp", Map.of()));
        assertContains(e.getMessage(), "broken.comp:5:", "undefinedThing");
    }

    @Test
    void errorInsideAnIncludedFileNamesTheIncludeAndItsLine() throws IOException {
        write("helper.glsl", "// helper\n"          // 1
                + "float helper(float x) {\n"        // 2
                + "    return x * notDeclared;\n"    // 3
                + "}\n");
        write("user.comp", "#version 460\n"
                + "layout(local_size_x = 64) in;\n"
                + "#include \"helper.glsl\"\n"
                + "layout(std430, binding = 0) buffer Data { float v[]; } data;\n"
                + "void main() { data.v[0] = helper(data.v[0]); }\n");
        ShaderCompileException e = assertThrows(ShaderCompileException.class, () -> compiler(cache).compile("user.comp", Map.of()));
        assertContains(e.getMessage(), "helper.glsl:3:", "notDeclared");
        assertFalse(e.getMessage().contains("user.comp:3:"), () -> "the error is in the include, not the includer: " + e.getMessage());
        assertEquals(0, cachedFiles(), "a failed compile caches nothing");
    }

    @Test
    void workingIncludeCompiles() throws IOException {
        write("ops.glsl", "float twice(float x) { return 2.0 * x; }\n");
        write("inc.comp", "#version 460\n"
                + "layout(local_size_x = 64) in;\n"
                + "#include \"ops.glsl\"\n"
                + "layout(std430, binding = 0) buffer Data { float v[]; } data;\n"
                + "void main() { data.v[gl_GlobalInvocationID.x] = twice(data.v[gl_GlobalInvocationID.x]); }\n");
        assertSpirv(compiler(null).compile("inc.comp", Map.of()));
    }

    @Test
    void missingIncludeIsAClearCompileError() throws IOException {
        write("lonely.comp", "#version 460\n"
                + "layout(local_size_x = 64) in;\n"
                + "#include \"nowhere.glsl\"\n"
                + "void main() {}\n");
        ShaderCompiler c = compiler(cache);
        ShaderCompileException e = assertThrows(ShaderCompileException.class, () -> c.compile("lonely.comp", Map.of()));
        assertContains(e.getMessage(), "lonely.comp:3:", "nowhere.glsl");
        // The compiler is still usable afterwards.
        write("fine.comp", compute("    data.v[0] = 1.0;"));
        assertSpirv(c.compile("fine.comp", Map.of()));
    }

    @Test
    void missingShaderFileIsACompileException() {
        ShaderCompileException e = assertThrows(ShaderCompileException.class, () -> compiler(null).compile("absent.comp", Map.of()));
        assertContains(e.getMessage(), "absent.comp");
    }

    @Test
    void unknownStageIsRejected() throws IOException {
        write("shader.txt", compute(""));
        ShaderCompileException e = assertThrows(ShaderCompileException.class, () -> compiler(null).compile("shader.txt", Map.of()));
        assertContains(e.getMessage(), "shader.txt", ".comp");
    }

    @Test
    void namesThatLeaveTheDirectoryAreRejected() {
        ShaderSources sources = ShaderSources.directory(src);
        assertThrows(ShaderCompileException.class, () -> sources.read("../escape.comp"));
        assertThrows(ShaderCompileException.class, () -> sources.read("/etc/passwd"));
    }

    @Test
    void sourceDirectoryMustExist() {
        assertThrows(IllegalArgumentException.class, () -> ShaderSources.directory(src.resolve("missing")));
    }

    @Test
    void secondCompileIsACacheHitWithTheSameBytes() throws IOException {
        write("cached.comp", compute("    data.v[gl_GlobalInvocationID.x] += 1.0;"));
        ShaderCompiler c = compiler(cache);
        byte[] first = c.compile("cached.comp", Map.of());
        assertEquals(0, c.cacheHitCount());
        assertEquals(1, c.compiledCount());
        assertEquals(1, cachedFiles());

        byte[] second = c.compile("cached.comp", Map.of());
        assertEquals(1, c.cacheHitCount());
        assertEquals(1, c.compiledCount(), "no recompile on a hit");
        assertArrayEquals(first, second);
    }

    @Test
    void cacheSurvivesANewCompilerInstance() throws IOException {
        write("persist.comp", compute("    data.v[gl_GlobalInvocationID.x] -= 1.0;"));
        byte[] first = compiler(cache).compile("persist.comp", Map.of());
        ShaderCompiler fresh = compiler(cache);
        assertArrayEquals(first, fresh.compile("persist.comp", Map.of()));
        assertEquals(1, fresh.cacheHitCount());
        assertEquals(0, fresh.compiledCount());
    }

    @Test
    void changingAnIncludedFileInvalidatesTheCache() throws IOException {
        write("consts.glsl", "const float K = 2.0;\n");
        write("main.comp", "#version 460\n"
                + "layout(local_size_x = 64) in;\n"
                + "#include \"consts.glsl\"\n"
                + "layout(std430, binding = 0) buffer Data { float v[]; } data;\n"
                + "void main() { data.v[gl_GlobalInvocationID.x] *= K; }\n");
        ShaderCompiler c = compiler(cache);
        byte[] before = c.compile("main.comp", Map.of());
        c.compile("main.comp", Map.of());
        assertEquals(1, c.cacheHitCount());
        assertEquals(1, c.compiledCount());

        write("consts.glsl", "const float K = 3.0;\n");
        byte[] after = c.compile("main.comp", Map.of());
        assertEquals(2, c.compiledCount(), "the include changed: recompile");
        assertEquals(1, c.cacheHitCount());
        assertFalse(java.util.Arrays.equals(before, after), "new constant, new SPIR-V");
        assertSpirv(after);

        c.compile("main.comp", Map.of());
        assertEquals(2, c.cacheHitCount(), "the new version is cached in turn");
        assertEquals(2, c.compiledCount());
    }

    @Test
    void changingTheShaderOrItsMacrosInvalidatesTheCache() throws IOException {
        write("edit.comp", compute("    data.v[0] = VALUE;"));
        ShaderCompiler c = compiler(cache);
        c.compile("edit.comp", Map.of("VALUE", "1.0"));
        c.compile("edit.comp", Map.of("VALUE", "2.0"));
        assertEquals(2, c.compiledCount(), "different macros: different key");
        assertEquals(0, c.cacheHitCount());

        write("edit.comp", compute("    data.v[1] = VALUE;"));
        c.compile("edit.comp", Map.of("VALUE", "1.0"));
        assertEquals(3, c.compiledCount(), "edited source: recompile");
        assertEquals(0, c.cacheHitCount());
    }

    @Test
    void damagedCacheEntryIsRecompiled() throws IOException {
        write("damaged.comp", compute("    data.v[0] = 4.0;"));
        byte[] good = compiler(cache).compile("damaged.comp", Map.of());
        Path entry;
        try (Stream<Path> s = Files.list(cache)) {
            entry = s.filter(p -> p.toString().endsWith(".spv")).findFirst().orElseThrow();
        }
        Files.write(entry, new byte[]{1, 2, 3}); // too short and not whole words
        ShaderCompiler c = compiler(cache);
        assertArrayEquals(good, c.compile("damaged.comp", Map.of()));
        assertEquals(1, c.compiledCount());
        assertEquals(0, c.cacheHitCount());
    }

    @Test
    void withoutACacheDirectoryNothingIsCached() throws IOException {
        write("nocache.comp", compute("    data.v[0] = 5.0;"));
        ShaderCompiler c = compiler(null);
        c.compile("nocache.comp", Map.of());
        c.compile("nocache.comp", Map.of());
        assertEquals(2, c.compiledCount());
        assertEquals(0, c.cacheHitCount());
    }

    @Test
    void packagedReductionShaderCompiles() {
        try (ShaderCompiler c = new ShaderCompiler(ShaderSources.packaged(), null)) {
            assertSpirv(c.compile("reduce.comp", Map.of()));
            assertSpirv(c.compile("reduce.comp", Map.of("ONE_PASS", "1")));
        }
    }
}
