package dev.jpto.lib.runner;

import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.compiler.run.BenchmarkResult;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.Tensor;
import dev.jpto.lib.registry.InputSpec;
import dev.jpto.lib.registry.ProgramSpec;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.ErrorCode;
import dev.jpto.runtime.RunReport;
import dev.jpto.runtime.Sizes;
import dev.jpto.runtime.TaskCounts;
import dev.jpto.runtime.chip.HostArena;
import dev.jpto.runtime.io.OwnedFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The golden runner (pypto-lib's {@code run_jit}): compile → generate inputs → compute golden → runtime →
 * [benchmark] → validate, each stage logged with its time, then one {@code '<name>' PASS|FAIL} line per output and
 * a last line {@code [RUN] PASS (1.23s)} or {@code [RUN] FAIL …}.
 *
 * <p>The runtime stage takes the normal path: compile to a work dir, load it, run it. The RunConfig comes from
 * {@code runtimeCfg} through {@link RunConfig#fromMap} (RunConfig's own keys; unknown keys are refused with the
 * valid ones), and the benchmark's dispatches use the very same RunConfig, platform and device included.
 *
 * <p>An L3 program ({@link ProgramSpec#l3()}) takes the same stages: its work dir holds every chip program and the
 * host orchestration, the runtime stage runs it on {@link RunSpec#chips()} chips through
 * {@code DistributedRunner} and prints one {@code [L3] device N: …} line per chip, and the benchmark times whole
 * L3 runs on one {@code DistributedWorker}.
 */
public final class GoldenRunner {
    private GoldenRunner() {
    }

    /**
     * Runs {@code program} as {@code spec} says, with {@code runtimeCfg} over the program's default runtime_cfg.
     *
     * @return the outcome; a validation failure is a result with {@code passed() == false}, not an exception
     * @throws JitConfigException  when the configuration is refused, or the run would not fit: its tensors over
     *         {@link RunSpec#memory()}, an output dir not writable or too full, a chip count out of range (nothing
     *         ran on the chip; these are checked before the first stage)
     * @throws ChipRuntimeException when the chip run fails (e.g. HEAP_RING_DEADLOCK); the log's last line says so
     * @throws java.util.concurrent.CancellationException when the calling thread is interrupted between stages (a
     *         chip run in progress stops with {@link ErrorCode#CANCELLED} instead)
     */
    public static RunResult runJit(ProgramSpec program, RunSpec spec, Map<String, String> runtimeCfg) {
        RunConfig config = RuntimeCfg.resolve(program.runtimeCfg(), runtimeCfg, spec.platform(), spec.deviceId());
        Preflight checks = preflight(program, spec).outputPrefix(config);
        program.l3().ifPresent(l3 -> checks.chips(spec.chips() > 0 ? spec.chips() : l3.chips(), config.deviceId()));
        checks.check(spec.memory());
        // before the first stage: saved tensors that do not fit this run are refused before anything is written
        Optional<Replay> replay = spec.reuse().map(dir -> Replay.check(dir, program, spec.seed()));
        StageLog log = new StageLog(spec.out(), spec.progress());
        Map<String, String> cfgShown = new TreeMap<>(program.runtimeCfg());
        cfgShown.putAll(runtimeCfg);
        log.line("[RUN] " + program.programName() + " preset=" + program.preset() + " seed=" + spec.seed()
                + " platform=" + config.platform().text() + " device=" + config.deviceId()
                + (cfgShown.isEmpty() ? "" : " runtime_cfg=" + cfgShown));
        boolean keep = spec.outputDir().isPresent();
        spec.outputDir().ifPresent(RunOutputDir::removeEarlierRun);
        Path workDir = keep ? spec.outputDir().get().resolve(RunOutputDir.WORK_DIR) : tempDir();
        try (Arena arena = HostArena.ofShared()) {
            return stages(program, spec, config, log, workDir, arena, replay);
        } finally {
            if (!keep) {
                deleteTree(workDir);
            }
        }
    }

    /**
     * What {@link #stages} allocates and writes, for the checks before the first stage: the inputs; per output the
     * golden's and the chip's buffers, the initial value of one updated in place and the benchmark's copy; an L3
     * program's scratch; and with saved tensors, their files under the output dir.
     */
    private static Preflight preflight(ProgramSpec program, RunSpec spec) {
        Preflight p = new Preflight();
        List<TensorDecl> saved = new ArrayList<>();
        for (InputSpec in : program.inputs()) {
            TensorDecl d = new TensorDecl(in.name(), in.dtype(), in.shape());
            p.tensor("input", d, 1);
            saved.add(d);
        }
        for (TensorDecl d : program.outputs()) {
            boolean initial = program.outputFills().containsKey(d.name());
            p.tensor("output", d, 2 + (initial ? 1 : 0) + (spec.benchRounds() > 0 ? 1 : 0));
            saved.addAll(initial ? List.of(d, d, d) : List.of(d, d)); // inputs/ (initial value), golden/, outputs/
        }
        program.l3().ifPresent(l3 -> l3.scratch().forEach(t -> p.tensor("scratch",
                new TensorDecl(t.name(), t.dtype(), t.shape()), 1)));
        spec.outputDir().ifPresent(dir -> p.output("--output-dir", dir, spec.saveTensors() ? saved : List.of()));
        return p;
    }

    private static RunResult stages(ProgramSpec program, RunSpec spec, RunConfig config, StageLog log, Path workDir,
                                    Arena arena, Optional<Replay> replay) {
        long s = log.begin("compile");
        RunTarget compiled = RunTarget.compile(program, config.platform(), workDir, spec.chips());
        if (spec.outputDir().isPresent()) { // a kept work dir runs under 'jpto exec' as it did here
            DefaultRuntimeCfg.write(workDir, program.runtimeCfg());
        }
        log.done("compile", s, compiled.summary() + ", work dir " + workDir);

        Map<String, Tensor> inputs;
        Map<String, Tensor> initial;
        Map<String, Tensor> golden;
        if (replay.isPresent()) {
            s = log.begin("load inputs");
            inputs = replay.get().inputs(arena);
            initial = replay.get().initialOutputs(arena);
            log.done("load inputs", s, "inputs from " + replay.get().dir() + " (reused): " + inputs.size()
                    + " tensor(s), " + Sizes.approx(bytes(inputs) + bytes(initial)) + "; meta.json and the files' "
                    + "SHA-256 checked before the first stage in " + StageLog.seconds(replay.get().checkNanos()));
            s = log.begin("load golden");
            golden = replay.get().golden(arena);
            log.done("load golden", s, "golden from " + replay.get().dir() + " (reused)");
        } else {
            s = log.begin("generate inputs");
            java.util.concurrent.atomic.AtomicLong filled = new java.util.concurrent.atomic.AtomicLong();
            long toFill = InputGeneration.totalBytes(program);
            spec.progress().counting("generate inputs", filled::get, () -> toFill, Progress.BYTES);
            inputs = InputGeneration.inputs(program, spec.seed(), arena, filled::addAndGet);
            log.done("generate inputs", s, inputs.size() + " tensor(s), " + Sizes.approx(bytes(inputs)));

            // outputs updated in place start from their fill, in the golden's tensors and the chip's alike
            initial = InputGeneration.initialOutputs(program, spec.seed(), arena);

            s = log.begin("compute golden");
            golden = outputs(program.outputs(), initial, arena);
            program.golden().compute(Map.copyOf(inputs), golden);
            log.done("compute golden", s, "");
        }
        Optional<Path> tensorDir = spec.saveTensors() ? spec.outputDir() : Optional.empty();
        tensorDir.ifPresent(dir -> {
            Map<String, Tensor> saved = new LinkedHashMap<>(inputs);
            saved.putAll(initial);
            // an output a chip program reads without a fill starts from zeros: saved too, so exec has all it reads
            if (program.l3().isEmpty()) {
                InPlaceOutputs.of(program.program()).forEach(n -> saved.computeIfAbsent(n,
                        k -> zeros(program.outputs(), k, arena)));
            }
            TensorFiles.write(dir.resolve(RunOutputDir.INPUTS), saved);
            TensorFiles.write(dir.resolve(RunOutputDir.GOLDEN), golden);
            TensorMeta.write(dir, program.programName(), program.preset(), spec.seed(), saved, golden);
        });

        Map<String, Tensor> actual = outputs(program.outputs(), initial, arena);
        Map<String, Tensor> args = new LinkedHashMap<>(inputs);
        args.putAll(actual);
        s = log.begin("runtime");
        RunTarget.Ran ran = onChip(log, config, () -> TaskCounts.observing(countTasks(spec.progress()),
                () -> compiled.run(args, config)));
        RunReport report = ran.report();
        log.done("runtime", s, report.tasksExecuted() + " tasks, " + (ran.l3().isPresent() ? "L3 wall " : "chip ")
                + micros(report.elapsedNanos()) + deviceField(report) + ", heap high-water " + heapHighWater(report));
        // L3: one line per chip (device id, calls, runtime stage time, heap high-water)
        ran.l3().ifPresent(l3 -> l3.lines().forEach(log::line));
        tensorDir.ifPresent(dir -> TensorFiles.write(dir.resolve(RunOutputDir.OUTPUTS), actual));
        List<Path> dfxFiles = new ArrayList<>(report.dfxFiles());
        report.scopeStatsFile().ifPresent(dfxFiles::add);
        dfxLines(log, config, dfxFiles);

        Optional<BenchmarkResult> bench = Optional.empty();
        if (spec.benchRounds() > 0) {
            s = log.begin("benchmark");
            // copies, so the benchmark's writes cannot touch the outputs that are validated below
            Map<String, Tensor> benchArgs = new LinkedHashMap<>(inputs);
            benchArgs.putAll(outputs(program.outputs(), initial, arena));
            BenchmarkResult b = onChip(log, config, () -> compiled.bench(benchArgs, config, spec.benchRounds(),
                    spec.progress()));
            log.done("benchmark", s, b.rounds() + " rounds after " + BenchLoop.WARMUP_ROUNDS + " warm-up");
            b.lines().forEach(log::line);
            bench = Optional.of(b);
        }

        s = log.begin("validate");
        List<OutputCheck> checks = Validation.check(program.comparatorsInOrder(), actual, golden, inputs);
        long skipped = checks.stream().filter(OutputCheck::skipped).count();
        log.done("validate", s, (checks.size() - skipped) + " output(s)" + (skipped > 0 ? ", " + skipped
                + " not validated" : ""));
        for (OutputCheck c : checks) {
            log.line(c.line());
        }
        tensorDir.ifPresent(dir -> log.line("[RUN] tensors saved under " + dir
                + " (inputs/, outputs/, golden/, " + TensorMeta.FILE + ")"));
        boolean passed = Validation.passed(checks);
        log.line(Validation.verdict(checks, StageLog.seconds(log.elapsed())));
        return new RunResult(program.programName(), program.preset(), passed, checks, log.stages(), log.elapsed(),
                report, bench, spec.outputDir().map(d -> workDir), ran.l3());
    }

    /**
     * Where the DFX outputs went, and for enable_pmu the per-kernel table of {@code pmu.csv}. With {@code --bench},
     * every benchmark round runs with the same flags, so the files on disk end up being the last round's.
     */
    private static void dfxLines(StageLog log, RunConfig config, List<Path> files) {
        DfxReport.lines(config.outputPrefix(), files, config.platform()).forEach(log::line);
    }

    /** Shows a chip run's tasks completed of those submitted so far (one chip program's run; not L3's chips). */
    private static TaskCounts.Watcher countTasks(Progress progress) {
        return new TaskCounts.Watcher() {
            @Override
            public void started(LongSupplier completed, LongSupplier submitted) {
                progress.counting("runtime", completed, submitted, Progress.TASKS);
            }

            @Override
            public void ended() {
            }
        };
    }

    /**
     * Runs a chip dispatch; a failure ends the log with {@code [RUN] FAIL runtime error …} and the diagnostic files
     * the failed run wrote, and is rethrown.
     */
    private static <T> T onChip(StageLog log, RunConfig config, Supplier<T> dispatch) {
        try {
            return dispatch.get();
        } catch (ChipRuntimeException e) {
            String code = e.orchErrorCode() != 0 ? "orch_error_code=" + e.orchErrorCode()
                    : "sched_error_code=" + e.schedErrorCode();
            String outcome = e.error() == ErrorCode.CANCELLED ? "CANCELLED (" + StageLog.seconds(log.elapsed())
                    + ") the chip run was stopped: " : "FAIL (" + StageLog.seconds(log.elapsed()) + ") runtime error ";
            log.line("[RUN] " + outcome + code + " " + e.error().name());
            dfxLines(log, config, e.diagnosticFiles());
            throw e;
        } catch (IllegalArgumentException e) {
            // the dispatch surfaces refuse bad arguments or configs before anything runs
            throw new JitConfigException(e.getMessage(), e);
        }
    }

    /** Fresh output tensors: a copy of the initial contents where there are some, else zeros. */
    private static Map<String, Tensor> outputs(List<TensorDecl> decls, Map<String, Tensor> initial, Arena arena) {
        Map<String, Tensor> out = new LinkedHashMap<>();
        for (TensorDecl d : decls) {
            Tensor t = Tensor.allocate(arena, d.dtype(), d.shape());
            Tensor init = initial.get(d.name());
            if (init != null) {
                // both freshly allocated, contiguous, same dtype: a bit-exact bulk copy
                MemorySegment.copy(init.buffer(), 0, t.buffer(), 0, t.byteSize());
            }
            out.put(d.name(), t);
        }
        return out;
    }

    private static Tensor zeros(List<TensorDecl> outputs, String name, Arena arena) {
        TensorDecl d = outputs.stream().filter(o -> o.name().equals(name)).findFirst().orElseThrow();
        return Tensor.allocate(arena, d.dtype(), d.shape());
    }

    private static long bytes(Map<String, Tensor> tensors) {
        return tensors.values().stream().mapToLong(Tensor::byteSize).sum();
    }

    private static String heapHighWater(RunReport report) {
        RunReport.Ring max = report.rings().stream().max(Comparator.comparingLong(RunReport.Ring::heapMax))
                .orElseThrow();
        return Sizes.approx(max.heapMax()) + " of " + Sizes.format(max.heapBytes()) + " (ring " + max.ring() + ")";
    }

    /** {@code , device_us=… (estimated)}, or nothing for a report without a device estimate (an L3 run's whole). */
    private static String deviceField(RunReport report) {
        String f = report.deviceField();
        return f.isEmpty() ? "" : ", " + f;
    }

    private static String micros(long nanos) {
        return String.format(Locale.ROOT, "%.1f us", nanos / 1e3);
    }

    private static Path tempDir() {
        try {
            return Files.createTempDirectory("jpto-run-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary work dir: " + e.getMessage(), e);
        }
    }

    private static void deleteTree(Path root) {
        try {
            OwnedFiles.deleteTree(root);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove the temporary work dir " + root + ": " + e.getMessage(), e);
        }
    }
}
