/**
 * The statistics overlay ({@link dev.tally.hud.HudOverlay}): text, the exposure histogram and the exposure
 * plot, drawn from GPU buffers over the tonemapped image.
 */
package dev.tally.hud;
