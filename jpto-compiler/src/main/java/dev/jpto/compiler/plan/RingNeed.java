package dev.jpto.compiler.plan;

import dev.jpto.runtime.RingField;

/**
 * What one ring needs for a program, and the runtime_cfg values recommended for it.
 *
 * @param ring                  ring id ({@code RingField.ringOf} of the scope depth)
 * @param tasks                 tasks the program submits on this ring
 * @param liveTasks             most tasks the ring must hold at once (the pinned live set, new task included);
 *                              comparable to the runtime's {@code task_window_max}
 * @param liveHeapBytes         most heap bytes those tasks reserve at once (no wrap loss)
 * @param heapBytes             smallest heap the ring passes with, wrap loss included (0 if it reserves none)
 * @param depEntries            most dependency entries the ring's pool may have to hold at once (upper bound)
 * @param recommendedTaskWindow {@code liveTasks + 1} (one slot is kept free) as {@link RingField#advised advised}
 * @param recommendedHeap       {@code heapBytes} as advised, stepped up until it passes the replay
 * @param recommendedDepPool    {@code depEntries} as advised
 */
public record RingNeed(int ring, long tasks, long liveTasks, long liveHeapBytes, long heapBytes, long depEntries,
                       long recommendedTaskWindow, long recommendedHeap, long recommendedDepPool) {

    /** The smallest task window that holds the live set (before rounding to a power of two). */
    public long taskWindow() {
        return liveTasks + 1;
    }

    /** The runtime_cfg value recommended for {@code field}. */
    public long recommended(RingField field) {
        return switch (field) {
            case TASK_WINDOW -> recommendedTaskWindow;
            case HEAP -> recommendedHeap;
            case DEP_POOL -> recommendedDepPool;
        };
    }

    /** A copy recommending {@code value} for {@code field}. */
    public RingNeed recommending(RingField field, long value) {
        return new RingNeed(ring, tasks, liveTasks, liveHeapBytes, heapBytes, depEntries,
                field == RingField.TASK_WINDOW ? value : recommendedTaskWindow,
                field == RingField.HEAP ? value : recommendedHeap,
                field == RingField.DEP_POOL ? value : recommendedDepPool);
    }
}
