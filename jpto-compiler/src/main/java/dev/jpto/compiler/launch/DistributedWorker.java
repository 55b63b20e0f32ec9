package dev.jpto.compiler.launch;

import dev.jpto.compiler.CompiledL3Program;
import dev.jpto.compiler.CompiledProgram;
import dev.jpto.compiler.l3.L3Report;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.chip.Chip;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Holds {@code chips} open simulated chips (devices {@code config.deviceId()} and up) and runs L3 programs on them
 * repeatedly — pypto's {@code DistributedWorker}, the L3 counterpart of {@link ChipWorker}: chips keep their rings
 * between runs of the same sizes, so only the first run pays for setting them up. Each run's CallConfigs come from
 * its RunConfig through {@code CallConfigs.from}; the RunConfig must name this worker's chips.
 *
 * <pre>{@code
 * try (DistributedWorker w = DistributedWorker.open(config, 2)) {
 *     for (int round = 0; round < 10; round++) {
 *         L3Report r = w.run(compiledL3, args);
 *     }
 * }
 * }</pre>
 */
public final class DistributedWorker implements AutoCloseable {
    private final RunConfig opened;
    private final Chip[] chips;
    private final ExecutorService[] threads;
    private boolean broken;

    private DistributedWorker(RunConfig opened, Chip[] chips, ExecutorService[] threads) {
        this.opened = opened;
        this.chips = chips;
        this.threads = threads;
    }

    /** Opens {@code chips} chips: {@code config}'s platform and os_env, devices deviceId .. deviceId+chips-1. */
    public static DistributedWorker open(RunConfig config, int chips) {
        if (chips < 1) {
            throw new IllegalArgumentException("an L3 run needs at least one chip: chips=" + chips + " (try 2)");
        }
        DistributedRunner.checkChips(chips, config.deviceId());
        Chip[] open = new Chip[chips];
        ExecutorService[] threads = new ExecutorService[chips];
        try {
            for (int c = 0; c < chips; c++) {
                int device = config.deviceId() + c;
                open[c] = Dispatch.open(config.withDeviceId(device), chips);
                threads[c] = Executors.newSingleThreadExecutor(r -> {
                    Thread t = new Thread(r, "jpto-l3-device-" + device);
                    t.setDaemon(true);
                    return t;
                });
            }
        } catch (RuntimeException e) {
            new DistributedWorker(config, open, threads).close();
            throw e;
        }
        return new DistributedWorker(config, open, threads);
    }

    /** How many chips this worker holds. */
    public int chips() {
        return chips.length;
    }

    /** Runs with the config this worker was opened with. */
    public L3Report run(CompiledL3Program program, Map<String, Tensor> args) {
        return run(program, args, opened);
    }

    /**
     * Runs {@code program} once on this worker's chips; {@code config} must name them (platform, first device,
     * os_env). See {@link DistributedRunner#run(CompiledL3Program, Map, RunConfig, int)} for what a run does.
     */
    public synchronized L3Report run(CompiledL3Program program, Map<String, Tensor> args, RunConfig config) {
        if (broken) {
            throw new IllegalStateException("this L3 worker is unusable: a chip call of an earlier run never "
                    + "finished; close it and open a new one");
        }
        for (int c = 0; c < chips.length; c++) {
            Dispatch.checkSameChip(chips[c], config.withDeviceId(config.deviceId() + c));
        }
        L3Execution run = new L3Execution(program, config, chips, threads);
        try {
            return run.run(args);
        } finally {
            broken = run.stuck();
        }
    }

    @Override
    public synchronized void close() {
        for (int c = 0; c < chips.length; c++) {
            if (threads[c] != null) {
                threads[c].shutdownNow();
            }
            // a chip still running a call is abandoned: close() would wait for the call
            if (chips[c] != null && !broken) {
                chips[c].close();
            }
        }
    }
}
