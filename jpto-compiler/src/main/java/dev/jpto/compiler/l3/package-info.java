/**
 * L3, the host level above a chip: an {@link dev.jpto.compiler.l3.L3Program} orchestrates chip calls over host
 * tensors; {@code dev.jpto.compiler.launch.DistributedRunner} runs it on several simulated chips.
 */
package dev.jpto.compiler.l3;
