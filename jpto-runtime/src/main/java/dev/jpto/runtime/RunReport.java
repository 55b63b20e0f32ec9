package dev.jpto.runtime;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What one successful run did: the ring capacities actually in force and their high-water marks, the
 * TensorMap peak, task count, wall time, and the DFX files written ({@code scopeStatsFile} for
 * enable_scope_stats, {@code dfxFiles} for the swimlane, dependency graph, argument dump and PMU outputs), and the
 * estimated device time ({@code deviceTime}, may be null) and the FLOPs the kernels reported ({@code workFlops}:
 * matmul 2·M·N·K, one per element-wise result; 0 when no kernel reports work).
 */
public record RunReport(Platform platform, int aicpuThreadNum, List<Ring> rings, int tensorMapCapacity,
                        int tensorMapMax, long tasksExecuted, long elapsedNanos, Optional<Path> scopeStatsFile,
                        List<Path> dfxFiles, DeviceTime deviceTime, long workFlops) {

    public RunReport {
        rings = List.copyOf(rings);
        dfxFiles = List.copyOf(dfxFiles);
    }

    /** A report without a device estimate. */
    public RunReport(Platform platform, int aicpuThreadNum, List<Ring> rings, int tensorMapCapacity,
                     int tensorMapMax, long tasksExecuted, long elapsedNanos, Optional<Path> scopeStatsFile,
                     List<Path> dfxFiles) {
        this(platform, aicpuThreadNum, rings, tensorMapCapacity, tensorMapMax, tasksExecuted, elapsedNanos,
                scopeStatsFile, dfxFiles, null, 0);
    }

    /**
     * The run's estimated device time in µs (docs/device-model.md), replayed on first call; empty when the report
     * has none (e.g. it merges several chips' runs).
     *
     * @throws IllegalStateException when the chip has run again since this run
     */
    public OptionalDouble deviceMicros() {
        return deviceTime == null ? OptionalDouble.empty() : OptionalDouble.of(deviceTime.micros());
    }

    /**
     * This report with its device estimate computed now: for a report read after its chip may have run again (a
     * chip serving several calls).
     */
    public RunReport withDeviceTimeResolved() {
        if (deviceTime == null) {
            return this;
        }
        double us = deviceTime.micros();
        return new RunReport(platform, aicpuThreadNum, rings, tensorMapCapacity, tensorMapMax, tasksExecuted,
                elapsedNanos, scopeStatsFile, dfxFiles, () -> us, workFlops);
    }

    /** {@code device_us=12.3 (estimated)}, or empty when the report has no device estimate. */
    public String deviceField() {
        return deviceTime == null ? "" : String.format(Locale.ROOT, "device_us=%.1f (estimated)", deviceTime.micros());
    }

    /** A report without DFX files besides scope statistics. */
    public RunReport(Platform platform, int aicpuThreadNum, List<Ring> rings, int tensorMapCapacity,
                     int tensorMapMax, long tasksExecuted, long elapsedNanos, Optional<Path> scopeStatsFile) {
        this(platform, aicpuThreadNum, rings, tensorMapCapacity, tensorMapMax, tasksExecuted, elapsedNanos,
                scopeStatsFile, List.of());
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
