package dev.jpto.runtime.device;

import dev.jpto.runtime.CoreType;
import java.util.List;
import java.util.Objects;

/**
 * A task of the replayed graph: its id and kernel, the core type it runs on, its device cost (one block's cycles and
 * the GM bytes of all its blocks), the ids of the tasks it waits for (submitted before it), and how many blocks it
 * runs (1; more for an SPMD task, each block on its own core), and the GM lines it touched, for the L2 model
 * ({@link GmFootprint#NONE} when unknown).
 */
public record DeviceTask(long id, String kernel, CoreType coreType, long cycles, long gmBytes, List<Long> preds,
                         int blocks, GmFootprint footprint) {
    public DeviceTask {
        preds = List.copyOf(preds);
        Objects.requireNonNull(footprint, "footprint");
        if (cycles < 0 || gmBytes < 0) {
            throw new IllegalArgumentException("task " + id + " (" + kernel + "): cycles and gmBytes must be >= 0, got "
                    + cycles + " and " + gmBytes);
        }
        if (blocks < 1) {
            throw new IllegalArgumentException("task " + id + " (" + kernel + "): blocks must be >= 1, got " + blocks);
        }
    }

    /** A task whose GM lines are not known: all its GM bytes are HBM bytes. */
    public DeviceTask(long id, String kernel, CoreType coreType, long cycles, long gmBytes, List<Long> preds,
                      int blocks) {
        this(id, kernel, coreType, cycles, gmBytes, preds, blocks, GmFootprint.NONE);
    }

    /** A single-block task costing {@code cost}. */
    public static DeviceTask of(long id, String kernel, CoreType coreType, TaskCost cost, List<Long> preds) {
        return new DeviceTask(id, kernel, coreType, cost.cycles(), cost.gmBytes(), preds, 1, cost.footprint());
    }
}
