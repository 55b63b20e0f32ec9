package dev.jpto.compiler.exec;

import dev.jpto.isa.kernel.Kernel;
import dev.jpto.runtime.TaskContext;

/** Runs one kernel as the body of a task: tensor parameters are task arguments 0..n−1, scalars follow. */
@FunctionalInterface
public interface KernelInvoker {
    void invoke(Kernel kernel, TaskContext task) throws Exception;

    /**
     * Whether kernels really compute their outputs. A dry run's do not, so an orchestration-time read would see
     * placeholder memory: the interpreter then takes each read at its declared bound instead (the worst case the
     * planner assumes too).
     */
    default boolean computes() {
        return true;
    }
}
