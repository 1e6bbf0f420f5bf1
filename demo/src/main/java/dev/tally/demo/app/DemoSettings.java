package dev.tally.demo.app;

import dev.tally.exposure.Metering;

import java.nio.file.Path;

/**
 * What the demo was asked to do, validated by the command line before anything starts.
 *
 * @param frames     frames to render, or -1: headless runs stop after ten seconds of scene time, windows run until closed
 * @param fixedDt    seconds of scene time per frame, or 0 for wall-clock time
 * @param screenshot PNG of the last frame, or null
 * @param hdrFormat  the scene's HDR format by name (rgba16f, b10g11r11), or null for the device's preferred one
 */
public record DemoSettings(boolean headless, long frames, int width, int height, double fixedDt, Path screenshot, Path statsJson,
                           Path graphDot, Metering metering, boolean vsync, boolean hud, String hdrFormat) {
    /** The HDR format names the demo accepts. */
    public static java.util.Set<String> hdrFormats() {
        return SceneRenderer.HDR_FORMATS.keySet();
    }
}
