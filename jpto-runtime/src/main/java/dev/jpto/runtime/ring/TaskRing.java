package dev.jpto.runtime.ring;

import dev.jpto.runtime.RingField;

/**
 * The task-slot half of simpler's task allocator (spec b.2). Ids are per-ring, monotonically increasing
 * {@code int}s; the slot of id {@code i} is {@code i & (window − 1)}. One slot is always kept free, so at most
 * {@code window − 1} tasks are live: full when {@code next − lastAlive ≥ window − 1}.
 */
public final class TaskRing {
    private final int window;
    private final int mask;
    private int nextLocal;

    public TaskRing(int window) {
        if (!RingField.TASK_WINDOW.valid(window)) {
            throw new IllegalArgumentException("task window must be " + RingField.TASK_WINDOW.rule() + ": " + window);
        }
        this.window = window;
        this.mask = window - 1;
    }

    public int window() {
        return window;
    }

    public int slotOf(int localId) {
        return localId & mask;
    }

    /** The id the next allocation gets. */
    public int nextLocal() {
        return nextLocal;
    }

    /** Live tasks given the scheduler's published {@code lastAlive}. */
    public int active(int lastAlive) {
        return nextLocal - lastAlive;
    }

    /** True when no slot can be admitted: {@code active ≥ window − 1}. */
    public boolean full(int lastAlive) {
        return nextLocal - lastAlive >= window - 1;
    }

    /** Takes the next id; the caller checked {@link #full} first. */
    public int take() {
        return nextLocal++;
    }

    public void reset() {
        nextLocal = 0;
    }
}
