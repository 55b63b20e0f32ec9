package dev.jpto.compiler.plan;

import dev.jpto.runtime.RingField;

/**
 * Planned needs as runtime_cfg values: each field's own advice rounding ({@link RingField#advised}), the rule the
 * runtime's allocator errors use too. A heap is stepped up further when the rounded size fails the replay.
 */
final class Recommend {
    private Recommend() {
    }

    /** The window that holds {@code liveTasks} with the one slot the ring keeps free. */
    static long taskWindow(long liveTasks) {
        long need = liveTasks + 1;
        if (need > RingField.TASK_WINDOW.max()) {
            throw new IllegalArgumentException("the program keeps " + liveTasks + " tasks live on one ring, more than "
                    + "the largest task window (" + RingField.TASK_WINDOW.max() + ") admits; split its scopes");
        }
        return RingField.TASK_WINDOW.advised(need);
    }

    static long heap(RingTrace trace, long heapBytes) {
        long h = RingField.HEAP.advised(heapBytes);
        // Passing is not monotone in every corner: step up until the rounded size passes too.
        while (heapBytes > 0 && !HeapSizer.passes(trace, h)) {
            h = RingField.HEAP.advised(h + 1);
        }
        return h;
    }

    static long depPool(long entries) {
        return RingField.DEP_POOL.advised(entries);
    }
}
