/**
 * The run surfaces: everything that takes a verified program ({@code CompiledProgram}, {@code CompiledL3Program})
 * to a simulated chip. {@link dev.jpto.compiler.launch.Runner} runs once, {@link dev.jpto.compiler.launch.ChipWorker}
 * keeps a chip open, {@link dev.jpto.compiler.launch.Benchmark} times rounds, {@link dev.jpto.compiler.launch.DryRun}
 * runs with empty kernels, {@link dev.jpto.compiler.launch.DependencyCapture} records the task graph, and
 * {@link dev.jpto.compiler.launch.DistributedRunner} / {@link dev.jpto.compiler.launch.DistributedWorker} run L3
 * programs on several chips. Every surface turns its one RunConfig into the chip's CallConfig the same way
 * ({@code CallConfigs.from}, after {@code auto} ring sizes are resolved from the program's plan). The compiler's
 * root package never imports this one: compiling and loading know nothing of running.
 */
package dev.jpto.compiler.launch;
