/**
 * The {@code jpto} command: one picocli subcommand per verb, and the mapping of outcomes to exit codes.
 */
package dev.jpto.cli;
