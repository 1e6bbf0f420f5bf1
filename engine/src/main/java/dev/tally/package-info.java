/**
 * The entry point and the frame: {@link dev.tally.Tally} opens a device of its own or wraps a renderer's,
 * makes the nodes, rings, buffers and images, and begins each {@link dev.tally.Frame}, which the renderer
 * records into its own command buffer and submits with Tally's timeline signal added.
 */
package dev.tally;
