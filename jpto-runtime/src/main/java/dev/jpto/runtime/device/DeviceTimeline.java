package dev.jpto.runtime.device;

import java.util.List;

/**
 * The result of a {@link DeviceReplay}: every block's run (in dispatch order), the makespan (first submit to the
 * last completion), the GM floor (the larger of the HBM bytes at the HBM bandwidth and all GM bytes at the L2's),
 * the GM bytes the tasks moved and the part of them that went to HBM (the rest hit the L2), and the critical path:
 * the longest dependency chain, each task counted with its dispatch, kernel and completion costs, which no number
 * of cores can beat.
 */
public record DeviceTimeline(List<BlockRun> runs, long makespanPs, long gmFloorPs, long gmBytes, long hbmBytes,
                             List<Long> criticalPath, long criticalPathPs) {
    public DeviceTimeline {
        runs = List.copyOf(runs);
        criticalPath = List.copyOf(criticalPath);
    }

    /** The estimated device time: the makespan, or the GM floor when the chip's bandwidth binds. */
    public long devicePs() {
        return Math.max(makespanPs, gmFloorPs);
    }

    public double deviceMicros() {
        return devicePs() / 1e6;
    }
}
