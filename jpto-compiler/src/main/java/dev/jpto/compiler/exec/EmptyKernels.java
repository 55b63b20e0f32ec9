package dev.jpto.compiler.exec;

import dev.jpto.isa.kernel.Kernel;
import dev.jpto.runtime.TaskContext;

/**
 * The kernel body of a dry run: does nothing. The task is still submitted, its outputs reserved on the heap ring,
 * its dependencies tracked, and it is dispatched, completed and reclaimed like any other; only the tile math is
 * skipped, so its outputs hold whatever the memory held.
 */
public enum EmptyKernels implements KernelInvoker {
    INSTANCE;

    @Override
    public void invoke(Kernel kernel, TaskContext task) {
        // no tile math: a dry run measures the orchestration, not the kernels
    }

    @Override
    public boolean computes() {
        return false;
    }
}
