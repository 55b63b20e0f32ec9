package dev.jpto.compiler;

import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.CallConfig;
import dev.jpto.runtime.Chip;
import dev.jpto.runtime.RunReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * L3: several chips in one host. Job {@code i} runs on device {@code config.deviceId() + i} of
 * {@code config.platform()}, all concurrently, every chip with the same CallConfig from the one RunConfig.
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

    /**
     * Runs every job and returns their reports in job order. If any job fails, the first failure (in job order)
     * is thrown with the others attached as suppressed exceptions; every chip is closed either way.
     */
    public static List<RunReport> run(List<Job> jobs, RunConfig config) {
        if (jobs.isEmpty()) {
            throw new IllegalArgumentException("distributed run needs at least one job");
        }
        CallConfig call = Dispatch.callConfig(config);
        for (Job j : jobs) {
            ProgramArgs.bind(j.program().program(), j.args());
        }
        List<Chip> chips = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(jobs.size())) {
            for (int i = 0; i < jobs.size(); i++) {
                chips.add(Dispatch.open(config.withDeviceId(config.deviceId() + i)));
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
