package dev.tally.internal.exposure;

import dev.tally.exposure.ExposureCurve;

import dev.tally.exposure.ExposureMode;

import dev.tally.exposure.Metering;

import dev.tally.exposure.ExposureShaderLayout;

import dev.tally.internal.shader.ShaderCompiler;
import dev.tally.internal.shader.ShaderSources;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Compiles every auto-exposure shader, in every define variant, with the project's shaderc setup
 * (Vulkan 1.3, SPIR-V 1.6), and checks the GLSL constants against the Java ones. No GPU needed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExposureShadersCompileTest {
    private ShaderCompiler compiler;
    private Path shaderDir;

    static Path shaderDirectory() {
        // Maven runs tests in engine/; an IDE may run them from the repository root.
        for (Path candidate : List.of(Path.of("shaders"), Path.of("../shaders"))) {
            if (Files.isRegularFile(candidate.resolve(ExposureShaderLayout.COMMON))) {
                return candidate;
            }
        }
        throw new IllegalStateException("cannot find shaders/ from " + Path.of("").toAbsolutePath());
    }

    @BeforeAll
    void open() {
        shaderDir = shaderDirectory();
        compiler = new ShaderCompiler(ShaderSources.directory(shaderDir), null);
    }

    @AfterAll
    void close() {
        compiler.close();
    }

    static Stream<Arguments> variants() {
        List<Arguments> all = new ArrayList<>();
        for (ExposureShaderLayout.HdrFormat format : ExposureShaderLayout.HdrFormat.values()) {
            for (Metering metering : Metering.values()) {
                all.add(Arguments.of(ExposureShaderLayout.HISTOGRAM, ExposureShaderLayout.histogramDefines(format, metering)));
                all.add(Arguments.of(ExposureShaderLayout.HISTOGRAM, ExposureShaderLayout.fusedHistogramDefines(format, metering, true)));
            }
        }
        all.add(Arguments.of(ExposureShaderLayout.HISTOGRAM, Map.of()));   // the defaults: rgba16f, uniform
        all.add(Arguments.of(ExposureShaderLayout.HISTOGRAM, ExposureShaderLayout.resolveDefines()));
        all.add(Arguments.of(ExposureShaderLayout.NORMALIZE, Map.of()));
        all.add(Arguments.of(ExposureShaderLayout.EXPOSURE, Map.of()));
        all.add(Arguments.of(ExposureShaderLayout.TONEMAP_VERTEX, Map.of()));
        all.add(Arguments.of(ExposureShaderLayout.TONEMAP_FRAGMENT, Map.of()));
        return all.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("variants")
    void compiles(String shader, Map<String, String> defines) {
        byte[] spirv = compiler.compile(shader, defines);
        assertTrue(spirv.length > 20 && spirv.length % 4 == 0, "SPIR-V size " + spirv.length);
        ByteBuffer words = ByteBuffer.wrap(spirv).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(0x07230203, words.getInt(0), "SPIR-V magic");
        assertEquals(0x00010600, words.getInt(4), "SPIR-V 1.6");
    }

    @Test
    void anUnknownMeteringModeIsACompileError() {
        Exception e = assertThrows(RuntimeException.class,
                () -> compiler.compile(ExposureShaderLayout.HISTOGRAM, Map.of("METERING", "7")));
        assertTrue(e.getMessage().contains("METERING"), e.getMessage());
    }

    private static final Pattern DEFINE = Pattern.compile("^#define\\s+(\\w+)\\s+([^\\s/]+)", Pattern.MULTILINE);

    @Test
    void glslConstantsMatchTheJavaOnes() throws Exception {
        Map<String, String> glsl = new java.util.HashMap<>();
        Matcher m = DEFINE.matcher(Files.readString(shaderDir.resolve(ExposureShaderLayout.COMMON)));
        while (m.find()) {
            glsl.put(m.group(1), m.group(2));
        }
        assertEquals(String.valueOf(ExposureModel.BINS), glsl.get("HISTOGRAM_BINS"));
        assertEquals(String.valueOf(ExposureModel.RANGE_BINS), glsl.get("HISTOGRAM_RANGE_BINS"));
        assertEquals(ExposureModel.WEIGHT_ONE + "u", glsl.get("WEIGHT_ONE"));
        assertEquals((float) ExposureModel.WEIGHT_ONE, Float.parseFloat(glsl.get("WEIGHT_SCALE")));
        assertEquals(ExposureModel.CENTRE_WEIGHT_FLOOR, Float.parseFloat(glsl.get("CENTRE_WEIGHT_FLOOR")));
        for (Metering metering : Metering.values()) {
            assertEquals(String.valueOf(metering.define()), glsl.get("METERING_" + metering.name()), metering.name());
        }
        assertEquals(String.valueOf(ExposureShaderLayout.NORMALIZED_VALID), glsl.get("NORMALIZED_VALID"));
        assertEquals(String.valueOf(ExposureShaderLayout.NORMALIZED_FLOATS), glsl.get("NORMALIZED_FLOATS"));
        Map<String, Integer> record = Map.of("EXPOSURE_EV", ExposureShaderLayout.EV,
                "EXPOSURE_MULTIPLIER", ExposureShaderLayout.MULTIPLIER,
                "EXPOSURE_MEAN_LOG_LUM", ExposureShaderLayout.MEAN_LOG_LUM,
                "EXPOSURE_VALID", ExposureShaderLayout.VALID,
                "EXPOSURE_LOW_EV", ExposureShaderLayout.LOW_EV,
                "EXPOSURE_HIGH_EV", ExposureShaderLayout.HIGH_EV,
                "EXPOSURE_TARGET_EV", ExposureShaderLayout.TARGET_EV,
                "EXPOSURE_MEASURED", ExposureShaderLayout.MEASURED,
                "EXPOSURE_FLOATS", ExposureShaderLayout.EXPOSURE_FLOATS);
        record.forEach((name, value) -> assertEquals(String.valueOf(value), glsl.get(name), name));
        Map<String, Integer> more = Map.ofEntries(Map.entry("EXPOSURE_CLAMP_HIT", ExposureShaderLayout.CLAMP_HIT),
                Map.entry("EXPOSURE_CURVE_EV", ExposureShaderLayout.CURVE_EV),
                Map.entry("EXPOSURE_PHASE", ExposureShaderLayout.PHASE),
                Map.entry("EXPOSURE_SCENE_EV", ExposureShaderLayout.SCENE_EV),
                Map.entry("PHASE_SNAP", ExposureShaderLayout.PHASE_SNAP),
                Map.entry("PHASE_LINEAR", ExposureShaderLayout.PHASE_LINEAR),
                Map.entry("PHASE_EXPONENTIAL", ExposureShaderLayout.PHASE_EXPONENTIAL),
                Map.entry("PHASE_HOLDING", ExposureShaderLayout.PHASE_HOLDING),
                Map.entry("MODE_AUTO", ExposureMode.AUTO.code()),
                Map.entry("MODE_MANUAL", ExposureMode.MANUAL.code()),
                Map.entry("MODE_PHYSICAL", ExposureMode.PHYSICAL.code()),
                Map.entry("CURVE_HEADER_FLOATS", ExposureCurve.HEADER_FLOATS),
                Map.entry("CURVE_SAMPLES", ExposureCurve.SAMPLES),
                Map.entry("CURVE_TABLE_FLOATS", ExposureShaderLayout.CURVE_TABLE_FLOATS));
        more.forEach((name, value) -> assertEquals(String.valueOf(value), glsl.get(name), name));
    }

    @Test
    void pushConstantBlocksHaveTheSizesJavaPacks() throws Exception {
        assertEquals(ExposureShaderLayout.HISTOGRAM_PUSH_BYTES, 4 * pushMembers(ExposureShaderLayout.HISTOGRAM));
        assertEquals(ExposureShaderLayout.EXPOSURE_PUSH_BYTES, 4 * pushMembers(ExposureShaderLayout.EXPOSURE));
        assertEquals(ExposureShaderLayout.NORMALIZE_PUSH_BYTES, 4 * pushMembers(ExposureShaderLayout.NORMALIZE));
    }

    /** Members of the (all 32-bit scalar) push-constant block, counted in the source. */
    private int pushMembers(String shader) throws Exception {
        String source = Files.readString(shaderDir.resolve(shader));
        int open = source.indexOf("layout(push_constant)");
        assertTrue(open >= 0, shader + " has no push-constant block");
        String block = source.substring(source.indexOf('{', open) + 1, source.indexOf('}', open));
        Matcher member = Pattern.compile("^\\s*(float|uint|int)\\s+\\w+;", Pattern.MULTILINE).matcher(block);
        int n = 0;
        while (member.find()) {
            n++;
        }
        assertEquals(n, block.split(";").length - 1, shader + ": only 32-bit scalar members expected");
        return n;
    }
}
