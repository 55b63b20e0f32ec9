/**
 * The golden runner ({@code jpto run}): compile, generate inputs, compute the golden, run, benchmark and
 * validate; and what run and exec share: runtime_cfg resolution, checks before the first stage, validation lines.
 */
package dev.jpto.lib.runner;
