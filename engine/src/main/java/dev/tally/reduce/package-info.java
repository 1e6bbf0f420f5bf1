/**
 * Reductions whose result stays on the GPU ({@link dev.tally.reduce.ReduceNode}) and the pass that
 * divides by such a total ({@link dev.tally.reduce.NormalizeNode}).
 */
package dev.tally.reduce;
