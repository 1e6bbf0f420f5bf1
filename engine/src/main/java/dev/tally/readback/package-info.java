/**
 * The readback ring ({@link dev.tally.readback.ReadbackRing}): GPU values handed to the CPU frames later,
 * never waiting, each {@link dev.tally.readback.Sample} with its provenance (frame, lag, age).
 */
package dev.tally.readback;
