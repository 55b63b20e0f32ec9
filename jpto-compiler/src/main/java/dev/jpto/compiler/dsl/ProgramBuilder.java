package dev.jpto.compiler.dsl;

import dev.jpto.compiler.ir.CoreTypeRule;
import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.compiler.ir.TensorExpr;
import dev.jpto.compiler.ir.VerificationException;
import dev.jpto.compiler.ir.Verifier;
import dev.jpto.isa.DType;
import dev.jpto.isa.kernel.Kernel;
import dev.jpto.runtime.CoreType;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Declares a program: its inputs and outputs (supplied by the caller at run time), its kernels, and its
 * orchestration function.
 *
 * <pre>{@code
 * ProgramBuilder p = ProgramBuilder.program("vector_add");
 * TensorVar x = p.input("x", FP32, 256, 128), y = p.input("y", FP32, 256, 128);
 * TensorVar z = p.output("z", FP32, 256, 128);
 * KernelRef add = p.aiv(addTileKernel);
 * p.orchestrate(o -> o.forRange("i", 4, i ->
 *         o.submit(add, in(x.block(64, 128).at(i, 0)), in(y.block(64, 128).at(i, 0)),
 *                  outExisting(z.block(64, 128).at(i, 0)))));
 * Program program = p.build();
 * }</pre>
 *
 * Mistakes are reported where they are made, naming the caller's source line: a kernel registered for a core
 * type that cannot run it ({@link CoreTypeRule}) when it is registered, and every {@link Verifier} finding (a
 * slice or a kernel access outside its tensor, a wrong direction, ...) when the program is built.
 */
public final class ProgramBuilder {
    private final String name;
    private final List<TensorDecl> inputs = new ArrayList<>();
    private final List<TensorDecl> outputs = new ArrayList<>();
    private final List<Kernel> kernels = new ArrayList<>();
    /** Where each statement and kernel registration was written; by identity (equal records may differ). */
    private final Map<Object, SourceLine> sources = new IdentityHashMap<>();
    private Orch orch;

    private ProgramBuilder(String name) {
        this.name = name;
    }

    public static ProgramBuilder program(String name) {
        return new ProgramBuilder(name);
    }

    /** A tensor the caller supplies and the program only reads. */
    public TensorVar input(String tensorName, DType dtype, long... shape) {
        inputs.add(new TensorDecl(tensorName, dtype, shape));
        return new TensorVar(new TensorExpr.Ref(tensorName), dtype, shape);
    }

    /** A tensor the caller supplies and the program writes. */
    public TensorVar output(String tensorName, DType dtype, long... shape) {
        outputs.add(new TensorDecl(tensorName, dtype, shape));
        return new TensorVar(new TensorExpr.Ref(tensorName), dtype, shape);
    }

    /**
     * Registers a kernel whose tasks run on cores of {@code coreType}.
     *
     * @throws IllegalArgumentException when that core type cannot run the kernel (a matmul on a vector core, a
     *                                  vector-only kernel on a cube core), naming the caller's source line
     */
    public KernelRef kernel(Kernel kernel, CoreType coreType) {
        SourceLine line = SourceLine.ofCaller();
        String violation = CoreTypeRule.violation(kernel, coreType);
        if (violation != null) {
            throw new IllegalArgumentException("program " + name + ": " + violation
                    + (line == null ? "" : " (at " + line + ")"));
        }
        kernels.add(kernel);
        sources.put(kernel, line);
        return new KernelRef(this, kernel, coreType);
    }

    /** A vector-core kernel (elementwise, reductions). */
    public KernelRef aiv(Kernel kernel) {
        return kernel(kernel, CoreType.AIV);
    }

    /** A cube-core kernel (matmul). */
    public KernelRef aic(Kernel kernel) {
        return kernel(kernel, CoreType.AIC);
    }

    /** The orchestration function; called once, now, to record its statements. */
    public ProgramBuilder orchestrate(Consumer<Orch> body) {
        if (orch != null) {
            throw new IllegalStateException("program " + name + " already has an orchestration function");
        }
        orch = new Orch(this);
        body.accept(orch);
        return this;
    }

    /**
     * The program IR, verified.
     *
     * @throws VerificationException listing every {@link Verifier} finding, each with the source line of the
     *                               statement or kernel registration it is about
     */
    public Program build() {
        if (orch == null) {
            throw new IllegalStateException("program " + name + " has no orchestration function: call orchestrate(...)");
        }
        Program program = new Program(name, inputs, outputs, kernels, orch.finish());
        Verifier.verify(program, node -> {
            SourceLine line = sources.get(node);
            return line == null ? null : line.toString();
        });
        return program;
    }

    /** Records where the user wrote {@code node} (a statement of the orchestration). */
    void recordSource(Object node, SourceLine line) {
        sources.put(node, line);
    }
}
