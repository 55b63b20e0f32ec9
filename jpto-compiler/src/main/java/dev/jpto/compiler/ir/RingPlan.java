package dev.jpto.compiler.ir;

import java.util.Arrays;

/**
 * Per-ring requirements from {@link RingPlanner}: the most live tasks and heap bytes a run needs at once
 * ({@code tasks[r]}, {@code heap[r]}), and the largest single task's heap on each ring.
 */
public record RingPlan(long[] tasks, long[] heap, long[] largestTask) {
    public RingPlan {
        tasks = tasks.clone();
        heap = heap.clone();
        largestTask = largestTask.clone();
    }

    @Override
    public long[] tasks() {
        return tasks.clone();
    }

    @Override
    public long[] heap() {
        return heap.clone();
    }

    @Override
    public long[] largestTask() {
        return largestTask.clone();
    }

    /**
     * A task window for ring {@code r} that admits the plan: the ring keeps one slot free and a scope may hold
     * at most window − 1 tasks, so the smallest power of two ≥ tasks + 1 (at least 4); 0 when the ring is unused.
     */
    public long taskWindow(int r) {
        if (tasks[r] == 0) {
            return 0;
        }
        long need = Math.max(4, tasks[r] + 1);
        return Long.bitCount(need) == 1 ? need : Long.highestOneBit(need) << 1;
    }

    /**
     * A heap size for ring {@code r} that holds the plan's peak even when the ring wraps: peak plus the largest
     * task (a buffer never straddles the end of the ring), in whole KiB, at least 1024; 0 when nothing is
     * allocated on the ring.
     */
    public long heapBytes(int r) {
        if (heap[r] == 0) {
            return 0;
        }
        long need = Math.addExact(heap[r], largestTask[r]);
        return Math.max(1024, (need + 1023) / 1024 * 1024);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RingPlan p && Arrays.equals(tasks, p.tasks) && Arrays.equals(heap, p.heap)
                && Arrays.equals(largestTask, p.largestTask);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(tasks) * 31 * 31 + Arrays.hashCode(heap) * 31 + Arrays.hashCode(largestTask);
    }

    /** "ring 0: 16 tasks, 131072 heap bytes (peak) ..." — what {@code jpto plan} prints. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < tasks.length; r++) {
            sb.append("ring ").append(r).append(": tasks=").append(tasks[r]).append(" heap=").append(heap[r])
                    .append(" (suggest ring_task_window ").append(taskWindow(r)).append(", ring_heap ")
                    .append(heapBytes(r)).append(")\n");
        }
        return sb.toString();
    }
}
