package dev.jpto.tools.fuzz;

import dev.jpto.compiler.CompiledProgram;
import dev.jpto.compiler.Compiler;
import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.compiler.launch.ChipWorker;
import dev.jpto.compiler.plan.RingPlanner;
import dev.jpto.compiler.run.CallConfigs;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.ErrorCode;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.RunReport;
import dev.jpto.runtime.RuntimeEnv;
import dev.jpto.runtime.io.OwnedFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs fuzz cases the way a user runs a program: compile to a work dir, load it back, run it on a chip through
 * {@link ChipWorker} (the RunConfig becomes the CallConfig in {@code CallConfigs.from}), and compare the outputs
 * with a sequential reference. Chips are kept open between cases (one per platform), as a long-lived worker
 * would, so every case also checks that the chip is fine after the previous case's failure.
 *
 * <p>Each chip run has a deadline; a run that has not returned by then is a {@link Outcome.Kind#HANG} (its chip
 * is abandoned and a new one opened). A {@link ChipRuntimeException} with a ring code (task window, heap, dep
 * pool, scope, TensorMap) is expected when the static ring plan ({@link RingPlanner}) says the case's sizes do
 * not cover the program; any other error, or a ring error although the plan says the sizes suffice, is a
 * finding.
 */
public final class FuzzRunner implements AutoCloseable {
    /** Errors small rings legitimately cause. */
    public static final Set<ErrorCode> RING_CODES = EnumSet.of(ErrorCode.SCOPE_DEADLOCK,
            ErrorCode.HEAP_RING_DEADLOCK, ErrorCode.FLOW_CONTROL_DEADLOCK, ErrorCode.DEP_POOL_OVERFLOW,
            ErrorCode.SCOPE_TASKS_OVERFLOW, ErrorCode.TENSORMAP_OVERFLOW);

    /** The sequential meaning of a program: runs it on {@code args} in place, returns its task count. */
    @FunctionalInterface
    public interface Reference {
        int run(Program program, Map<String, Tensor> args);
    }

    /**
     * How long an interrupted case waits for its chip run to stop: within the CLI's Ctrl-C bound (800 ms), with
     * room for the session's clean-up (a chip run stops in 83–699 ms measured).
     */
    static final Duration STOP_BOUND = Duration.ofMillis(500);

    private final Path workRoot;
    private final Duration deadline;
    private final Reference reference;
    private final Map<Platform, ChipWorker> workers = new EnumMap<>(Platform.class);
    private ExecutorService orchestrator = newOrchestrator();
    private long cases;

    /**
     * @param workRoot  where work dirs are written (one per case, deleted after it)
     * @param deadline  how long one chip run may take before it counts as a hang
     * @param reference the expected results ({@link ReferenceExecutor#run} unless a test injects a fault)
     */
    public FuzzRunner(Path workRoot, Duration deadline, Reference reference) {
        if (deadline.isNegative() || deadline.isZero()) {
            throw new IllegalArgumentException("the per-program deadline must be positive: " + deadline);
        }
        this.workRoot = workRoot;
        this.deadline = deadline;
        this.reference = reference;
    }

    public FuzzRunner(Path workRoot, Duration deadline) {
        this(workRoot, deadline, ReferenceExecutor::run);
    }

    public Duration deadline() {
        return deadline;
    }

    /**
     * Runs {@code c} once and says how it ended. Never throws for anything the case does.
     *
     * @throws CancellationException when the calling thread is interrupted while the chip runs (the interrupt
     *                               status is kept)
     */
    public Outcome run(FuzzCase c) {
        Path dir = workRoot.resolve("case-" + cases++);
        try {
            return run(c, dir);
        } finally {
            delete(dir);
        }
    }

    /** Compiles {@code c} into {@code dir} (kept), as a reproducer does; returns the work dir. */
    public static Path writeWorkDir(FuzzCase c, Path dir) {
        Compiler.compile(c.program(), dir);
        return dir;
    }

    private Outcome run(FuzzCase c, Path dir) {
        CompiledProgram compiled;
        try {
            Compiler.compile(c.program(), dir);
            compiled = CompiledProgram.load(dir);
        } catch (RuntimeException e) {
            return unexpected("compile/load", e);
        }
        Arena arena = Arena.ofShared();
        boolean release = true;
        try {
            Map<String, Tensor> expected = FuzzInputs.create(arena, c.program(), c.seed());
            int tasks;
            try {
                tasks = reference.run(c.program(), expected);
            } catch (RuntimeException e) {
                return unexpected("reference", e);
            }
            Map<String, Tensor> actual = FuzzInputs.create(arena, c.program(), c.seed());
            Platform platform = c.config().platform();
            ChipWorker worker = worker(platform);
            Future<RunReport> run = orchestrator.submit(() -> worker.run(compiled, actual, c.config()));
            RunReport report;
            try {
                report = run.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                release = false; // the stuck run may still touch the tensors: never free them
                abandon(platform);
                return new Outcome.Finding(Outcome.Kind.HANG, null, "no result within " + deadline.toMillis()
                        + " ms");
            } catch (ExecutionException e) {
                return failed(c, e.getCause());
            } catch (InterruptedException e) {
                // the host was interrupted (Ctrl-C), not the program: stop the chip run, no outcome
                release = stop(run, platform);
                Thread.currentThread().interrupt();
                throw new CancellationException("interrupted while program seed " + c.seed() + " ran on the chip");
            }
            return compare(c.program(), expected, actual, tasks, report);
        } finally {
            if (release) {
                arena.close();
            }
        }
    }

