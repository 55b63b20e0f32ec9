package dev.jpto.compiler.launch;

import dev.jpto.compiler.run.BenchmarkResult;
import dev.jpto.compiler.CompiledProgram;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.CallConfig;
import dev.jpto.runtime.chip.Chip;
import dev.jpto.runtime.RunReport;
import java.util.Arrays;
import java.util.Map;

/**
 * Times a program: one warm-up run, then {@code rounds} runs on the same chip, every one with the same
 * CallConfig (ring sizing included — a benchmark that sized only the warm-up would move a deadlock, not
 * remove it).
 */
public final class Benchmark {
    public static final int WARMUP_ROUNDS = 1;

    private Benchmark() {
    }

    public static BenchmarkResult run(CompiledProgram program, Map<String, Tensor> args, RunConfig config, int rounds) {
        if (rounds < 1) {
            throw new IllegalArgumentException("benchmark rounds must be >= 1: rounds=" + rounds + " (try 10)");
        }
        CallConfig call = Dispatch.callConfig(config, program);
        double[] us = new double[rounds];
        RunReport last = null;
        try (Chip chip = Dispatch.open(config)) {
            for (int w = 0; w < WARMUP_ROUNDS; w++) {
                Dispatch.run(chip, program, args, call);
            }
            for (int r = 0; r < rounds; r++) {
                last = Dispatch.run(chip, program, args, call).withDeviceTimeResolved(); // read after close
                us[r] = last.elapsedNanos() / 1_000.0;
            }
        }
        double[] sorted = us.clone();
        Arrays.sort(sorted);
        double median = rounds % 2 == 1 ? sorted[rounds / 2] : (sorted[rounds / 2 - 1] + sorted[rounds / 2]) / 2;
        return new BenchmarkResult(rounds, sorted[0], median, Arrays.stream(us).average().orElseThrow(),
                sorted[rounds - 1], last);
    }
}
