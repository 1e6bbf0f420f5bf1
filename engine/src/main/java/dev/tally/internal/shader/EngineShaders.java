package dev.tally.internal.shader;

import dev.tally.internal.hud.ExposurePlotNode;

import dev.tally.internal.exposure.TonemapperNode;

import dev.tally.exposure.ExposureShaderLayout;
import dev.tally.exposure.ExposureShaderLayout.HdrFormat;
import dev.tally.exposure.Metering;
import dev.tally.exposure.Tonemapper;
import dev.tally.hud.ExposurePlot;

import java.util.ArrayList;
import java.util.List;

/**
 * Every SPIR-V variant the engine's pipelines ask for: the build compiles exactly these into the jar
 * ({@link PrebuildShaders}), and at run time {@link ShaderLibrary#prebuilt()} finds nothing else. A new
 * pipeline or define set is one line here; the defines come from the same methods the pipelines call.
 */
public final class EngineShaders {
    private EngineShaders() {
    }

    public static List<ShaderVariant> all() {
        List<ShaderVariant> v = new ArrayList<>();
        // Reductions (Reducer): two-pass and one-pass, and the statistics kernel's three pipelines.
        v.add(ShaderVariant.of("reduce.comp"));
        v.add(ShaderVariant.of("reduce.comp", "ONE_PASS", "1"));
        v.add(ShaderVariant.of("reduce_stats.comp"));
        v.add(ShaderVariant.of("reduce_stats.comp", "ONE_PASS", "1"));
        v.add(ShaderVariant.of("reduce_stats.comp", "ONE_PASS", "1", "LOADS", "8"));   // Reducer.SMALL_STATS_LOADS
        v.add(ShaderVariant.of("reduce_stats.comp", "STATS_FOLD", "1"));
        v.add(ShaderVariant.of("normalize.comp"));
        // Auto-exposure (AutoExposure): the fused histogram per HDR format and metering mode, reading the image as a
        // storage image or (a SAMPLED-only image, HdrRead) through a sampler, then the exposure step.
        for (HdrFormat format : HdrFormat.values()) {
            for (Metering metering : Metering.values()) {
                v.add(new ShaderVariant(ExposureShaderLayout.HISTOGRAM, ExposureShaderLayout.fusedHistogramDefines(format, metering)));
                v.add(new ShaderVariant(ExposureShaderLayout.HISTOGRAM, ExposureShaderLayout.fusedHistogramDefines(format, metering, true)));
            }
        }
        v.add(ShaderVariant.of(ExposureShaderLayout.EXPOSURE));
        // Tone mapping (Tonemapper): the fullscreen draw, and the compute path per storage format and rows per invocation.
        v.add(ShaderVariant.of(ExposureShaderLayout.TONEMAP_VERTEX));
        v.add(ShaderVariant.of(ExposureShaderLayout.TONEMAP_FRAGMENT));
        for (String qualifier : TonemapperNode.STORAGE_QUALIFIERS) {
            for (int rows : TonemapperNode.ROWS_CHOICES) {
                v.add(new ShaderVariant(TonemapperNode.TONEMAP_COMPUTE, TonemapperNode.computeDefines(qualifier, rows)));
            }
        }
        // The HUD (HudOverlay, ExposurePlot): both read the exposure record at the offsets its layout gives.
        v.add(new ShaderVariant("hud.vert", ExposurePlotNode.recordDefines()));
        v.add(new ShaderVariant("hud.frag", ExposurePlotNode.recordDefines()));
        v.add(new ShaderVariant("hud.comp", ExposurePlotNode.recordDefines()));
        v.add(new ShaderVariant("hud_plot.comp", ExposurePlotNode.recordDefines()));
        // The readback rings' captures in compute (ReadbackGather): buffer regions, and image regions per float format.
        v.add(ShaderVariant.of("readback_gather.comp"));
        for (int format : new java.util.TreeSet<>(dev.tally.internal.readback.ReadbackGather.IMAGE_DEFINES.keySet())) {
            v.add(new ShaderVariant("readback_gather.comp", dev.tally.internal.readback.ReadbackGather.IMAGE_DEFINES.get(format)));
        }
        return List.copyOf(v);
    }

    /**
     * Whether {@code file} is one of the engine's shader files: its SPIR-V lives apart from hosts' ({@link ShaderVariant#resource()}),
     * and a host's shader of the same name is refused (ShaderBuild, computeKernel) rather than built where it would be confused with it.
     */
    public static boolean isEngineShader(String file) {
        return Files.NAMES.contains(file);
    }

    /** Refuses a host's shader named like one of the engine's, in one line that lists the engine's names; {@code where} leads it. */
    public static void requireHostName(String where, String file) {
        if (isEngineShader(file)) {
            throw new IllegalArgumentException(where + file + " is the name of one of Tally's own shaders; give the host's shader a name of its own"
                    + " (Tally's: " + String.join(", ", Files.SORTED) + ")");
        }
    }

    /** The file names of {@link #all()}, worked out once (immutable). */
    private static final class Files {
        static final java.util.Set<String> NAMES = all().stream().map(ShaderVariant::file).collect(java.util.stream.Collectors.toUnmodifiableSet());
        static final java.util.List<String> SORTED = NAMES.stream().sorted().toList();
    }
}
