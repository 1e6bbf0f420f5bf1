package dev.tally.shader;

import dev.tally.internal.shader.PrebuildShaders;
import dev.tally.internal.shader.ShaderVariant;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The build step for a host's own kernels: compiles GLSL into SPIR-V resources under a class-path root (the host
 * jar's classes), where {@code Tally.computeKernel} finds them with {@code shaders.live=false}. A shipped host then
 * needs no shader compiler at run time; only live reload does. Run it from the host's build with lwjgl-shaderc and
 * its natives on that class path:
 * <pre>{@code java -cp ... dev.tally.shader.ShaderBuild GLSL_DIR OUTPUT_DIR VARIANT...}</pre>
 * Each VARIANT is a file under GLSL_DIR, alone or with the defines {@code computeKernel} will be given:
 * {@code fill.comp} or {@code scene.comp:HDR_FORMAT=rgba16f,GROUP_SIZE=16}. Every variant a kernel asks for must be
 * listed, each once; SPIR-V an earlier build left under OUTPUT_DIR that the list no longer names is removed. A compile
 * error or a malformed variant ends the build with exit status 1 and one line naming it.
 */
public final class ShaderBuild {
    private ShaderBuild() {
    }

    /**
     * Command-line entry; exit status 1 with one line on stderr when it fails.
     *
     * @param args {@code GLSL_DIR OUTPUT_DIR VARIANT...}
     */
    public static void main(String[] args) {
        try {
            if (args.length < 3) {
                throw new IllegalArgumentException("usage: ShaderBuild GLSL_DIR OUTPUT_DIR VARIANT... (a VARIANT is file.comp or "
                        + "file.comp:NAME=VALUE,NAME=VALUE), got " + args.length + " arguments");
            }
            build(Path.of(args[0]), Path.of(args[1]), List.of(args).subList(2, args.length));
        } catch (IllegalArgumentException | ShaderCompileException | IOException e) {
            System.err.println("ShaderBuild: " + e.getMessage());
            System.exit(1);
        }
    }

    /**
     * Compiles {@code variants} from {@code glsl} into SPIR-V resources under {@code output}.
     *
     * @param glsl     the directory holding the GLSL files (and what they include)
     * @param output   a class-path root, e.g. the host's {@code target/classes}
     * @param variants each {@code file} or {@code file:NAME=VALUE,...}
     * @throws IllegalArgumentException a malformed or repeated variant, one named like a shader of Tally's own, or a GLSL directory that is not one
     * @throws ShaderCompileException   a variant that does not compile
     * @throws IOException              the output could not be written
     */
    public static void build(Path glsl, Path output, List<String> variants) throws IOException {
        if (!Files.isDirectory(glsl)) {
            throw new IllegalArgumentException("GLSL_DIR " + glsl + " is not a directory");
        }
        List<ShaderVariant> parsed = new ArrayList<>();
        for (String v : variants) {
            parsed.add(parse(v));
        }
        PrebuildShaders.build("the variants given", parsed, glsl, output);
    }

    private static ShaderVariant parse(String variant) {
        int colon = variant.indexOf(':');
        String file = colon < 0 ? variant : variant.substring(0, colon);
        if (file.isEmpty() || file.contains("/") || file.contains("\\")) {
            throw new IllegalArgumentException("variant '" + variant + "': give a file name under GLSL_DIR, e.g. fill.comp");
        }
        dev.tally.internal.shader.EngineShaders.requireHostName("variant '" + variant + "': ", file);
        Map<String, String> defines = new TreeMap<>();
        if (colon >= 0) {
            for (String pair : variant.substring(colon + 1).split(",", -1)) {
                int eq = pair.indexOf('=');
                if (eq <= 0 || eq == pair.length() - 1) {
                    throw new IllegalArgumentException("variant '" + variant + "': '" + pair + "' is not NAME=VALUE");
                }
                if (defines.put(pair.substring(0, eq), pair.substring(eq + 1)) != null) {
                    throw new IllegalArgumentException("variant '" + variant + "': " + pair.substring(0, eq) + " is defined twice");
                }
            }
        }
        return new ShaderVariant(file, defines);
    }
}
