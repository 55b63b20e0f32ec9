package dev.jpto.compiler.plan;

import dev.jpto.runtime.RuntimeEnv;

/**
 * Rounding of planned needs to runtime_cfg values. Task windows must be powers of two (the runtime's rule). Heaps
 * are rounded to a MiB multiple, not to a power of two: RunConfig accepts any ring_heap ≥ 1024 bytes, and a
 * power of two would cost up to 2× memory for nothing (a 520 MiB need would become 1 GiB). Dep pools have no
 * rounding rule; a power of two keeps the numbers readable and costs at most 2× of a small pool.
 */
final class Recommend {
    /** Heap recommendations are multiples of this. */
    static final long HEAP_UNIT = 1L << 20;

    private Recommend() {
    }

    static long taskWindow(long liveTasks) {
        long need = Math.max(RuntimeEnv.MIN_TASK_WINDOW, liveTasks + 1);
        long w = ceilPow2(need);
        if (w > RuntimeEnv.MAX_TASK_WINDOW) {
            throw new IllegalArgumentException("the program keeps " + liveTasks + " tasks live on one ring, more than "
                    + "the largest task window (" + RuntimeEnv.MAX_TASK_WINDOW + ") admits; split its scopes");
        }
        return w;
    }

    static long heap(RingTrace trace, long heapBytes) {
        long h = HeapSizer.roundUp(Math.max(heapBytes, RuntimeEnv.MIN_HEAP), HEAP_UNIT);
        // Passing is not monotone in every corner: step up until the rounded size passes too.
        while (heapBytes > 0 && !HeapSizer.passes(trace, h)) {
            h += HEAP_UNIT;
        }
        return h;
    }

    static long depPool(long entries) {
        return Math.min(RuntimeEnv.MAX_DEP_POOL, ceilPow2(Math.max(RuntimeEnv.MIN_DEP_POOL, entries)));
    }

    static long ceilPow2(long v) {
        return v <= 1 ? 1 : Long.highestOneBit(v - 1) << 1;
    }
}
