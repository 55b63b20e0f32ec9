package dev.jpto.runtime.ring;

/**
 * A ring of fanout-list nodes {@code {consumer task id, next node}} (spec b.4). Linear counters {@code top}
 * and {@code tail} start at 1 so that 0 is the null pointer; the physical index is {@code linear % capacity};
 * full when {@code top − tail ≥ capacity}. Only the orchestrator allocates; schedulers read nodes after
 * taking the producer's lock. Reclaim moves the tail to the {@code top} recorded after wiring a retired task.
 *
 * <p>A node pointer carries its ring in bits 63..56 so one fanout list can link nodes of several rings.
 */
public final class DepPool {
    public static final long NULL = 0;
    private static final int RING_SHIFT = 56;
    private static final long LINEAR_MASK = (1L << RING_SHIFT) - 1;

    private final int ring;
    private final int capacity;
    private final long[] consumer;
    private final long[] next;
    private long top = 1;
    private long tail = 1;
    private long highWater;

    public DepPool(int ring, int capacity) {
        if (capacity < 4) {
            throw new IllegalArgumentException("dep pool capacity must be >= 4: " + capacity);
        }
        this.ring = ring;
        this.capacity = capacity;
        this.consumer = new long[capacity];
        this.next = new long[capacity];
    }

    public int capacity() {
        return capacity;
    }

    public long top() {
        return top;
    }

    public long tail() {
        return tail;
    }

    public long used() {
        return top - tail;
    }

    public long highWater() {
        return highWater;
    }

    /** Whether {@code n} more nodes fit now. */
    public boolean hasSpace(int n) {
        return top - tail + n <= capacity;
    }

    /**
     * Appends a node and returns its pointer; the caller checked {@link #hasSpace}. Overflow here is a bug in
     * the caller, not a user condition.
     */
    public long alloc(long consumerTaskId, long nextPointer) {
        if (top - tail >= capacity) {
            throw new IllegalStateException("dep pool of ring " + ring + " overflowed without ensure_space: used="
                    + (top - tail) + " capacity=" + capacity);
        }
        int idx = (int) (top % capacity);
        consumer[idx] = consumerTaskId;
        next[idx] = nextPointer;
        long ptr = ((long) ring << RING_SHIFT) | top;
        top++;
        highWater = Math.max(highWater, top - tail);
        return ptr;
    }

    public void reclaimTo(long mark) {
        if (mark > tail) {
            tail = Math.min(mark, top);
        }
    }

    public static int ringOf(long pointer) {
        return (int) (pointer >>> RING_SHIFT);
    }

    public long consumerAt(long pointer) {
        return consumer[(int) ((pointer & LINEAR_MASK) % capacity)];
    }

    public long nextAt(long pointer) {
        return next[(int) ((pointer & LINEAR_MASK) % capacity)];
    }

    public void reset() {
        top = 1;
        tail = 1;
        highWater = 0;
    }
}
