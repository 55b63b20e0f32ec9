package dev.jpto.runtime.sched;

import dev.jpto.runtime.CoreType;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Tasks the orchestrator found ready at submit, held back and handed to the ready queues {@value #CAPACITY} at a
 * time. Publishing each one at once puts the orchestrator and a waiting scheduler thread in lock step: every
 * submit then moves the queue's cells, the spinner's flag and the producer's slot between the two cores, which
 * cost more than the submit itself (a chain of empty tasks: 0.62× the time per task with a stage of 16).
 *
 * <p>Anyone may take the staged tasks: the orchestrator when the stage is full and before anything it waits
 * for, and an idle scheduler thread before it parks, so a task staged just before the orchestration turns to
 * other work waits at most one bounded park. The protocol is the steal side of a work-stealing deque: only the
 * orchestrator adds, writing the cell at {@code bottom} and then publishing {@code bottom + 1} (no atomic); a
 * taker reads the cells {@code [top, bottom)} and claims them all by a CAS of {@code top} to {@code bottom}.
 * Both cursors only grow, and the orchestrator writes a cell only while fewer than {@value #CAPACITY} are
 * unclaimed, so a taker whose CAS succeeds read cells nobody overwrote.
 *
 * <p>Each entry is a task id with its {@link CoreType} ordinal above bit {@value #TYPE_SHIFT}:
 * publishing then need not read the task's slot to pick its queue.
 */
final class ReadyStage {
    static final int CAPACITY = 16;
    static final int TYPE_SHIFT = 48;
    static final long ID_MASK = (1L << TYPE_SHIFT) - 1;
    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    /** Indexes into {@link #cursors}: one cache line each. */
    private static final int TOP = 7;
    private static final int BOTTOM = 15;

    private final long[] cells = new long[CAPACITY];
    private final long[] cursors = new long[BOTTOM + 8];
    /** The orchestrator's own copy of {@code bottom} (it is the only writer). */
    private long bottom;

    /** Orchestrator: stages a ready task of core type {@code type}; false if the stage is full (take it first). */
    boolean tryAdd(long raw, int type) {
        long b = bottom;
        if (b - (long) LONGS.getAcquire(cursors, TOP) >= CAPACITY) {
            return false;
        }
        LONGS.setOpaque(cells, (int) b & (CAPACITY - 1), raw | (long) type << TYPE_SHIFT);
        bottom = b + 1;
        LONGS.setRelease(cursors, BOTTOM, b + 1);
        return true;
    }

    /** Orchestrator: whether {@value #CAPACITY} entries wait. */
    boolean full() {
        return bottom - (long) LONGS.getAcquire(cursors, TOP) >= CAPACITY;
    }

    /** Any thread: moves the staged entries into {@code out}; returns how many (0: none, or another took them). */
    int take(long[] out) {
        long t = (long) LONGS.getAcquire(cursors, TOP);
        long b = (long) LONGS.getAcquire(cursors, BOTTOM);
        long n = b - t;
        // More than a stage's worth: top moved on after it was read (others took, the orchestrator added), so the
        // CAS would fail anyway, and the cells may be overwritten.
        if (n <= 0 || n > CAPACITY) {
            return 0;
        }
        for (int i = 0; i < n; i++) {
            out[i] = (long) LONGS.getOpaque(cells, (int) (t + i) & (CAPACITY - 1));
        }
        return LONGS.compareAndSet(cursors, TOP, t, b) ? (int) n : 0;
    }

    /** Whether a taken entry is a task of core type AIC. */
    static boolean isAic(long entry) {
        return (int) (entry >>> TYPE_SHIFT) == CoreType.AIC.ordinal();
    }

    /** The task id of a taken entry. */
    static long idOf(long entry) {
        return entry & ID_MASK;
    }

    /** Whether anything is staged (racy: a hint for an idle thread). */
    boolean nonEmptyHint() {
        return (long) LONGS.getOpaque(cursors, BOTTOM) != (long) LONGS.getOpaque(cursors, TOP);
    }

    /** Empties the stage (between runs, no other thread active). */
    void reset() {
        bottom = 0;
        LONGS.setRelease(cursors, BOTTOM, 0L);
        LONGS.setVolatile(cursors, TOP, 0L);
    }
}