    private Outcome failed(FuzzCase c, Throwable cause) {
        if (cause instanceof ChipRuntimeException e) {
            if (!RING_CODES.contains(e.error())) {
                return new Outcome.Finding(Outcome.Kind.UNEXPECTED_ERROR, e.error(), e.getMessage());
            }
            RuntimeEnv env = CallConfigs.from(c.config(), c.program()).runtimeEnv();
            if (!RingShortage.explains(e.error(), RingPlanner.plan(c.program()), env)) {
                return new Outcome.Finding(Outcome.Kind.UNEXPECTED_ERROR, e.error(), "the static ring plan says the "
                        + "sizes in force cover the program (" + env + "), yet: " + e.getMessage());
            }
            return new Outcome.ExpectedError(e.error(), e.getMessage());
        }
        return unexpected("run", cause);
    }

    private static Outcome unexpected(String stage, Throwable e) {
        return new Outcome.Finding(Outcome.Kind.UNEXPECTED_ERROR, null, stage + " " + e.getClass().getName() + ": "
                + e.getMessage());
    }

    private static Outcome compare(Program p, Map<String, Tensor> expected, Map<String, Tensor> actual, int tasks,
                                   RunReport report) {
        if (report.tasksExecuted() != tasks) {
            return new Outcome.Finding(Outcome.Kind.WRONG_RESULT, null, "the chip ran " + report.tasksExecuted()
                    + " tasks, the reference " + tasks);
        }
        for (TensorDecl d : p.outputs()) {
            double[] want = expected.get(d.name()).toDoubleArray();
            double[] got = actual.get(d.name()).toDoubleArray();
            for (int i = 0; i < want.length; i++) {
                boolean same = Double.isNaN(want[i]) ? Double.isNaN(got[i])
                        : Double.doubleToRawLongBits(want[i]) == Double.doubleToRawLongBits(got[i]);
                if (!same) {
                    long cols = d.shape()[d.rank() - 1];
                    return new Outcome.Finding(Outcome.Kind.WRONG_RESULT, null, "output '" + d.name() + "' element ["
                            + i / cols + ", " + i % cols + "] is " + got[i] + ", the reference has " + want[i]);
                }
            }
        }
        for (RunReport.Ring r : report.rings()) {
            if (r.taskWindowMax() > r.taskWindow() - 1 || r.heapMax() > r.heapBytes() || r.depPoolMax() > r.depPool()) {
                return new Outcome.Finding(Outcome.Kind.WRONG_RESULT, null, "ring " + r.ring()
                        + " high-water marks exceed its sizes: " + r);
            }
        }
        return new Outcome.Pass(tasks);
    }

    private ChipWorker worker(Platform platform) {
        return workers.computeIfAbsent(platform, p -> ChipWorker.open(RunConfig.defaults().withPlatform(p)));
    }

    /**
     * Cancels {@code run} (interrupting its thread stops the chip run with CANCELLED) and waits up to
     * {@link #STOP_BOUND} for it to end; a run that has not ended by then is abandoned.
     *
     * @return true if the run ended, so its tensors may be freed
     */
    private boolean stop(Future<RunReport> run, Platform platform) {
        run.cancel(true);
        orchestrator.shutdown();
        boolean ended;
        try {
            ended = orchestrator.awaitTermination(STOP_BOUND.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            ended = false;
        }
        if (ended) {
            orchestrator = newOrchestrator();
        } else {
            abandon(platform);
        }
        return ended;
    }

    /** A chip whose run never returned cannot be closed (the run holds it): drop it and its thread. */
    private void abandon(Platform platform) {
        workers.remove(platform);
        orchestrator.shutdownNow();
        orchestrator = newOrchestrator();
    }

    private static ExecutorService newOrchestrator() {
        return Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "jpto-fuzz-orchestrator");
            t.setDaemon(true);
            return t;
        });
    }

    private static void delete(Path dir) {
        try {
            OwnedFiles.deleteTree(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete fuzz work dir " + dir, e);
        }
    }

    @Override
    public void close() {
        orchestrator.shutdownNow();
        for (ChipWorker w : workers.values()) {
            w.close();
        }
        workers.clear();
    }
}
