package dev.jpto.runtime;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What one successful run did: the ring capacities actually in force and their high-water marks, the
 * TensorMap peak, task count, wall time, and the DFX files written.
 */
public record RunReport(Platform platform, int aicpuThreadNum, List<Ring> rings, int tensorMapCapacity,
                        int tensorMapMax, long tasksExecuted, long elapsedNanos, Optional<Path> scopeStatsFile) {

    public RunReport {
        rings = List.copyOf(rings);
    }

    /**
     * One ring: capacities in force (after defaults) and high-water marks — live tasks
     * ({@code local − last_alive}), heap bytes in use, dep pool entries in use.
     */
    public record Ring(int ring, long taskWindow, long heapBytes, long depPool,
                       long taskWindowMax, long heapMax, long depPoolMax) {}

    public Ring ring(int r) {
        return rings.get(r);
    }
}
