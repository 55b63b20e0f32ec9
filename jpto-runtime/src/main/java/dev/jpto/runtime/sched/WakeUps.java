package dev.jpto.runtime.sched;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * Who of the idle scheduler threads spins and who parks, and whom a push wakes. At most one thread spins on
 * the empty ready queues at a time: it takes the next push at once, with no wake-up; more spinners would only
 * take CPU from the orchestrator. A push wakes a parked thread only when nobody spins.
 *
 * <p>No wake-up is lost: a pusher publishes its task, fences, then reads {@code spinning} and {@code parked};
 * an idle thread publishes its {@code spinning}/{@code parked} change with a volatile write, then polls the
 * queues again before it parks (a Dekker pair). Parks are bounded besides, so a missed wake-up could only delay.
 *
 * <p>The counters sit on separate cache lines: {@code spinning} changes on every idle episode, {@code parked}
 * only on parks.
 */
final class WakeUps {
    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final int STRIDE = 16;
    private static final int SPINNING = 7;
    private static final int PARKED = SPINNING + STRIDE;
    private static final int FLAGS = PARKED + STRIDE;

    /** {@code spinning}, {@code parked}, then one parked flag per thread, each on its own line. */
    private final long[] cells;
    private final Thread[] threads;

    WakeUps(Thread[] threads) {
        this.threads = threads;
        this.cells = new long[FLAGS + (threads.length + 1) * STRIDE];
    }

    /** Becomes the spinner if there is none; false means: park instead. */
    boolean trySpin() {
        return (long) LONGS.getVolatile(cells, SPINNING) == 0L && LONGS.compareAndSet(cells, SPINNING, 0L, 1L);
    }

    /** The spinner stops spinning (it found a task, or gives up and will announce its park). */
    void endSpin() {
        LONGS.getAndAdd(cells, SPINNING, -1L);
    }

    /** A thread about to park publishes its flag; it must poll the queues once more before parking. */
    void announcePark(int thread) {
        LONGS.getAndAdd(cells, PARKED, 1L);
        LONGS.setVolatile(cells, FLAGS + thread * STRIDE, 1L);
    }

    void parkDone(int thread) {
        LONGS.setVolatile(cells, FLAGS + thread * STRIDE, 0L);
        LONGS.getAndAdd(cells, PARKED, -1L);
    }

    /** Whether {@code thread} announced a park and no push has woken it yet. */
    boolean isFlagged(int thread) {
        return (long) LONGS.getVolatile(cells, FLAGS + thread * STRIDE) == 1L;
    }

    /**
     * After tasks were queued: wakes up to {@code n} parked threads while nobody spins. The caller's queue
     * write must precede this (the fence here orders it before the reads of the counters).
     */
    void signal(int n) {
        VarHandle.fullFence();
        for (int i = 0; i < n; i++) {
            if ((long) LONGS.getVolatile(cells, PARKED) == 0L || (long) LONGS.getVolatile(cells, SPINNING) != 0L
                    || !wakeOne()) {
                return;
            }
        }
    }

    private boolean wakeOne() {
        for (int t = 0; t < threads.length; t++) {
            int i = FLAGS + t * STRIDE;
            if ((long) LONGS.getVolatile(cells, i) == 1L && LONGS.compareAndSet(cells, i, 1L, 0L)) {
                LockSupport.unpark(threads[t]);
                return true;
            }
        }
        return false;
    }
}
