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
        try (InputStream in = PrebuiltShaders.class.getResourceAsStream("/" + resource)) {
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
        return PrebuiltShaders.class.getResource("/" + new ShaderVariant(file, defines).resource()) != null;
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
