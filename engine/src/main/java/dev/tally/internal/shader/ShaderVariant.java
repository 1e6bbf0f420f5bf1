package dev.tally.internal.shader;

import dev.tally.shader.ShaderCompileException;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

/**
 * One SPIR-V module a pipeline asks for: a GLSL file (its stage from the extension) and the preprocessor
 * defines it is built with. Its {@link #resource()} is where the build puts it in the jar.
 */
public record ShaderVariant(String file, Map<String, String> defines) {
    /** Where a host's build (ShaderBuild) puts its SPIR-V on its class path. */
    static final String DIRECTORY = "tally/spirv/";
    /**
     * Where the engine's build puts the engine's own SPIR-V: apart from hosts', so that a host's class path (which a build
     * tool puts before the engine's jar) can never hold a module the engine would read for one of its own.
     */
    static final String ENGINE_DIRECTORY = "tally/engine-spirv/";

    public ShaderVariant {
        stage(file);
        defines = java.util.Collections.unmodifiableMap(new TreeMap<>(defines));
    }

    /** {@code file} with defines given as name, value, name, value... */
    public static ShaderVariant of(String file, String... nameValue) {
        if (nameValue.length % 2 != 0) {
            throw new IllegalArgumentException("internal: " + file + ": defines come in name, value pairs, got " + nameValue.length + " strings");
        }
        Map<String, String> defines = new TreeMap<>();
        for (int i = 0; i < nameValue.length; i += 2) {
            defines.put(nameValue[i], nameValue[i + 1]);
        }
        return new ShaderVariant(file, defines);
    }

    /** "comp", "vert" or "frag". */
    public String stage() {
        return stage(file);
    }

    private static String stage(String file) {
        for (String s : new String[] {"comp", "vert", "frag"}) {
            if (file.endsWith("." + s)) {
                return s;
            }
        }
        throw new ShaderCompileException(file + ": unknown shader stage; use .comp, .vert or .frag");
    }

    /**
     * The class-path resource holding this variant's SPIR-V: the file's name and a digest of stage and defines, under
     * {@link #ENGINE_DIRECTORY} for the engine's own shaders and {@link #DIRECTORY} for a host's.
     */
    public String resource() {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            byte[] hash = digest.digest((file + "|" + stage() + "|" + defines).getBytes(StandardCharsets.UTF_8));
            return (EngineShaders.isEngineShader(file) ? ENGINE_DIRECTORY : DIRECTORY) + file + "-" + HexFormat.of().formatHex(hash, 0, 8) + ".spv";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("internal: no SHA-256 in this JDK", e);
        }
    }

    @Override
    public String toString() {
        return file + (defines.isEmpty() ? " (no defines)" : " " + defines);
    }
}
