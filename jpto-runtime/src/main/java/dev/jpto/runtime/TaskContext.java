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
}
