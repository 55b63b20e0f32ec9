package dev.jpto.runtime;

import dev.jpto.isa.Tensor;

/**
 * The orchestration API. Single-threaded: only the thread running the {@link Orchestration} may call it.
 * Tasks submitted at scope depth {@code d} use ring {@code min(d, 3)}.
 */
public interface Orchestrator {
    /** Opens a nested scope; close it (try-with-resources) to release the scope's tasks. */
    Scope scope();

    /** Current depth: 0 in the root scope the executor opens around the orchestration. */
    int scopeDepth();

    /**
     * Submits a task. Dependencies are derived from the tensor arguments and their directions; OUTPUT
     * arguments are allocated on the current ring's heap. Blocks (bounded) while the ring is full.
     * The runtime keeps a reference to {@code args} until the task is reclaimed: do not modify the array.
     *
     * @return the 64-bit task id, {@code ring << 32 | local}
     * @throws ChipRuntimeException when the run failed (allocation deadlock, overflow, a failed kernel)
     */
    long submit(String kernelName, CoreType coreType, TaskBody body, Arg... args);

    /**
     * Reads one integer element at orchestration time (the original's {@code pl.read}), for data-dependent trip
     * counts such as the number of tiles routed to an expert. Waits until every task that writes the element's
     * bytes (its creator and the TensorMap's overlapping writers) has completed; the wait is bounded like every
     * orchestrator wait (a failed run, a cancel or the scheduler's stall watchdog ends it with that error).
     *
     * @throws IllegalArgumentException when {@code element} is not a one-element view of an integer tensor
     * @throws ChipRuntimeException     when the run failed while waiting
     */
    long readScalar(Tensor element);

    /** The heap-ring tensor allocated for the {@link Arg.Output} at {@code argIndex} of a live task. */
    Tensor output(long taskId, int argIndex);

    /** Ring id of a task id (bits 63..32). */
    static int ringOf(long taskId) {
        return (int) (taskId >>> 32);
    }

    /** Per-ring local id of a task id (bits 31..0). */
    static int localOf(long taskId) {
        return (int) taskId;
    }
}
