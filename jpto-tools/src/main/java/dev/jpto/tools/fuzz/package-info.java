/**
 * The fuzzer ({@code jpto fuzz}): random programs on random ring sizes, platforms and thread counts, each
 * compared with a sequential reference executor, findings shrunk to a reproducer.
 */
package dev.jpto.tools.fuzz;
