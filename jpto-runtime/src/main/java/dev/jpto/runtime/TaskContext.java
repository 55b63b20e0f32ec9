package dev.jpto.runtime;

import dev.jpto.isa.Tensor;

/** What a running task sees: its arguments by index, and where it runs. Valid only during {@code execute}. */
public interface TaskContext {
    /** The tensor of argument {@code argIndex}: the caller's tensor, or the heap-ring buffer of an OUTPUT. */
    Tensor tensor(int argIndex);

    double scalar(int argIndex);

    int argCount();

    long taskId();

    String kernelName();

    CoreType coreType();

    /** The logical core (0-based within its core type) this task runs on. */
    int coreId();

    /** The block this run of the body is (0-based; the original's {@code get_block_idx}); 0 for one-block tasks. */
    default int blockIndex() {
        return 0;
    }

    /** The task's block count ({@code get_block_num}); 1 for one-block tasks. */
    default int blockNum() {
        return 1;
    }

    /** In a mixed task, which vector lane runs the body (0 or 1; {@code get_sub_block_id}); 0 otherwise. */
    default int subBlockIndex() {
        return 0;
    }

    /**
     * Reports the work the body did, for the {@code enable_pmu} counters (FLOPs, tensor bytes read and
     * written). Optional: a body that does not call it shows zeros; later calls add up.
     */
    default void recordWork(long flops, long bytesRead, long bytesWritten) {
    }

    /**
     * Reports the device cost of what the body did (docs/device-model.md): one block's cycles on its core and the
     * GM bytes it moved, for the run's estimated device time. Optional: a body that does not call it costs only the
     * runtime's dispatch and completion; later calls add up.
     */
    default void recordDeviceCost(long cycles, long gmBytes) {
    }

    /**
     * {@link #recordDeviceCost(long, long)} with the GM lines the body touched, for the device model's L2: the
     * sorted distinct line keys its loads read and its stores wrote, and the bytes of those loads (the parts of
     * {@code dev.jpto.runtime.device.GmFootprint}, passed apart so that this API does not depend on the model).
     */
    default void recordDeviceCost(long cycles, long gmBytes, long[] readLines, long[] writtenLines,
                                  long trackedReadBytes) {
        recordDeviceCost(cycles, gmBytes);
    }

    /** The platform of the chip the task runs on. */
    default Platform platform() {
        throw new UnsupportedOperationException("this TaskContext does not know its platform");
    }
}
