package dev.jpto.runtime;

/**
 * Runtime error codes (simpler's {@code pto_runtime_status.h}). Orchestrator codes are 1–99, scheduler codes
 * 100 and up; {@link #KERNEL_EXCEPTION} (a simulated kernel threw) and {@link #CANCELLED} (the host interrupted the
 * run, e.g. on Ctrl-C) are jpto additions.
 */
public enum ErrorCode {
    NONE(0, "no error"),
    SCOPE_DEADLOCK(1, "a scope holds as many tasks as its ring's task window can ever admit"),
    HEAP_RING_DEADLOCK(2, "the task allocator could not reserve the heap bytes required for another task"),
    FLOW_CONTROL_DEADLOCK(3, "the task allocator could not get a task slot: the task ring stays full"),
    DEP_POOL_OVERFLOW(4, "the dependency list pool of a ring is exhausted"),
    INVALID_ARGS(5, "invalid submit arguments or scope use (an orchestration bug)"),
    REQUIRE_SYNC_START_INVALID(7, "sync-start block count exceeds the core limit"),
    TENSOR_WAIT_TIMEOUT(8, "waiting for tensor data timed out"),
    EXPLICIT_ORCH_FATAL(9, "the orchestration reported a fatal error"),
    SCOPE_TASKS_OVERFLOW(10, "the scope task buffer is saturated"),
    TENSORMAP_OVERFLOW(11, "the TensorMap entry pool stays exhausted"),
    SCHEDULER_TIMEOUT(100, "the scheduler made no progress within the scheduler timeout"),
    ASYNC_COMPLETION_INVALID(101, "malformed async completion condition"),
    ASYNC_WAIT_OVERFLOW(102, "async wait list full"),
    ASYNC_REGISTRATION_FAILED(103, "illegal async message kind"),
    KERNEL_EXCEPTION(104, "a kernel threw an exception on a simulated core"),
    CANCELLED(105, "the host cancelled the run (the thread that called Chip.run was interrupted)");

    private final int code;
    private final String description;

    ErrorCode(int code, String description) {
        this.code = code;
        this.description = description;
    }

    public int code() {
        return code;
    }

    public String description() {
        return description;
    }

    /** Scheduler-side codes (≥ 100) latch in {@code sched_error_code}, the others in {@code orch_error_code}. */
    public boolean scheduler() {
        return code >= 100;
    }

    public static ErrorCode of(int code) {
        for (ErrorCode e : values()) {
            if (e.code == code) {
                return e;
            }
        }
        throw new IllegalArgumentException("unknown runtime error code " + code);
    }
}
