package dev.jpto.compiler.run;

import dev.jpto.runtime.RunReport;

/**
 * Effective time per round in microseconds (the chip's elapsed time of a run), over {@code rounds} timed rounds
 * after the warm-up; {@code last} is the report of the last round, its device estimate computed before the chip
 * closed ({@link RunReport#withDeviceTimeResolved}; the same for every round: it depends on the program only).
 */
public record BenchmarkResult(int rounds, double minUs, double medianUs, double meanUs, double maxUs, RunReport last) {
    /**
     * {@code effective_us (N rounds) min= median= mean= max=}: the golden-runner line; then {@code device_us=…
     * (estimated, per round)} when the run has a device estimate.
     */
    public String line() {
        String host = String.format(java.util.Locale.ROOT,
                "effective_us (%d rounds) min=%.1f median=%.1f mean=%.1f max=%.1f", rounds, minUs, medianUs, meanUs,
                maxUs);
        return last.deviceMicros().isEmpty() ? host : host + String.format(java.util.Locale.ROOT,
                " device_us=%.1f (estimated, per round)", last.deviceMicros().getAsDouble());
    }

    /** The kernels' reported work per round over the median round's time, in G(FL)OP/s; 0 when none reported. */
    public double effectiveGops() {
        return medianUs > 0 ? last.workFlops() / (medianUs * 1e3) : 0;
    }

    /**
     * The lines a benchmark prints: {@link #line()}, then {@code work_gflop=… per round, effective … G/s at the
     * median round} when the kernels reported work (FLOPs as they count them: matmul 2·M·N·K, int8 included, one
     * per element-wise result).
     */
    public java.util.List<String> lines() {
        return last.workFlops() == 0 ? java.util.List.of(line()) : java.util.List.of(line(), String.format(
                java.util.Locale.ROOT, "work_gflop=%.2f per round, effective %.1f G/s at the median round",
                last.workFlops() / 1e9, effectiveGops()));
    }
}
