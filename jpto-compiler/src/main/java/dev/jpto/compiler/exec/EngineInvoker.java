package dev.jpto.compiler.exec;

import dev.jpto.isa.Tensor;
import dev.jpto.isa.engine.ScalarEngine;
import dev.jpto.isa.engine.TileEngine;
import dev.jpto.isa.kernel.Kernel;
import dev.jpto.isa.kernel.KernelExecutor;
import dev.jpto.runtime.TaskContext;

/**
 * Runs kernels on the tile engines, one {@link KernelExecutor} per worker thread (an executor keeps a kernel's
 * tiles, like a core's on-chip buffers, and is single-threaded). The engine is the Vector API engine when the
 * ISA build has it ({@code dev.jpto.isa.engine.VectorEngine}), else the scalar reference engine.
 */
public final class EngineInvoker implements KernelInvoker {
    private static final String VECTOR_ENGINE = "dev.jpto.isa.engine.VectorEngine";

    private final ThreadLocal<KernelExecutor> executors;
    private final String engineName;

    private EngineInvoker(boolean preferVector) {
        TileEngine probe = preferVector ? vectorEngine() : null;
        this.engineName = probe != null ? "vector" : "scalar";
        this.executors = ThreadLocal.withInitial(() -> {
            TileEngine e = preferVector ? vectorEngine() : null;
            return new KernelExecutor(e != null ? e : new ScalarEngine());
        });
    }

    /** The fastest engine available. */
    public static EngineInvoker best() {
        return new EngineInvoker(true);
    }

    /** The scalar reference engine (the living spec of the ISA). */
    public static EngineInvoker scalar() {
        return new EngineInvoker(false);
    }

    /** "vector" or "scalar". */
    public String engineName() {
        return engineName;
    }

    @Override
    public void invoke(Kernel kernel, TaskContext task) {
        int nt = kernel.tensors().size();
        int ns = kernel.scalarParamCount();
        Tensor[] tensors = new Tensor[nt];
        for (int i = 0; i < nt; i++) {
            tensors[i] = task.tensor(i);
        }
        double[] scalars = new double[ns];
        for (int j = 0; j < ns; j++) {
            scalars[j] = task.scalar(nt + j);
        }
        executors.get().execute(kernel, tensors, scalars);
    }

    private static TileEngine vectorEngine() {
        try {
            Class<?> c = Class.forName(VECTOR_ENGINE);
            return (TileEngine) c.getDeclaredConstructor().newInstance();
        } catch (ClassNotFoundException e) {
            return null;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(VECTOR_ENGINE + " is present but cannot be created", e);
        }
    }
}
