package dev.jpto.runtime.ring;

/**
 * A ring of fanout-list nodes {@code {consumer task id, next node}} (spec b.4). Only the orchestrator
 * allocates; schedulers read nodes after taking the producer's lock. Reclaim moves the tail to the {@code top}
 * recorded after wiring a retired task.
 *
 * <p>A node pointer carries its ring in bits 63..56 so one fanout list can link nodes of several rings.
 */
public final class DepPool extends LinearPool {
    public static final long NULL = 0;
    private static final int RING_SHIFT = 56;
    private static final long LINEAR_MASK = (1L << RING_SHIFT) - 1;
    private static final int NODE_LONGS = 2;
    /** Java heap per entry of the pool. */
    public static final int BYTES_PER_ENTRY = NODE_LONGS * Long.BYTES;

    private final int ring;
    /**
     * Node {@code i} is {@code {consumer, next}} at {@code 2i, 2i + 1}: a completing scheduler reads both, right
     * after the orchestrator wrote them, so they share one cache line instead of moving two.
     */
    private final long[] nodes;

    public DepPool(int ring, int capacity) {
        super("dep pool of ring " + ring, checked(capacity));
        this.ring = ring;
        this.nodes = new long[Math.multiplyExact(NODE_LONGS, capacity)];
    }

    private static int checked(int capacity) {
        if (capacity < 4) {
            throw new IllegalArgumentException("dep pool capacity must be >= 4: " + capacity);
        }
        return capacity;
    }

    /** Appends a node and returns its pointer; the caller checked {@link #hasSpace}. */
    public long alloc(long consumerTaskId, long nextPointer) {
        long linear = claim();
        int idx = 2 * index(linear);
        nodes[idx] = consumerTaskId;
        nodes[idx + 1] = nextPointer;
        return ((long) ring << RING_SHIFT) | linear;
    }

    /** Takes an entry without writing a node (a consumer the producer holds inline); counts like {@link #alloc}. */
    public void reserve() {
        claim();
    }

    public static int ringOf(long pointer) {
        return (int) (pointer >>> RING_SHIFT);
    }

    public long consumerAt(long pointer) {
        return nodes[2 * index(pointer & LINEAR_MASK)];
    }

    public long nextAt(long pointer) {
        return nodes[2 * index(pointer & LINEAR_MASK) + 1];
    }
}
