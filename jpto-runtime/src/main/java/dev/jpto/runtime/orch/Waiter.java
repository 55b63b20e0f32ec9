package dev.jpto.runtime.orch;

import dev.jpto.runtime.sched.Engine;
import java.util.concurrent.locks.LockSupport;

/** The orchestrator's idle strategy while blocked: spin, yield, then park with a growing, bounded sleep. */
final class Waiter {
    private static final int SPIN = 64;
    private static final int YIELD = 192;
    private static final long MAX_PARK_NANOS = 100_000;

    final Engine.Progress progress = new Engine.Progress();
    private int spins;
    private long start;
    /** Idle calls ever made (never reset): tells a DFX hook whether a wait actually idled. */
    private long idleCalls;
    /** The chip's completed-task count at the last {@link #restartOnCompletion} (never reset). */
    private long completedSeen = -1;

    Waiter() {
        reset();
    }

    void reset() {
        spins = 0;
        start = System.nanoTime();
    }

    /** Restarts the clock (not the backoff) if the chip's completed-task count moved since the last call. */
    void restartOnCompletion(long completed) {
        if (completed != completedSeen) {
            completedSeen = completed;
            start = System.nanoTime();
        }
    }

    long elapsedNanos() {
        return System.nanoTime() - start;
    }

    long idleCalls() {
        return idleCalls;
    }

    void idle() {
        idleCalls++;
        spins++;
        if (spins < SPIN) {
            Thread.onSpinWait();
        } else if (spins < YIELD) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(Math.min(MAX_PARK_NANOS, 1_000L << Math.min(7, (spins - YIELD) >> 4)));
        }
    }
}
