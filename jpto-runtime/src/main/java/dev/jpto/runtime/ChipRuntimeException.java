package dev.jpto.runtime;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

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
    /** What failed, without the ring advice; the whole detail when there is no shortfall. */
    private final String facts;
    /** The ring capacity that was too small (codes 1–4), or null. */
    private final transient RingShortfall shortfall;
    /** DFX files the failed run wrote (its trace, graph, dumps up to the failure); set by the chip after the run. */
    private transient List<Path> diagnosticFiles = List.of();

    public ChipRuntimeException(ErrorCode error, String detail, Throwable cause) {
        this(error, detail, null, cause);
    }

    /**
     * A failure on a ring capacity: the detail is {@code facts} followed by the one advice of {@code shortfall}
     * ({@link RingShortfall#advice()}).
     */
    public ChipRuntimeException(ErrorCode error, String facts, RingShortfall shortfall, Throwable cause) {
        this(error, facts, shortfall, "", cause);
    }

    private ChipRuntimeException(ErrorCode error, String facts, RingShortfall shortfall, String more,
                                 Throwable cause) {
        super(format(error, (shortfall == null ? facts : facts + "; " + shortfall.advice()) + more), cause);
        this.error = error;
        this.orchErrorCode = error.scheduler() ? 0 : error.code();
        this.schedErrorCode = error.scheduler() ? error.code() : 0;
        this.facts = facts;
        this.shortfall = shortfall;
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

    /** The ring capacity this failure found too small, if it was one. */
    public Optional<RingShortfall> shortfall() {
        return Optional.ofNullable(shortfall);
    }

    /** What failed, without the prefix, the ring advice and the status suffix. */
    public String facts() {
        return facts;
    }

    /**
     * This failure advising {@code advice} (the same field and ring, a need at least this one's) instead of its
     * own shortfall, then {@code more} (e.g. {@code "; the static ring plan …"}); it wraps this one.
     */
    public ChipRuntimeException advising(RingShortfall advice, String more) {
        return new ChipRuntimeException(error, facts, advice, more, this);
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
