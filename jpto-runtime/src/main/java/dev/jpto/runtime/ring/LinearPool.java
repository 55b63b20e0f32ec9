package dev.jpto.runtime.ring;

/**
 * The bookkeeping shared by the orchestrator-owned pools (spec b.4, b.5): linear counters {@code top} and
 * {@code tail} that start at 1 (0 is the null pointer), physical index {@code linear % capacity}, full when
 * {@code top − tail ≥ capacity}, and a tail that only moves forward as tasks retire.
 */
public abstract sealed class LinearPool permits DepPool, FaninPool {
    private final String name;
    private final int capacity;
    /** {@code capacity − 1} for a power-of-two capacity (the default sizes), else −1: index without a divide. */
    private final long mask;
    private long top = 1;
    private long tail = 1;
    private long highWater;

    protected LinearPool(String name, int capacity) {
        this.name = name;
        this.capacity = capacity;
        this.mask = Integer.bitCount(capacity) == 1 ? capacity - 1 : -1;
    }

    public final int capacity() {
        return capacity;
    }

    public final long top() {
        return top;
    }

    public final long tail() {
        return tail;
    }

    public final long used() {
        return top - tail;
    }

    public final long highWater() {
        return highWater;
    }

    /** Whether {@code n} more entries fit now. */
    public final boolean hasSpace(int n) {
        return top - tail + n <= capacity;
    }

    /**
     * Claims the next linear index; the caller checked {@link #hasSpace}, so overflow here is a bug in the caller,
     * not a user condition.
     */
    protected final long claim() {
        if (top - tail >= capacity) {
            throw new IllegalStateException(name + " overflowed without ensure_space: used=" + (top - tail)
                    + " capacity=" + capacity);
        }
        long linear = top++;
        highWater = Math.max(highWater, top - tail);
        return linear;
    }

    protected final int index(long linear) {
        return (int) (mask >= 0 ? linear & mask : linear % capacity);
    }

    public final void reclaimTo(long newTail) {
        if (newTail > tail) {
            tail = Math.min(newTail, top);
        }
    }

    public final void reset() {
        top = 1;
        tail = 1;
        highWater = 0;
    }
}
