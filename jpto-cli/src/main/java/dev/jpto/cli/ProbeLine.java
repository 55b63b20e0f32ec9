package dev.jpto.cli;

import dev.jpto.compiler.run.BenchmarkResult;
import dev.jpto.tools.bench.FmaProbe;
import java.time.Duration;
import java.util.Locale;

/**
 * The line {@code jpto bench PROGRAM} ends with: the program's effective rate beside this machine's measured fp32
 * FMA ceiling with every core busy (a register-only FMA probe on as many threads as the JVM has processors), so a
 * figure reads as a fraction of what the host can do at all.
 */
final class ProbeLine {
    private static final long ITERATIONS = 2_000_000;
    private static final int RUNS = 3;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private ProbeLine() {
    }

    /** The line, or empty when the kernels reported no work to rate. */
    static String of(BenchmarkResult b) {
        if (b.effectiveGops() == 0) {
            return "";
        }
        int threads = Runtime.getRuntime().availableProcessors();
        double peak = FmaProbe.gflopsOnThreads(threads, ITERATIONS, RUNS, TIMEOUT);
        return String.format(Locale.ROOT, "peak    %.1f GFLOP/s fp32 FMA with %d threads at once (register-only FMA"
                + " probe, this host); effective %.1f G/s = %.1f %% of it", peak, threads, b.effectiveGops(),
                100 * b.effectiveGops() / peak);
    }
}
