package dev.tally.demo.app;

import dev.tally.exposure.Metering;

import java.nio.file.Path;

/**
 * What the demo was asked to do, validated by the command line before anything starts.
 *
 * @param frames     frames to render, or -1: headless runs stop after ten seconds of scene time, windows run until closed
 * @param fixedDt    seconds of scene time per frame, or 0 for wall-clock time
 * @param screenshot PNG of the last frame, or null
 */
public record DemoSettings(boolean headless, long frames, int width, int height, double fixedDt, Path screenshot, Path statsJson,
                           Path graphDot, Metering metering, boolean vsync, boolean hud) {
}
