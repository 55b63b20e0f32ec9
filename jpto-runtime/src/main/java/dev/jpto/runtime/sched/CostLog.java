package dev.jpto.runtime.sched;

import java.util.Arrays;

/**
 * The device costs one scheduler thread's tasks reported in the current run ({@code TaskContext.recordDeviceCost}):
 * task id, cycles, GM bytes. Written only by its thread; read by the chip after the run, when the threads are idle.
 * Kept between runs, so a steady run allocates nothing here.
 */
public final class CostLog {
    private long[] entries = new long[3 * 256];
    private int size;

    void add(long taskId, long cycles, long gmBytes) {
        if (3 * size + 3 > entries.length) {
            entries = Arrays.copyOf(entries, entries.length * 2);
        }
        entries[3 * size] = taskId;
        entries[3 * size + 1] = cycles;
        entries[3 * size + 2] = gmBytes;
        size++;
    }

    void reset() {
        size = 0;
    }

    public int size() {
        return size;
    }

    public long taskId(int i) {
        return entries[3 * i];
    }

    public long cycles(int i) {
        return entries[3 * i + 1];
    }

    public long gmBytes(int i) {
        return entries[3 * i + 2];
    }
}
