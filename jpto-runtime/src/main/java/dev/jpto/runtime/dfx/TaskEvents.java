package dev.jpto.runtime.dfx;

import dev.jpto.isa.Tensor;
import dev.jpto.runtime.Arg;
import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.ErrorCode;
import dev.jpto.runtime.ScopeKind;
import dev.jpto.runtime.TaskContext;

/**
 * What the runtime reports to the DFX writers while a run is in flight. The orchestrator and the engine hold a
 * {@code TaskEvents} field that is {@code null} unless a DFX output other than scope statistics is on, so with
 * DFX off each call site costs one predictable null test and allocates nothing.
 *
 * <p>Threads: {@link #submitted}, {@link #edge}, {@link #backPressure} and {@link #submitDone} run on the orchestrator
 * thread;
 * {@link #dispatchStart} and {@link #dispatchEnd} on the scheduler thread that runs the task, the pair
 * bracketing the kernel body. A task's {@code submitted} and its edges happen-before its dispatch (the ready
 * queue publishes them).
 */
public interface TaskEvents {
    /** Edge source: the consumer reads a buffer the runtime allocated for the producer (creator/retain edge). */
    int SOURCE_CREATOR = 0;
    /** Edge source: the TensorMap found the producer as an earlier overlapping writer. */
    int SOURCE_TENSORMAP = 1;
    /** Edge source: the consumer named the producer in its {@code Launch.deps} (argument index −1). */
    int SOURCE_EXPLICIT = 2;

    /** Back-pressure resources. */
    int RES_TASK_WINDOW = 0;
    int RES_HEAP = 1;
    int RES_DEP_POOL = 2;
    int RES_TENSORMAP = 3;
    int RES_FANIN_POOL = 4;

    /**
     * A task got its slot and its OUTPUT buffers, before its dependencies are looked up.
     *
     * @param scope      kind of the scope it was submitted in
     * @param blockNum   its block count (1 for a one-block task)
     * @param syncStart  whether all its blocks must start together ({@code require_sync_start})
     * @param activeMask the lanes of a mixed task ({@code MixedKernels.activeMask}), 0 for a single-kernel task
     * @param outputs the heap-ring tensor of each {@link Arg.Output} by argument index (other entries null);
     *        may be null when the task has no outputs. Valid only during the call.
     */
    void submitted(long taskId, String kernel, CoreType type, int scopeDepth, ScopeKind scope, int blockNum,
                   boolean syncStart, int activeMask, Arg[] args, Tensor[] outputs);

    /**
     * A dependency found while submitting {@code succ}, before producers are de-duplicated: one call per
     * (argument, producer) match.
     *
     * @param flags {@code Ring.EDGE_WAIT}/{@code Ring.EDGE_RETAIN} bits of the edge
     * @param overlap {@code Overlap.COVERED}/{@code Overlap.OTHER} for TensorMap edges, −1 for creator edges
     */
    void edge(long pred, long succ, int argIndex, int source, long flags, int overlap);

    /** The submit of {@code taskId} returned: it began at {@code startNanos} (back-pressure waits included). */
    void submitDone(long taskId, long startNanos, long endNanos);

    /**
     * A submit of {@code kernel} failed with {@code error} (the run ends): it began at {@code startNanos}; any
     * wait it was in is reported by {@link #backPressure} as well.
     */
    void submitFailed(String kernel, long startNanos, long endNanos, ErrorCode error);

    /** The orchestrator waited for {@code resource} of {@code ring} (one of the {@code RES_} constants). */
    void backPressure(int ring, int resource, long startNanos, long endNanos);

    /** The kernel body of {@code taskId} is about to run; {@code task} is its context (arguments readable). */
    void dispatchStart(long taskId, int thread, CoreType type, int core, Arg[] args, TaskContext task);

    /**
     * The kernel body returned normally; completion (and so any consumer) has not started yet. Counters are
     * those the body reported through {@link TaskContext#recordWork}, zero otherwise; {@code deviceCycles} is the
     * device cost it reported through {@link TaskContext#recordDeviceCost}, zero otherwise.
     */
    void dispatchEnd(long taskId, int thread, CoreType type, int core, Arg[] args, TaskContext task,
                     long startNanos, long endNanos, long flops, long bytesRead, long bytesWritten, long deviceCycles);
}
