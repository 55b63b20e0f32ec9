package dev.jpto.runtime.ring;

/**
 * The spill ring for fanin edges beyond the {@value Ring#FANIN_INLINE_CAP} a task slot holds inline (spec
 * b.5), one per ring, orchestrator-owned; sized by {@code ring_dep_pool} like the {@link DepPool}. A task's
 * spilled edges are one contiguous run {@code [spill_start, spill_start + spill_count)}; the tail moves past a
 * run when its task retires. Schedulers read a task's run after the task completed (published by its readiness).
 */
public final class FaninPool extends LinearPool {
    /** Java heap per entry of the pool. */
    public static final int BYTES_PER_ENTRY = Long.BYTES;
    private final long[] edges;

    public FaninPool(int capacity) {
        super("fanin spill pool", capacity);
        this.edges = new long[capacity];
    }

    /** Appends an edge; the caller checked {@link #hasSpace}. */
    public void append(long edge) {
        edges[index(claim())] = edge;
    }

    public long get(long linear) {
        return edges[index(linear)];
    }
}
