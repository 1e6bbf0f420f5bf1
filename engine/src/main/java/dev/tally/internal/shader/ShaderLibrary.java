package dev.tally.internal.shader;

import dev.tally.config.ConfigException;

import java.nio.file.Path;
import java.util.Map;

/**
 * Where pipelines get their SPIR-V: the variants compiled into the jar when it was built ({@link #prebuilt()},
 * no compiler at run time), or shaderc compiling the GLSL when a pipeline is made ({@link #live}, so that
 * edited shaders can be reloaded; needs lwjgl-shaderc and its natives).
 */
public interface ShaderLibrary extends AutoCloseable {
    /** The SPIR-V of {@code file} (its stage from the extension) built with {@code defines}. */
    byte[] spirv(String file, Map<String, String> defines);

    /** Whether {@link #spirv} can give {@code file} with {@code defines}: always for a compiler, only what the build listed for the jar's SPIR-V. */
    boolean provides(String file, Map<String, String> defines);

    /** The directory whose edits are compiled, to watch for live reload; null when nothing is compiled here. */
    Path liveDirectory();

    @Override
    void close();

    /** The SPIR-V built into the jars on the class path; compiles nothing. */
    static ShaderLibrary prebuilt() {
        return new PrebuiltShaders();
    }

    /**
     * Compiles with shaderc from {@code sources}, keeping SPIR-V in {@code cacheDir} (null: no disk cache). The
     * compiler's classes are loaded only here, so an application without shaderc never touches them.
     */
    static ShaderLibrary live(ShaderSources sources, Path cacheDir) {
        try {
            Class.forName("org.lwjgl.util.shaderc.Shaderc", true, ShaderLibrary.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new ConfigException("key 'shaders.live': true compiles shaders at run time and needs lwjgl-shaderc and its natives "
                    + "on the class path (" + e + "); add them, or set shaders.live=false to use the SPIR-V built into the jar");
        }
        return new ShaderCompiler(sources, cacheDir);
    }
}
