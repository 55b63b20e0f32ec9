package dev.jpto.compiler.exec;

import dev.jpto.isa.Tensor;
import dev.jpto.isa.engine.ScalarEngine;
import dev.jpto.isa.engine.TileEngine;
import dev.jpto.isa.kernel.ExecStats;
import dev.jpto.isa.kernel.Kernel;
import dev.jpto.isa.kernel.KernelExecutor;
import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.TaskContext;
import dev.jpto.runtime.device.GmFootprint;
import dev.jpto.runtime.device.HardwareSpec;
import dev.jpto.runtime.device.KernelCostRecorder;
import dev.jpto.runtime.device.TaskCost;

/**
 * Runs kernels on the tile engines, one {@link KernelExecutor} per worker thread (an executor keeps a kernel's
 * tiles, like a core's on-chip buffers, and is single-threaded); argument arrays are reused, so a task
 * allocates nothing here. One invoker belongs to one compiled program, so the tiles it keeps live as long as
 * the program does. The engine is the Vector API engine when the
 * ISA build has it ({@code dev.jpto.isa.engine.VectorEngine}), else the scalar reference engine.
 */
public final class EngineInvoker implements KernelInvoker {
    private static final String VECTOR_ENGINE = "dev.jpto.isa.engine.VectorEngine";

    /** What one worker thread keeps: its executor and argument arrays reused for every task. */
    private static final class Worker {
        final KernelExecutor executor;
        final Tensor[][] tensors = new Tensor[MAX_PARAMS + 1][];
        final double[][] scalars = new double[MAX_PARAMS + 1][];

        /** Device cost per core type, for the chip the worker last served (one thread serves one chip). */
        Platform platform;
        final KernelCostRecorder[] recorders = new KernelCostRecorder[CoreType.values().length];

        Worker(TileEngine engine) {
            executor = new KernelExecutor(engine);
            for (int n = 0; n <= MAX_PARAMS; n++) {
                tensors[n] = new Tensor[n];
                scalars[n] = new double[n];
            }
        }

        KernelCostRecorder recorder(Platform p, CoreType type) {
            if (p != platform) {
                java.util.Arrays.fill(recorders, null);
                platform = p;
            }
            KernelCostRecorder r = recorders[type.ordinal()];
            if (r == null) {
                r = new KernelCostRecorder(HardwareSpec.of(p), type);
                recorders[type.ordinal()] = r;
            }
            return r;
        }
    }

    private static final int MAX_PARAMS = 32;

    private final ThreadLocal<Worker> workers;
    private final String engineName;

    private EngineInvoker(boolean preferVector) {
        TileEngine probe = preferVector ? vectorEngine() : null;
        this.engineName = probe != null ? "vector" : "scalar";
        this.workers = ThreadLocal.withInitial(() -> {
            TileEngine e = preferVector ? vectorEngine() : null;
            return new Worker(e != null ? e : new ScalarEngine());
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
        Worker w = workers.get();
        Tensor[] tensors = nt <= MAX_PARAMS ? w.tensors[nt] : new Tensor[nt];
        double[] scalars = ns <= MAX_PARAMS ? w.scalars[ns] : new double[ns];
        for (int i = 0; i < nt; i++) {
            tensors[i] = task.tensor(i);
        }
        for (int j = 0; j < ns; j++) {
            scalars[j] = task.scalar(nt + j);
        }
        KernelCostRecorder cost = w.recorder(task.platform(), task.coreType());
        try {
            ExecStats stats = w.executor.execute(kernel, tensors, scalars, cost);
            task.recordWork(stats.flops(), stats.bytesLoaded(), stats.bytesStored()); // enable_pmu counters
            TaskCost c = cost.finish();
            GmFootprint f = c.footprint(); // the run's estimated device time, with the lines for the L2
            task.recordDeviceCost(c.cycles(), c.gmBytes(), f.readLines(), f.writtenLines(), f.trackedReadBytes());
        } finally {
            cost.finish(); // after a failure: the next task starts from a clean recorder
            java.util.Arrays.fill(tensors, null);
        }
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
