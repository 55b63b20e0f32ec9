package dev.jpto.runtime;

import java.util.Arrays;

/**
 * Per-ring sizes (simpler's {@code CallConfig.runtime_env}): four entries per resource, one per ring; 0 keeps
 * the compile default of that ring. Names, defaults and rules are {@link RingField}'s (spec b.1). There is no
 * environment-variable tier: the entry wins, else the default.
 */
public record RuntimeEnv(long[] ringTaskWindow, long[] ringHeap, long[] ringDepPool) {
    public RuntimeEnv {
        ringTaskWindow = four(RingField.TASK_WINDOW, ringTaskWindow);
        ringHeap = four(RingField.HEAP, ringHeap);
        ringDepPool = four(RingField.DEP_POOL, ringDepPool);
    }

    private static long[] four(RingField field, long[] v) {
        if (v == null) {
            return new long[RingField.RINGS];
        }
        if (v.length != RingField.RINGS) {
            throw new IllegalArgumentException("RuntimeEnv." + field.key() + " list must contain exactly "
                    + RingField.RINGS + " entries (one per ring, 0 = default): got " + v.length + " " + Arrays.toString(v));
        }
        return v.clone();
    }

    /** All entries 0: every ring at its compile default. */
    public static RuntimeEnv defaults() {
        return new RuntimeEnv(null, null, null);
    }

    /** The same value for all four rings (0 clears them). */
    public static long[] broadcast(long value) {
        long[] v = new long[RingField.RINGS];
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

    /** A copy with {@code field}'s four entries replaced. */
    public RuntimeEnv with(RingField field, long... v) {
        return switch (field) {
            case TASK_WINDOW -> withRingTaskWindow(v);
            case HEAP -> withRingHeap(v);
            case DEP_POOL -> withRingDepPool(v);
        };
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

    /** The four entries of {@code field} as configured (0 = default). */
    public long[] entries(RingField field) {
        return raw(field).clone();
    }

    private long[] raw(RingField field) {
        return switch (field) {
            case TASK_WINDOW -> ringTaskWindow;
            case HEAP -> ringHeap;
            case DEP_POOL -> ringDepPool;
        };
    }

    /** The capacity of {@code field} in force on {@code ring}. */
    public long inForce(RingField field, int ring) {
        return field.inForce(raw(field)[ring]);
    }

    /** The task window in force on {@code ring}. */
    public long taskWindow(int ring) {
        return inForce(RingField.TASK_WINDOW, ring);
    }

    /** The heap bytes in force on {@code ring}. */
    public long heap(int ring) {
        return inForce(RingField.HEAP, ring);
    }

    /** The dep pool entries in force on {@code ring}. */
    public long depPool(int ring) {
        return inForce(RingField.DEP_POOL, ring);
    }

    /** Checks every non-zero entry ({@link RingField#validate}) and that the heaps of all rings sum below 2^63. */
    public void validate() {
        for (int r = 0; r < RingField.RINGS; r++) {
            for (RingField f : RingField.values()) {
                f.validate(r, raw(f)[r]);
            }
        }
        long total = 0;
        for (int r = 0; r < RingField.RINGS; r++) {
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
