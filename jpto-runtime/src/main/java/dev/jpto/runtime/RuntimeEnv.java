package dev.jpto.runtime;

import java.util.Arrays;

/**
 * Per-ring sizes (simpler's {@code CallConfig.runtime_env}): four entries per resource, one per ring; 0 keeps
 * the compile default of that ring. Rules (spec b.1): task window a power of two in [4, 2^30]; heap ≥ 1024
 * bytes (no power-of-two rule here — that stricter rule belongs to the compiler's RunConfig); dep pool in
 * [4, 2^31−1]. There is no environment-variable tier: the entry wins, else the default.
 */
public record RuntimeEnv(long[] ringTaskWindow, long[] ringHeap, long[] ringDepPool) {
    public static final int RINGS = 4;
    public static final long DEFAULT_TASK_WINDOW = 16384;
    public static final long DEFAULT_HEAP = 256L << 20;
    public static final long DEFAULT_DEP_POOL = 16384;
    public static final long MIN_TASK_WINDOW = 4;
    public static final long MAX_TASK_WINDOW = 1L << 30;
    public static final long MIN_HEAP = 1024;
    public static final long MIN_DEP_POOL = 4;
    public static final long MAX_DEP_POOL = Integer.MAX_VALUE;

    public RuntimeEnv {
        ringTaskWindow = four("ring_task_window", ringTaskWindow);
        ringHeap = four("ring_heap", ringHeap);
        ringDepPool = four("ring_dep_pool", ringDepPool);
    }

    private static long[] four(String name, long[] v) {
        if (v == null) {
            return new long[RINGS];
        }
        if (v.length != RINGS) {
            throw new IllegalArgumentException("RuntimeEnv." + name + " list must contain exactly 4 entries (one per "
                    + "ring, 0 = default): got " + v.length + " " + Arrays.toString(v));
        }
        return v.clone();
    }

    /** All entries 0: every ring at its compile default. */
    public static RuntimeEnv defaults() {
        return new RuntimeEnv(null, null, null);
    }

    /** The same value for all four rings (0 clears them). */
    public static long[] broadcast(long value) {
        long[] v = new long[RINGS];
        Arrays.fill(v, value);
        return v;
    }

    public RuntimeEnv withRingTaskWindow(long... v) {
        return new RuntimeEnv(v.length == 1 ? broadcast(v[0]) : v, ringHeap, ringDepPool);
    }

    public RuntimeEnv withRingHeap(long... v) {
        return new RuntimeEnv(ringTaskWindow, v.length == 1 ? broadcast(v[0]) : v, ringDepPool);
    }

    public RuntimeEnv withRingDepPool(long... v) {
        return new RuntimeEnv(ringTaskWindow, ringHeap, v.length == 1 ? broadcast(v[0]) : v);
    }

    @Override
    public long[] ringTaskWindow() {
        return ringTaskWindow.clone();
    }

    @Override
    public long[] ringHeap() {
        return ringHeap.clone();
    }

    @Override
    public long[] ringDepPool() {
        return ringDepPool.clone();
    }

    /** The task window in force on {@code ring}. */
    public long taskWindow(int ring) {
        return ringTaskWindow[ring] != 0 ? ringTaskWindow[ring] : DEFAULT_TASK_WINDOW;
    }

    /** The heap bytes in force on {@code ring}. */
    public long heap(int ring) {
        return ringHeap[ring] != 0 ? ringHeap[ring] : DEFAULT_HEAP;
    }

    /** The dep pool entries in force on {@code ring}. */
    public long depPool(int ring) {
        return ringDepPool[ring] != 0 ? ringDepPool[ring] : DEFAULT_DEP_POOL;
    }

    /** Checks every non-zero entry; the message names field, ring, rule, value and a valid value to try. */
    public void validate() {
        for (int r = 0; r < RINGS; r++) {
            long w = ringTaskWindow[r];
            if (w != 0 && (w < MIN_TASK_WINDOW || w > MAX_TASK_WINDOW || Long.bitCount(w) != 1)) {
                long fix = w < MIN_TASK_WINDOW ? MIN_TASK_WINDOW
                        : Math.min(MAX_TASK_WINDOW, Long.highestOneBit(w - 1) << 1);
                throw new IllegalArgumentException("ring_task_window for ring " + r + " must be a power of two in ["
                        + MIN_TASK_WINDOW + ", " + MAX_TASK_WINDOW + "] (0 = default " + DEFAULT_TASK_WINDOW
                        + "): ring_task_window[" + r + "]=" + w + " (try " + fix + ")");
            }
            long h = ringHeap[r];
            if (h != 0 && h < MIN_HEAP) {
                throw new IllegalArgumentException("ring_heap for ring " + r + " must be at least " + MIN_HEAP
                        + " bytes (0 = default " + Sizes.format(DEFAULT_HEAP) + "): ring_heap[" + r + "]=" + h
                        + " (try " + MIN_HEAP + " or more, e.g. 512MiB)");
            }
            long d = ringDepPool[r];
            if (d != 0 && (d < MIN_DEP_POOL || d > MAX_DEP_POOL)) {
                long fix = d < MIN_DEP_POOL ? MIN_DEP_POOL : MAX_DEP_POOL;
                throw new IllegalArgumentException("ring_dep_pool for ring " + r + " must be in [" + MIN_DEP_POOL
                        + ", " + MAX_DEP_POOL + "] (0 = default " + DEFAULT_DEP_POOL + "): ring_dep_pool[" + r + "]="
                        + d + " (try " + fix + ")");
            }
        }
        long total = 0;
        for (int r = 0; r < RINGS; r++) {
            try {
                total = Math.addExact(total, heap(r));
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException("ring_heap sum over the four rings overflows 64 bits: ring_heap="
                        + Arrays.toString(ringHeap) + " (use sizes that sum below 2^63, e.g. 1GiB each)");
            }
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RuntimeEnv e && Arrays.equals(ringTaskWindow, e.ringTaskWindow)
                && Arrays.equals(ringHeap, e.ringHeap) && Arrays.equals(ringDepPool, e.ringDepPool);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(ringTaskWindow) * 961 + Arrays.hashCode(ringHeap) * 31 + Arrays.hashCode(ringDepPool);
    }

    @Override
    public String toString() {
        return "RuntimeEnv[ring_task_window=" + Arrays.toString(ringTaskWindow) + ", ring_heap="
                + Arrays.toString(ringHeap) + ", ring_dep_pool=" + Arrays.toString(ringDepPool) + "]";
    }
}
