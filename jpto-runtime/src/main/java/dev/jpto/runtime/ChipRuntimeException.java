package dev.jpto.runtime;

/**
 * A failed run. Carries the two latched codes and {@code runtime_status} (−orch code if set, else −sched code),
 * and a message that says what failed, where, and what to change. Its message starts with
 * {@code orch_error_code=N NAME - } (or {@code sched_error_code=N NAME - }).
 */
public final class ChipRuntimeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode error;
    private final int orchErrorCode;
    private final int schedErrorCode;

    public ChipRuntimeException(ErrorCode error, String detail, Throwable cause) {
        super(format(error, detail), cause);
        this.error = error;
        this.orchErrorCode = error.scheduler() ? 0 : error.code();
        this.schedErrorCode = error.scheduler() ? error.code() : 0;
    }

    public ChipRuntimeException(ErrorCode error, String detail) {
        this(error, detail, null);
    }

    private static String format(ErrorCode error, String detail) {
        String field = error.scheduler() ? "sched_error_code" : "orch_error_code";
        int status = -error.code();
        return field + "=" + error.code() + " " + error.name() + " - " + detail + " [runtime_status=" + status + "]";
    }

    public ErrorCode error() {
        return error;
    }

    public int orchErrorCode() {
        return orchErrorCode;
    }

    public int schedErrorCode() {
        return schedErrorCode;
    }

    /** {@code -orch_error_code} if set, else {@code -sched_error_code} (spec d.5). */
    public int runtimeStatus() {
        return orchErrorCode != 0 ? -orchErrorCode : -schedErrorCode;
    }
}
