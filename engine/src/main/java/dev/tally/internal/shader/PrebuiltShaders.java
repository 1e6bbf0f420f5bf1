package dev.tally.internal.shader;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;

/** SPIR-V compiled when the jar was built ({@link EngineShaders} lists it), read from the class path. */
final class PrebuiltShaders implements ShaderLibrary {
    @Override
    public byte[] spirv(String file, Map<String, String> defines) {
        ShaderVariant variant = new ShaderVariant(file, defines);
        String resource = variant.resource();
        try (InputStream in = open(resource)) {
            if (in == null) {
                throw new IllegalStateException("internal: no prebuilt SPIR-V for " + variant + " (" + resource
                        + "); every variant a pipeline asks for is listed for the build (the engine's in " + EngineShaders.class.getName() + ")");
            }
            byte[] spirv = in.readAllBytes();
            if (spirv.length < 20 || spirv.length % 4 != 0) {
                throw new IllegalStateException("internal: prebuilt SPIR-V for " + variant + " is " + spirv.length + " bytes, not a module");
            }
            return spirv;
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + resource, e);
        }
    }

    @Override
    public boolean provides(String file, Map<String, String> defines) {
        String resource = new ShaderVariant(file, defines).resource();
        return PrebuiltShaders.class.getResource("/" + resource) != null || loader().getResource(resource) != null;
    }

    /**
     * The engine's own SPIR-V from its own jar, else a host's ({@code dev.tally.shader.ShaderBuild}) from any class-path
     * root: a class in a named module finds only its module's resources by itself.
     */
    private static InputStream open(String resource) {
        InputStream own = PrebuiltShaders.class.getResourceAsStream("/" + resource);
        return own != null ? own : loader().getResourceAsStream(resource);
    }

    private static ClassLoader loader() {
        ClassLoader l = PrebuiltShaders.class.getClassLoader();
        return l != null ? l : ClassLoader.getSystemClassLoader();
    }

    @Override
    public Path liveDirectory() {
        return null;
    }

    @Override
    public void close() {
        // Holds nothing.
    }
}
