package dev.jpto.compiler;

import dev.jpto.runtime.RunReport;

/**
 * Effective time per round in microseconds (the chip's elapsed time of a run), over {@code rounds} timed rounds
 * after the warm-up; {@code last} is the report of the last round.
 */
public record BenchmarkResult(int rounds, double minUs, double medianUs, double meanUs, double maxUs, RunReport last) {
    /** {@code effective_us (N rounds) min= median= mean= max=}: the golden-runner line. */
    public String line() {
        return String.format(java.util.Locale.ROOT, "effective_us (%d rounds) min=%.1f median=%.1f mean=%.1f max=%.1f",
                rounds, minUs, medianUs, meanUs, maxUs);
    }
}
