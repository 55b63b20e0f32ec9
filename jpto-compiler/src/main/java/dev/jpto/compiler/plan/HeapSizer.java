package dev.jpto.compiler.plan;

import dev.jpto.runtime.RingField;
import dev.jpto.runtime.chip.HeapLayout;
import dev.jpto.runtime.RuntimeEnv;

/**
 * The smallest heap a ring's trace passes with. Placement on the heap ring is fixed by the request sizes alone
 * (a request goes at {@code top} if it fits before the end, else at 0), so the only freedom is when the tail
 * moves. A ring deadlocks only when its oldest live task is pinned by an open scope; by then every other task
 * has completed and retired, so the tail is exactly the packed end of the task before the oldest pinned one.
 * Replaying the trace against the runtime's own heap ring with that tail answers "does this size pass?".
 */
final class HeapSizer {
    /** Sizes are searched in this unit: every request is a multiple of it, so pass/fail only changes at its multiples. */
    static final long UNIT = HeapLayout.OUTPUT_ALIGN;

    private HeapSizer() {
    }

    /** Whether every allocation of {@code trace} succeeds on a heap ring of {@code size} bytes. */
    static boolean passes(RingTrace trace, long size) {
        if (size < RingField.HEAP.min()) {
            return false;
        }
        HeapLayout.Model heap = new HeapLayout.Model(size);
        long[] end = new long[Math.max(1, trace.tasks())];
        int lastAlive = 0;
        for (int t = 0; t < trace.tasks(); t++) {
            long n = trace.bytes(t);
            int p = trace.pinnedFrom(t);
            if (p > lastAlive) {
                heap.reclaim(p - 1, end[p - 1]);
                lastAlive = p;
            }
            if (n > size) {
                return false;
            }
            long at = heap.tryBump(n, t);
            if (at == HeapLayout.Model.FULL) {
                return false;
            }
            end[t] = at + n;
        }
        return true;
    }

    /**
     * The smallest multiple of {@link #UNIT} (at least the runtime minimum) the trace passes with, or 0 when the
     * ring's tasks reserve no heap. Passing is not monotone in the size in every corner (a wrap point moves with
     * it), so this bisects to a boundary: this size passes and one unit less does not.
     */
    static long minimum(RingTrace trace, long liveBytes) {
        if (trace.totalBytes() == 0) {
            return 0;
        }
        long lo = roundUp(Math.max(RingField.HEAP.min(), Math.max(liveBytes, trace.maxBytes())), UNIT);
        if (passes(trace, lo)) {
            return lo;
        }
        // With room for every byte the ring ever allocates nothing wraps, so this always passes.
        long hi = roundUp(Math.addExact(trace.totalBytes(), UNIT), UNIT);
        long probe = lo;
        while (probe < hi) {
            probe = Math.min(hi, probe * 2);
            if (passes(trace, probe)) {
                hi = probe;
                break;
            }
            lo = probe;
        }
        while (hi - lo > UNIT) {
            long mid = roundUp(lo + (hi - lo) / 2, UNIT);
            if (passes(trace, mid)) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    static long roundUp(long v, long unit) {
        return Math.ceilDiv(v, unit) * unit;
    }
}
