package dev.tally;

import dev.tally.internal.shader.ShaderVariant;

import java.util.List;

/** The tests' own kernels (src/test/resources/tally/shaders), as engine/pom.xml lists them for ShaderBuild, which compiles them into the test classes as a host's build would. */
public final class TestShaders {
    private TestShaders() {
    }

    public static List<ShaderVariant> all() {
        return List.of(
                ShaderVariant.of("test_fill.comp"),
                ShaderVariant.of("test_accumulate.comp"),
                ShaderVariant.of("test_busy.comp"),
                ShaderVariant.of("test_frame.comp"),
                ShaderVariant.of("test_draw.vert"),
                ShaderVariant.of("test_draw.frag"));
    }
}
