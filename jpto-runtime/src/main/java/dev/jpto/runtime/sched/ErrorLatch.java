package dev.jpto.runtime.sched;

import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.ErrorCode;
import dev.jpto.runtime.RingShortfall;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** First-writer-wins run error (simpler's CAS on {@code orch_error_code} / {@code sched_error_code}). */
public final class ErrorLatch {
    private static final VarHandle FIRST;

    static {
        try {
            FIRST = MethodHandles.lookup().findVarHandle(ErrorLatch.class, "first", ChipRuntimeException.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through FIRST
    private volatile ChipRuntimeException first;

    /** Latches {@code e} unless an error is already latched; returns the error in force. */
    public ChipRuntimeException latch(ChipRuntimeException e) {
        ChipRuntimeException witness = (ChipRuntimeException) FIRST.compareAndExchange(this, null, e);
        return witness == null ? e : witness;
    }

    /** Latches a new error (unless one is already latched); returns the error in force. */
    public ChipRuntimeException fail(ErrorCode code, String detail, Throwable cause) {
        return latch(new ChipRuntimeException(code, detail, cause));
    }

    /** Latches a failure on a ring capacity ({@code facts}, then its advice); returns the error in force. */
    public ChipRuntimeException failOnRing(ErrorCode code, String facts, RingShortfall shortfall) {
        return latch(new ChipRuntimeException(code, facts, shortfall, null));
    }

    /**
     * The error to throw on a thread that found the run failed: the latched one, else {@code e} latched, else
     * (no error at all) a "run aborted" error.
     */
    public ChipRuntimeException inForce(ChipRuntimeException e) {
        ChipRuntimeException latched = first;
        if (latched != null) {
            return latched;
        }
        return e == null ? new ChipRuntimeException(ErrorCode.SCHEDULER_TIMEOUT, "run aborted") : latch(e);
    }

    /** Clears the latch for the next run (no run is active). */
    public void reset() {
        FIRST.setVolatile(this, (ChipRuntimeException) null);
    }

    public ChipRuntimeException get() {
        return first;
    }

    public boolean failed() {
        return first != null;
    }
}
