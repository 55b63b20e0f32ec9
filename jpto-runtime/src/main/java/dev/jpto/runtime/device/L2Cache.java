package dev.jpto.runtime.device;

import java.util.List;

/**
 * The chip's L2 cache between the cores and HBM, as the replay charges it: the tasks' GM lines
 * ({@link GmFootprint}) pass through an LRU of the L2's size in submit order (deterministic: the program's order, not
 * the host's). A line a task reads that an earlier task (or the task itself) read or wrote, and that has not been
 * evicted since, is an L2 hit; every other byte is an HBM byte. Stores allocate their lines (the next reader hits)
 * and still count as HBM bytes (the data is written back). Not modelled: associativity, prefetch, L2 partitioning
 * between dies.
 */
final class L2Cache {
    private L2Cache() {
    }

    /** Per task (in list order), the bytes its loads read from L2 rather than HBM. */
    static long[] hitBytes(HardwareSpec spec, List<DeviceTask> tasks) {
        long capacity = spec.memory().l2Bytes() / GmFootprint.LINE_BYTES;
        LineLru lru = new LineLru(capacity);
        long[] hits = new long[tasks.size()];
        for (int i = 0; i < tasks.size(); i++) {
            GmFootprint f = tasks.get(i).footprint();
            long missed = 0;
            for (long line : f.readLines()) {
                if (!lru.touch(line)) {
                    missed++;
                }
            }
            for (long line : f.writtenLines()) {
                lru.touch(line);
            }
            hits[i] = Math.max(0, f.trackedReadBytes() - missed * GmFootprint.LINE_BYTES);
        }
        return hits;
    }
}
