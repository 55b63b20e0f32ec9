package dev.jpto.compiler.plan;

/**
 * What one ring needs for a program, and the runtime_cfg values recommended for it.
 *
 * @param ring                  ring id (scope depth, capped at 3)
 * @param tasks                 tasks the program submits on this ring
 * @param liveTasks             most tasks the ring must hold at once (the pinned live set, new task included);
 *                              comparable to the runtime's {@code task_window_max}
 * @param liveHeapBytes         most heap bytes those tasks reserve at once (no wrap loss)
 * @param heapBytes             smallest heap the ring passes with, wrap loss included (0 if it reserves none)
 * @param depEntries            most dependency entries the ring's pool may have to hold at once (upper bound)
 * @param recommendedTaskWindow power of two ≥ 4 and > {@code liveTasks} (one slot is kept free)
 * @param recommendedHeap       {@code heapBytes} rounded up to a MiB multiple (at least 1 MiB), checked to pass
 * @param recommendedDepPool    {@code depEntries} rounded up to a power of two (at least the runtime minimum)
 */
public record RingNeed(int ring, long tasks, long liveTasks, long liveHeapBytes, long heapBytes, long depEntries,
                       long recommendedTaskWindow, long recommendedHeap, long recommendedDepPool) {

    /** The smallest task window that holds the live set (before rounding to a power of two). */
    public long taskWindow() {
        return liveTasks + 1;
    }
}
