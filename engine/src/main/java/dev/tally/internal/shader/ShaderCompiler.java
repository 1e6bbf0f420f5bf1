package dev.tally.internal.shader;

import dev.tally.shader.ShaderCompileException;

import org.lwjgl.system.MemoryUtil;
import org.lwjgl.util.shaderc.ShadercIncludeResolve;
import org.lwjgl.util.shaderc.ShadercIncludeResult;
import org.lwjgl.util.shaderc.ShadercIncludeResultRelease;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.lwjgl.util.shaderc.Shaderc.*;

/**
 * GLSL to SPIR-V with shaderc, {@code #include "file"} resolved against the same sources, and an
 * on-disk SPIR-V cache keyed by the source, every file it includes and the options. Used by the build
 * ({@link PrebuildShaders}) and for live reload; shaderc is an optional dependency, so nothing loads
 * this class unless shaders are compiled at run time.
 */
public final class ShaderCompiler implements ShaderLibrary {
    private static final Pattern INCLUDE = Pattern.compile("^\\s*#\\s*include\\s+\"([^\"]+)\"", Pattern.MULTILINE);
    private final ShaderSources sources;
    private final Path cacheDir;
    private final long compiler;
    private int compiled;
    private int cacheHits;

    /** @param cacheDir where SPIR-V is cached, or null for no disk cache */
    public ShaderCompiler(ShaderSources sources, Path cacheDir) {
        this.sources = sources;
        this.cacheDir = cacheDir;
        this.compiler = shaderc_compiler_initialize();
        if (compiler == 0) {
            throw new IllegalStateException("shaderc_compiler_initialize failed");
        }
    }

    public ShaderSources sources() {
        return sources;
    }

    @Override
    public byte[] spirv(String file, Map<String, String> defines) {
        return compile(file, defines);
    }

    @Override
    public boolean provides(String file, Map<String, String> defines) {
        return true;   // compiled when asked; a missing or broken source is reported then
    }

    @Override
    public Path liveDirectory() {
        return sources.directory();
    }

    /** Compiles {@code name} with the given preprocessor macros; returns SPIR-V words as bytes. */
    public byte[] compile(String name, Map<String, String> defines) {
        Map<String, String> macros = new TreeMap<>(defines);
        String source = sources.read(name);
        String key = cacheKey(name, source, macros);
        Path cached = cacheDir == null || key == null ? null : cacheDir.resolve(key + ".spv");
        if (cached != null && Files.isRegularFile(cached)) {
            try {
                byte[] spirv = Files.readAllBytes(cached);
                if (spirv.length >= 20 && spirv.length % 4 == 0) {
                    cacheHits++;
                    return spirv;
                }
            } catch (IOException ignored) {
                // A damaged cache entry is recompiled below.
            }
        }
        byte[] spirv = compileNow(name, source, macros);
        compiled++;
        if (cached != null) {
            writeAtomically(cached, spirv);
        }
        return spirv;
    }

