/**
 * The Java DSL: InCore kernels built op by op ({@link dev.jpto.compiler.dsl.KernelBuilder}) and programs with an
 * orchestration function ({@link dev.jpto.compiler.dsl.ProgramBuilder}, {@link dev.jpto.compiler.dsl.Orch}).
 *
 * <pre>{@code
 * import static dev.jpto.compiler.dsl.TaskArg.*;
 * import static dev.jpto.isa.DType.FP32;
 *
 * KernelBuilder k = KernelBuilder.kernel("add_tile");
 * KTensor x = k.input("x", FP32, 2), y = k.input("y", FP32, 2), z = k.output("z", FP32, 2);
 * KTile a = k.tile("a", FP32, 64, 128), b = k.tile("b", FP32, 64, 128);
 * k.load(a, x, 0, 0).load(b, y, 0, 0).add(a, a, b).store(a, z, 0, 0);
 *
 * ProgramBuilder p = ProgramBuilder.program("vector_add");
 * TensorVar xs = p.input("x", FP32, 256, 128), ys = p.input("y", FP32, 256, 128);
 * TensorVar zs = p.output("z", FP32, 256, 128);
 * KernelRef add = p.aiv(k.build());
 * p.orchestrate(o -> o.forRange("i", 4, i -> o.submit(add,
 *         in(xs.block(64, 128).at(i, 0)), in(ys.block(64, 128).at(i, 0)), outExisting(zs.block(64, 128).at(i, 0)))));
 *
 * CompiledProgram compiled = Compiler.compile(p.build(), Path.of("build/vector_add"));
 * compiled.run(Map.of("x", x, "y", y, "z", z), RunConfig.fromMap(Map.of("ring_heap", "512MiB")));
 * }</pre>
 *
 * Orchestration statements: {@code forRange} (bounds may use enclosing loop variables), {@code scope},
 * {@code alloc} (an intermediate, allocated on the heap ring by the task that passes it with {@code out}),
 * and {@code submit} with {@code in}, {@code out}, {@code inout}, {@code outExisting}, {@code noDep} and
 * {@code scalar} arguments in the kernel's parameter order.
 */
package dev.jpto.compiler.dsl;
