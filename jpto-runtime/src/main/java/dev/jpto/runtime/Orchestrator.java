package dev.jpto.runtime;

import dev.jpto.isa.Tensor;

/**
 * The orchestration API. Single-threaded: only the thread running the {@link Orchestration} may call it.
 * Tasks submitted at scope depth {@code d} use ring {@code min(d, 3)}.
 */
public interface Orchestrator {
    /** Opens a nested scope; close it (try-with-resources) to release the scope's tasks. */
    Scope scope();

    /**
     * Opens a nested manual scope: its tasks get no dependency from their tensor arguments (no creator edge, no
     * TensorMap lookup or registration), only the explicit ones in their {@link Launch#deps}. A {@link #scope()}
     * opened inside it fails with code 5; manual scopes nest.
     */
    Scope manualScope();

    /** Kind of the innermost open scope (the root scope is AUTO). */
    ScopeKind scopeKind();

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
     * Submits a task with a {@link Launch}: {@code launch.blockNum()} blocks of {@code body} on cores of
     * {@code coreType} (one task slot, one set of edges; complete when its last block finished), after the explicit
     * dependencies {@code launch.deps()} (WAIT|RETAIN edges; retired producers are skipped).
     *
     * @throws ChipRuntimeException code 5 when a dependency is not the id of a task submitted earlier in this run;
     *                              code 7 when {@code requireSyncStart} asks for more blocks than cores of the type
     */
    long submit(Launch launch, String kernelName, CoreType coreType, TaskBody body, Arg... args);

    /**
     * Submits a mixed task: per block, the active lanes of {@code kernels} (AIC, AIV0, AIV1) run on one cluster
     * (one cube core and its two vector cores). Dependencies and block count as in
     * {@link #submit(Launch, String, CoreType, TaskBody, Arg...)}; code 7 compares a sync-start block count with
     * the cluster count.
     */
    long submitMixed(Launch launch, MixedKernels kernels, Arg... args);

    /**
     * Allocates heap-ring buffers for later tasks without a kernel (the original's {@code alloc_tensors}): a task
     * that completes at submit, whose {@link Arg.Output}s are read with {@link #output}. In an AUTO scope their
     * consumers find it through creator edges; in a MANUAL scope name it in {@link Launch#deps}.
     *
     * @return the allocation task's id
     * @throws ChipRuntimeException code 5 when no output is given
     */
    long allocTensors(Arg.Output... outputs);

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

    /**
     * Writes one integer element at orchestration time (the original's {@code set_tensor_data}): waits (bounded,
     * like {@link #readScalar}) until every live task that writes or reads the element's buffer has completed, then
     * stores {@code value}. Tasks submitted afterwards see the new value.
     *
     * @throws IllegalArgumentException when {@code element} is not a one-element view of an integer tensor
     * @throws ChipRuntimeException     when the run failed while waiting
     */
    void writeScalar(Tensor element, long value);

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