    private byte[] compileNow(String name, String source, Map<String, String> macros) {
        long options = shaderc_compile_options_initialize();
        ShadercIncludeResolve resolve = ShadercIncludeResolve.create((user, requested, type, requesting, depth) -> {
            String file = MemoryUtil.memUTF8(requested);
            ShadercIncludeResult result = ShadercIncludeResult.malloc();
            String text;
            String resolvedName;
            try {
                text = sources.read(file);
                resolvedName = file;
            } catch (RuntimeException e) {
                // shaderc reports an include failure as an empty source name with the message as content.
                text = "cannot include \"" + file + "\": " + e.getMessage();
                resolvedName = "";
            }
            result.source_name(MemoryUtil.memUTF8(resolvedName, false)).content(MemoryUtil.memUTF8(text, false)).user_data(0);
            return result.address();
        });
        ShadercIncludeResultRelease release = ShadercIncludeResultRelease.create((user, resultAddress) -> {
            // By address: LWJGL's getters read these as NUL-terminated, which they are not (written with their lengths), so
            // a getter would scan past the end of each allocation.
            MemoryUtil.nmemFree(MemoryUtil.memGetAddress(resultAddress + ShadercIncludeResult.SOURCE_NAME));
            MemoryUtil.nmemFree(MemoryUtil.memGetAddress(resultAddress + ShadercIncludeResult.CONTENT));
            MemoryUtil.nmemFree(resultAddress);
        });
        long result = 0;
        try {
            shaderc_compile_options_set_target_env(options, shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_3);
            shaderc_compile_options_set_target_spirv(options, shaderc_spirv_version_1_6);
            shaderc_compile_options_set_optimization_level(options, shaderc_optimization_level_performance);
            shaderc_compile_options_set_include_callbacks(options, resolve, release, 0);
            macros.forEach((k, v) -> shaderc_compile_options_add_macro_definition(options, k, v));
            result = shaderc_compile_into_spv(compiler, source, stageOf(name), name, "main", options);
            if (result == 0) {
                throw new ShaderCompileException(name + ": shaderc returned no result");
            }
            if (shaderc_result_get_compilation_status(result) != shaderc_compilation_status_success) {
                String message = shaderc_result_get_error_message(result);
                if (message == null || message.isBlank()) {
                    message = name + ": compilation failed (shaderc status " + shaderc_result_get_compilation_status(result) + ")";
                }
                throw new ShaderCompileException(message.strip());
            }
            ByteBuffer bytes = shaderc_result_get_bytes(result);
            byte[] spirv = new byte[bytes.remaining()];
            bytes.get(spirv);
            return spirv;
        } finally {
            if (result != 0) {
                shaderc_result_release(result);
            }
            shaderc_compile_options_release(options);
            resolve.free();
            release.free();
        }
    }

    /** The stage from the file extension, as glslangValidator does. */
    static int stageOf(String name) {
        if (name.endsWith(".comp")) {
            return shaderc_compute_shader;
        } else if (name.endsWith(".vert")) {
            return shaderc_vertex_shader;
        } else if (name.endsWith(".frag")) {
            return shaderc_fragment_shader;
        }
        throw new ShaderCompileException(name + ": unknown shader stage; use .comp, .vert or .frag");
    }

    /** SHA-256 over the file, everything it includes (transitively), the macros and the target. */
    String cacheKey(String name, String source, Map<String, String> macros) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(("tally-spirv-v1|vulkan1.3|spirv1.6|O|" + name + "|" + macros + "\n").getBytes(StandardCharsets.UTF_8));
            digest.update(source.getBytes(StandardCharsets.UTF_8));
            Set<String> seen = new LinkedHashSet<>();
            collectIncludes(source, seen);
            for (String include : seen) {
                digest.update(("\n--" + include + "\n").getBytes(StandardCharsets.UTF_8));
                digest.update(sources.read(include).getBytes(StandardCharsets.UTF_8));
            }
            return HexFormat.of().formatHex(digest.digest()).substring(0, 32);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        } catch (RuntimeException e) {
            // An unreadable include: no cache key; the compile itself reports the problem with its line.
            return null;
        }
    }

    private void collectIncludes(String source, Set<String> seen) {
        Matcher m = INCLUDE.matcher(source);
        while (m.find()) {
            if (seen.add(m.group(1))) {
                collectIncludes(sources.read(m.group(1)), seen);
            }
        }
    }

    private static void writeAtomically(Path target, byte[] data) {
        try {
            Files.createDirectories(target.getParent());
            Path tmp = Files.createTempFile(target.getParent(), "spv", ".tmp");
            Files.write(tmp, data);
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException ignored) {
            // The cache is an optimisation: an unwritable cache directory only costs a recompile.
        }
    }

    public int compiledCount() {
        return compiled;
    }

    public int cacheHitCount() {
        return cacheHits;
    }

    @Override
    public void close() {
        shaderc_compiler_release(compiler);
    }
}
