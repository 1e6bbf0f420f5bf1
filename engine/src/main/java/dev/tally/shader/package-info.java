/**
 * The host's own compute kernels for its passes ({@link dev.tally.shader.ComputeKernel}, made by
 * {@code Tally.computeKernel}), their bindings, and the error a live shader edit reports.
 */
package dev.tally.shader;
