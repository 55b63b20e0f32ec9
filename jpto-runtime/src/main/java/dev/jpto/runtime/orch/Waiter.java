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

    Waiter() {
        reset();
    }

    void reset() {
        spins = 0;
        start = System.nanoTime();
    }

    long elapsedNanos() {
        return System.nanoTime() - start;
    }

    void idle() {
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
