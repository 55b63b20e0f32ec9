package dev.jpto.runtime.sched;

import dev.jpto.runtime.device.GmFootprint;
import java.util.Arrays;

/**
 * The device costs one scheduler thread's tasks reported in the current run ({@code TaskContext.recordDeviceCost}):
 * task id, cycles, GM bytes, GM lines. Written only by its thread; read by the chip after the run, when the threads
 * are idle. Kept between runs, so a steady run allocates nothing here but the tasks' line lists.
 */
public final class CostLog {
    private long[] entries = new long[3 * 256];
    private GmFootprint[] footprints = new GmFootprint[256];
    private int size;

    void add(long taskId, long cycles, long gmBytes, GmFootprint footprint) {
        if (3 * size + 3 > entries.length) {
            entries = Arrays.copyOf(entries, entries.length * 2);
            footprints = Arrays.copyOf(footprints, entries.length / 3);
        }
        footprints[size] = footprint;
        entries[3 * size] = taskId;
        entries[3 * size + 1] = cycles;
        entries[3 * size + 2] = gmBytes;
        size++;
    }

    void reset() {
        Arrays.fill(footprints, 0, size, null); // the lines are the run's, not to be kept past it
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

    /** The GM lines the entry's task touched ({@link GmFootprint#NONE} when it did not say). */
    public GmFootprint footprint(int i) {
        return footprints[i];
    }
}
