package dev.jpto.compiler.launch;

import dev.jpto.compiler.CompiledL3Program;
import dev.jpto.compiler.CompiledProgram;
import dev.jpto.compiler.l3.L3Program;
import dev.jpto.compiler.l3.L3Report;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.CallConfig;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.chip.Chip;
import dev.jpto.runtime.RunReport;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * L3: several simulated chips in one host (pypto's {@code distributed_runner}). An {@link L3Program} runs on
 * {@code chips} chips, devices {@code config.deviceId()} .. {@code config.deviceId() + chips - 1} of
 * {@code config.platform()}: every ready chip call is dispatched at once to its chip (one call per chip at a time),
 * and every call's CallConfig comes from {@code CallConfigs.from} of the one RunConfig, so a ring size in the
 * RunConfig (a scalar {@code ring_heap}, say) reaches every ring of every chip. Chips read and write the host
 * tensors in place. A failed call stops the run: nothing more is dispatched, calls already running finish, and the
 * failure is thrown with the device id and call in its message ({@link ChipRuntimeException} keeps the code).
 *
 * <pre>{@code
 * L3Report r = DistributedRunner.run(l3Program, Map.of("a", a, "b", b, "c", c),
 *         RunConfig.defaults().withRingHeap(1L << 30), 2);
 * r.lines().forEach(System.out::println); // one line per device: calls, runtime, heap high-water
 * }</pre>
 *
 * <p>The number of chips is a run argument, not a RunConfig field: like pypto's {@code DistributedConfig.device_ids},
 * it belongs to the L3 dispatch (the program gives a default, {@link L3Program#chips()}), while RunConfig stays the
 * per-chip call configuration.
 *
 * <p>{@link DistributedWorker} keeps the chips open for repeated runs (benchmarks). {@link #run(List, RunConfig)}
 * is the simple form: independent jobs, one per chip.
 */
public final class DistributedRunner {
    /** One chip's work: a program and its tensors. */
    public record Job(CompiledProgram program, Map<String, Tensor> args) {
        public Job {
            args = Map.copyOf(args);
        }
    }

    private DistributedRunner() {
    }

    /** Compiles {@code program}'s chip programs in memory and runs it on its default number of chips. */
    public static L3Report run(L3Program program, Map<String, Tensor> args, RunConfig config) {
        return run(CompiledL3Program.compile(program), args, config, program.chips());
    }

    /** Compiles {@code program}'s chip programs in memory and runs it on {@code chips} chips. */
    public static L3Report run(L3Program program, Map<String, Tensor> args, RunConfig config, int chips) {
        return run(CompiledL3Program.compile(program), args, config, chips);
    }

    /** Runs {@code program} on its default number of chips ({@link L3Program#chips()}). */
    public static L3Report run(CompiledL3Program program, Map<String, Tensor> args, RunConfig config) {
        return run(program, args, config, program.program().chips());
    }

    /**
     * Runs {@code program} once on {@code chips} chips: {@code args} holds one tensor per host input and output
     * (outputs are written in place); scratch tensors are allocated for the run.
     *
     * @throws IllegalArgumentException for bad arguments, an invalid config, or a call pinned to a chip the run
     *                                  does not have (nothing runs)
     * @throws ChipRuntimeException     when a chip call fails; the message names the device and the call
     */
    public static L3Report run(CompiledL3Program program, Map<String, Tensor> args, RunConfig config, int chips) {
        if (chips < 1) {
            throw new IllegalArgumentException("an L3 run needs at least one chip: chips=" + chips + " (try "
                    + program.program().chips() + ", the program's default)");
        }
        checkChips(chips, config.deviceId());
        try (DistributedWorker worker = DistributedWorker.open(config, chips)) {
            return worker.run(program, args, config);
        }
    }

    /**
     * Removes the DFX outputs an L3 run wrote under {@code prefix} (one directory per device and call), and only
     * them, so that a reused output dir holds one run's diagnostics.
     */
    public static void removeDfxOutputs(Path prefix) throws IOException {
        L3Execution.removeDfxOutputs(prefix);
    }

    /** Whether {@code name}, directly under {@code output_prefix}, is a directory of an L3 run's DFX outputs. */
    public static boolean isDfxOutputName(String name) {
        return L3Execution.isDeviceDir(name);
    }

    /**
     * Refuses a chip count outside 1..{@link L3Program#MAX_CHIPS}, or one whose devices {@code firstDevice} ..
     * {@code firstDevice + chips - 1} run past the largest device id; callers check before the first stage.
     *
     * @throws IllegalArgumentException naming the count, the first device and the bound
     */
    public static void checkChips(int chips, int firstDevice) {
        if (chips < 1 || chips > L3Program.MAX_CHIPS) {
            throw new IllegalArgumentException("an L3 run takes 1.." + L3Program.MAX_CHIPS + " chips: chips=" + chips
                    + " (try 2)");
        }
        try {
            Math.addExact(firstDevice, chips - 1);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(chips + " chips from device " + firstDevice + " need device ids up to "
                    + ((long) firstDevice + chips - 1) + ", past the largest device id " + Integer.MAX_VALUE
                    + " (use device " + (Integer.MAX_VALUE - chips + 1) + " or lower)", e);
        }
    }

    /**
     * Runs every job and returns their reports in job order. If any job fails, the first failure (in job order)
     * is thrown with the others attached as suppressed exceptions; every chip is closed either way.
     */
    public static List<RunReport> run(List<Job> jobs, RunConfig config) {
        if (jobs.isEmpty()) {
            throw new IllegalArgumentException("distributed run needs at least one job");
        }
        checkChips(jobs.size(), config.deviceId());
        CallConfig call = Dispatch.callConfig(config, jobs.stream().map(Job::program).toList());
        for (Job j : jobs) {
            ProgramArgs.bind(j.program().program(), j.args());
        }
        List<Chip> chips = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(jobs.size())) {
            for (int i = 0; i < jobs.size(); i++) {
                chips.add(Dispatch.open(config.withDeviceId(config.deviceId() + i), jobs.size()));
            }
            List<Future<RunReport>> futures = new ArrayList<>();
            for (int i = 0; i < jobs.size(); i++) {
                Chip chip = chips.get(i);
                Job job = jobs.get(i);
                futures.add(pool.submit(() -> Dispatch.run(chip, job.program(), job.args(), call)));
            }
            return collect(futures);
        } finally {
            for (Chip c : chips) {
                c.close();
            }
        }
    }

    private static List<RunReport> collect(List<Future<RunReport>> futures) {
        List<RunReport> reports = new ArrayList<>();
        RuntimeException first = null;
        for (Future<RunReport> f : futures) {
            try {
                reports.add(f.get());
            } catch (ExecutionException e) {
                RuntimeException failure = e.getCause() instanceof RuntimeException re ? re
                        : new IllegalStateException("distributed job failed", e.getCause());
                if (first == null) {
                    first = failure;
                } else {
                    first.addSuppressed(failure);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for distributed jobs", e);
            }
        }
        if (first != null) {
            throw first;
        }
        return reports;
    }
}
