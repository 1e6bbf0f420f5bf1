/**
 * Settings: {@link dev.tally.config.Config} reads and validates {@code key = value} layers against
 * {@link dev.tally.config.ConfigSchema}; a bad value fails with one line naming where it was set.
 */
package dev.tally.config;
