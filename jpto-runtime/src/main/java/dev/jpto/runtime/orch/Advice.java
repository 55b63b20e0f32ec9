package dev.jpto.runtime.orch;

import dev.jpto.runtime.RuntimeEnv;
import dev.jpto.runtime.Sizes;

/**
 * The sizes recommended in allocator errors, computed from what was live when the run failed.
 *
 * <p>Heap: the smallest power of two that is strictly larger than the ring's capacity and at least
 * {@code in_use + request + 64} bytes (the live set plus the failed request, plus the one alignment unit
 * the strict full test keeps free). It is a lower bound: later tasks of the program may need more, which is
 * why the message says "at least". Task window: the smallest power of two larger than the window that holds
 * the live tasks plus the new one plus the slot kept free. Dep pool: twice the capacity (no power-of-two rule
 * there), capped at 2^31−1.
 */
final class Advice {
    private Advice() {}

    static long heap(long capacity, long inUse, long request) {
        long need = inUse + request + 64;
        long next = Long.highestOneBit(capacity) << 1;
        long fit = Long.highestOneBit(Math.max(1, need - 1)) << 1;
        return Math.max(Math.max(next, fit), 1L << 20);
    }

    static long taskWindow(long window, long live) {
        long next = window << 1;
        long fit = Long.highestOneBit(Math.max(1, live + 1)) << 1;
        return Math.min(RuntimeEnv.MAX_TASK_WINDOW, Math.max(next, fit));
    }

    static long depPool(long capacity, long need) {
        return Math.min(RuntimeEnv.MAX_DEP_POOL, Math.max(capacity * 2, need));
    }

    /** {@code ring_heap=0,512MiB,0,0}: the configured entries with ring {@code r} replaced. */
    static String perRing(String key, long[] configured, int r, long value) {
        StringBuilder sb = new StringBuilder(key).append('=');
        for (int i = 0; i < configured.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            long v = i == r ? value : configured[i];
            sb.append(key.equals("ring_heap") ? Sizes.format(v) : Long.toString(v));
        }
        return sb.toString();
    }
}
