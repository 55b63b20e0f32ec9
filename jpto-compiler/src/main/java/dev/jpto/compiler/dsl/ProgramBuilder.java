package dev.jpto.compiler.dsl;

import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.compiler.ir.TensorExpr;
import dev.jpto.isa.DType;
import dev.jpto.isa.kernel.Kernel;
import dev.jpto.runtime.CoreType;
import java.util.ArrayList;
import java.util.List;
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
 */
public final class ProgramBuilder {
    private final String name;
    private final List<TensorDecl> inputs = new ArrayList<>();
    private final List<TensorDecl> outputs = new ArrayList<>();
    private final List<Kernel> kernels = new ArrayList<>();
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

    /** Registers a kernel whose tasks run on cores of {@code coreType}. */
    public KernelRef kernel(Kernel kernel, CoreType coreType) {
        kernels.add(kernel);
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

    /** The program IR (not yet verified: the compiler's first pass does that). */
    public Program build() {
        if (orch == null) {
            throw new IllegalStateException("program " + name + " has no orchestration function: call orchestrate(...)");
        }
        return new Program(name, inputs, outputs, kernels, orch.finish());
    }
}
