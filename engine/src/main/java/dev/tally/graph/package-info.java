/**
 * The frame graph's declaration API: passes declare what they read and write
 * ({@link dev.tally.graph.PassBuilder}, {@link dev.tally.graph.Access}) and record with what the graph
 * resolved ({@link dev.tally.graph.PassContext}); the graph culls, orders, inserts the barriers and
 * allocates the transients.
 */
package dev.tally.graph;
