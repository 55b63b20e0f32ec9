package dev.jpto.runtime.ring;

/**
 * The spill ring for fanin edges beyond the {@value Ring#FANIN_INLINE_CAP} a task slot holds inline (spec
 * b.5), one per ring, orchestrator-owned; sized by {@code ring_dep_pool} like the {@link DepPool}. Linear
 * counters start at 1; full when {@code top − tail ≥ capacity}. A task's spilled edges are one contiguous run
 * {@code [spill_start, spill_start + spill_count)}; the tail moves past a run when its task retires.
 * Schedulers read a task's run after the task completed (published by its readiness).
 */
public final class FaninPool {
    private final int capacity;
    private final long[] edges;
    private long top = 1;
    private long tail = 1;
    private long highWater;

    public FaninPool(int capacity) {
        this.capacity = capacity;
        this.edges = new long[capacity];
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

    public boolean hasSpace(int n) {
        return top - tail + n <= capacity;
    }

    /** Appends an edge and returns its linear index; the caller checked {@link #hasSpace}. */
    public long append(long edge) {
        if (top - tail >= capacity) {
            throw new IllegalStateException("fanin spill pool overflowed without ensure_space: capacity " + capacity);
        }
        edges[(int) (top % capacity)] = edge;
        highWater = Math.max(highWater, top + 1 - tail);
        return top++;
    }

    public long get(long linear) {
        return edges[(int) (linear % capacity)];
    }

    public void reclaimTo(long newTail) {
        if (newTail > tail) {
            tail = Math.min(newTail, top);
        }
    }

    public void reset() {
        top = 1;
        tail = 1;
        highWater = 0;
    }
}
