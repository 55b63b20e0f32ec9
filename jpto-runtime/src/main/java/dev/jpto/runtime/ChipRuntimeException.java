package dev.jpto.runtime;

import java.nio.file.Path;
import java.util.List;

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
    /** DFX files the failed run wrote (its trace, graph, dumps up to the failure); set by the chip after the run. */
    private transient List<Path> diagnosticFiles = List.of();

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

    /**
     * The diagnostic files the failed run wrote, in the order written; empty when none was on. An exception that
     * wraps the chip's (adding advice or the chip's name) reports the files of the one it wraps.
     */
    public List<Path> diagnosticFiles() {
        if (diagnosticFiles != null && !diagnosticFiles.isEmpty()) {
            return diagnosticFiles;
        }
        return getCause() instanceof ChipRuntimeException wrapped ? wrapped.diagnosticFiles() : List.of();
    }

    /** Records the diagnostic files the failed run wrote (the chip does, once they are written); returns this. */
    public ChipRuntimeException withDiagnosticFiles(List<Path> files) {
        diagnosticFiles = List.copyOf(files);
        return this;
    }

    /** {@code -orch_error_code} if set, else {@code -sched_error_code} (spec d.5). */
    public int runtimeStatus() {
        return orchErrorCode != 0 ? -orchErrorCode : -schedErrorCode;
    }
}
