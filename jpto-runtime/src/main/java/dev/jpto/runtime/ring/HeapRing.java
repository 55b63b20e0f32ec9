package dev.jpto.runtime.ring;

import dev.jpto.runtime.RingField;

/**
 * The heap half of simpler's task allocator (spec b.3), orchestrator-owned. Offsets {@code top} (allocation)
 * and {@code tail} (reclaim) lie in {@code [0, size]}; {@code top == tail} means empty. A buffer never
 * straddles the end: when it does not fit before the end it goes to offset 0 (wrap) if it fits strictly
 * below {@code tail}. Strict inequalities keep {@code top} from catching {@code tail} from behind.
 * Reclamation is in task order: the tail jumps to the packed end of the newest reclaimed task.
 */
public final class HeapRing {
    /** Returned by {@link #tryBump} when the request does not fit now. */
    public static final long FULL = -1;

    private final long size;
    private long top;
    private long tail;
    /** Local id at the last rebase; reclaim marks of older tasks are ignored until last_alive passes it. */
    private long rebaseAnchor = Long.MIN_VALUE;
    /** Unrolled (monotonic) allocation position: bytes allocated plus bytes skipped at wraps. */
    private long allocatedTotal;
    private long highWater;

    public HeapRing(long size) {
        if (!RingField.HEAP.valid(size)) {
            throw new IllegalArgumentException("heap ring size must be " + RingField.HEAP.rule() + ": " + size);
        }
        this.size = size;
    }

    public long size() {
        return size;
    }

    public long top() {
        return top;
    }

    public long tail() {
        return tail;
    }

    /**
     * Reserves {@code n} bytes ({@code n} a multiple of 64) for the task with id {@code localId};
     * {@code n == 0} returns the current top. Returns the offset or {@link #FULL}.
     */
    public long tryBump(long n, long localId) {
        if (n == 0) {
            return top;
        }
        long at;
        if (top >= tail) {
            if (size - top >= n) {
                at = top;
                top += n;
            } else if (tail > n) {
                allocatedTotal += size - top;
                at = 0;
                top = n;
            } else if (top == tail && n <= size) {
                allocatedTotal += size - top;
                at = 0;
                top = n;
                tail = 0;
                rebaseAnchor = localId;
            } else {
                return FULL;
            }
        } else if (tail - top > n) {
            at = top;
            top += n;
        } else {
            return FULL;
        }
        allocatedTotal += n;
        highWater = Math.max(highWater, used());
        return at;
    }

    /**
     * Moves the tail to the packed end of task {@code newestReclaimed} (the task just below last_alive), unless
     * that task is older than the last rebase.
     */
    public void reclaim(long newestReclaimed, long packedEnd) {
        if (newestReclaimed < rebaseAnchor) {
            return;
        }
        tail = packedEnd;
    }

    /** Bytes held by live tasks, including nothing skipped at a wrap: {@code (top − tail) mod size}. */
    public long used() {
        return top >= tail ? top - tail : top + size - tail;
    }

    /** The larger free arc (size when empty): the biggest request that could succeed now. */
    public long available() {
        if (top == tail) {
            return size;
        }
        if (top > tail) {
            return Math.max(size - top, tail > 0 ? tail - 1 : 0);
        }
        return tail - top - 1;
    }

    public long allocatedTotal() {
        return allocatedTotal;
    }

    /** Monotonic reclaim position: everything before it in the unrolled space has been reclaimed. */
    public long reclaimedTotal() {
        return allocatedTotal - used();
    }

    public long highWater() {
        return highWater;
    }

    public void reset() {
        top = 0;
        tail = 0;
        rebaseAnchor = Long.MIN_VALUE;
        allocatedTotal = 0;
        highWater = 0;
    }
}
