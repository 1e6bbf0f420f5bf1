/**
 * Auto-exposure as frame-graph passes whose result never leaves the GPU: the histogram, its total,
 * normalization and adaptation ({@link dev.tally.exposure.AutoExposure}), the tonemap pass that reads the
 * result ({@link dev.tally.exposure.Tonemapper}), their settings, and the shaders' record layout
 * ({@link dev.tally.exposure.ExposureShaderLayout}) for hosts that read or record them.
 */
package dev.tally.exposure;
