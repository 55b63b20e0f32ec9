package dev.jpto.lib.runner;

import dev.jpto.compiler.CompiledL3Program;
import dev.jpto.compiler.CompiledProgram;
import dev.jpto.compiler.l3.L3Report;
import dev.jpto.compiler.run.BenchmarkResult;
import dev.jpto.compiler.launch.ChipWorker;
import dev.jpto.compiler.launch.DistributedWorker;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.RunReport;
import java.util.Arrays;
import java.util.Map;

/**
 * Benchmark rounds with progress: one warm-up run, then {@code rounds} timed runs on one {@link ChipWorker},
 * every one with the run's RunConfig (ring sizing, platform and device included: a benchmark that sized only the
 * correctness run would move a deadlock, not remove it). Timing per round is the chip's elapsed time, as in
 * {@code dev.jpto.compiler.launch.Benchmark}, which offers no per-round callback for a progress bar.
 */
@SuppressWarnings("exports") // for jpto exec --bench: it takes compiled programs, which are not exported
public final class BenchLoop {
    /** Untimed rounds before the timed ones. */
    public static final int WARMUP_ROUNDS = 1;

    private BenchLoop() {
    }

    /** {@code rounds} timed runs of a chip program after the warm-up, each timed by the chip. */
    public static BenchmarkResult run(CompiledProgram program, Map<String, Tensor> args, RunConfig config, int rounds,
                                      Progress progress) {
        double[] us = new double[rounds];
        RunReport last = null;
        progress.begin("benchmark round", rounds);
        try (ChipWorker worker = ChipWorker.open(config)) {
            for (int w = 0; w < WARMUP_ROUNDS; w++) {
                worker.run(program, args, config);
            }
            for (int r = 0; r < rounds; r++) {
                last = worker.run(program, args, config).withDeviceTimeResolved(); // read after close
                us[r] = last.elapsedNanos() / 1_000.0;
                progress.advance(r + 1);
            }
        } finally {
            progress.end();
        }
        return result(us, last);
    }

    /**
     * Rounds of a whole L3 run on one {@link DistributedWorker} of {@code chips} chips, each timed by the run's
     * wall time (first dispatch to last completion), every one with the run's RunConfig.
     */
    public static BenchmarkResult runL3(CompiledL3Program program, int chips, Map<String, Tensor> args, RunConfig config,
                                        int rounds, Progress progress) {
        double[] us = new double[rounds];
        L3Report last = null;
        progress.begin("benchmark round", rounds);
        try (DistributedWorker worker = DistributedWorker.open(config, chips)) {
            for (int w = 0; w < WARMUP_ROUNDS; w++) {
                worker.run(program, args, config);
            }
            for (int r = 0; r < rounds; r++) {
                last = worker.run(program, args, config);
                us[r] = last.wallNanos() / 1_000.0;
                progress.advance(r + 1);
            }
        } finally {
            progress.end();
        }
        return result(us, last.aggregate());
    }

    private static BenchmarkResult result(double[] us, RunReport last) {
        int rounds = us.length;
        double[] sorted = us.clone();
        Arrays.sort(sorted);
        double median = rounds % 2 == 1 ? sorted[rounds / 2] : (sorted[rounds / 2 - 1] + sorted[rounds / 2]) / 2;
        return new BenchmarkResult(rounds, sorted[0], median, Arrays.stream(us).average().orElseThrow(),
                sorted[rounds - 1], last);
    }
}
