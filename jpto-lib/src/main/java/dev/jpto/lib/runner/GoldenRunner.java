package dev.jpto.lib.runner;

import dev.jpto.compiler.BenchmarkResult;
import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.Tensor;
import dev.jpto.lib.compare.CompareContext;
import dev.jpto.lib.compare.CompareResult;
import dev.jpto.lib.compare.GoldenComparator;
import dev.jpto.lib.registry.NotValidated;
import dev.jpto.lib.registry.ProgramSpec;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.ErrorCode;
import dev.jpto.runtime.RunReport;
import dev.jpto.runtime.Sizes;
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
import java.util.function.Supplier;
import java.util.stream.Stream;

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
     * @throws JitConfigException  when the configuration is refused (nothing ran on the chip)
     * @throws ChipRuntimeException when the chip run fails (e.g. HEAP_RING_DEADLOCK); the log's last line says so
     * @throws java.util.concurrent.CancellationException when the calling thread is interrupted between stages (a
     *         chip run in progress stops with {@link ErrorCode#CANCELLED} instead)
     */
    public static RunResult runJit(ProgramSpec program, RunSpec spec, Map<String, String> runtimeCfg) {
        RunConfig config = RuntimeCfg.resolve(program.runtimeCfg(), runtimeCfg, spec.platform(), spec.deviceId());
        StageLog log = new StageLog(spec.out(), spec.progress());
        Map<String, String> cfgShown = new TreeMap<>(program.runtimeCfg());
        cfgShown.putAll(runtimeCfg);
        log.line("[RUN] " + program.programName() + " preset=" + program.preset() + " seed=" + spec.seed()
                + " platform=" + config.platform().text() + " device=" + config.deviceId()
                + (cfgShown.isEmpty() ? "" : " runtime_cfg=" + cfgShown));
        boolean keep = spec.outputDir().isPresent();
        Path workDir = keep ? spec.outputDir().get().resolve("work_dir") : tempDir();
        try (Arena arena = Arena.ofShared()) {
            return stages(program, spec, config, log, workDir, arena);
        } finally {
            if (!keep) {
                deleteTree(workDir);
            }
        }
    }

    private static RunResult stages(ProgramSpec program, RunSpec spec, RunConfig config, StageLog log, Path workDir,
                                    Arena arena) {
        long s = log.begin("compile");
        RunTarget compiled = RunTarget.compile(program, workDir, spec.chips());
        if (spec.outputDir().isPresent()) { // a kept work dir runs under 'jpto exec' as it did here
            DefaultRuntimeCfg.write(workDir, program.runtimeCfg());
        }
        log.done("compile", s, compiled.summary() + ", work dir " + workDir);

        s = log.begin("generate inputs");
        Map<String, Tensor> inputs = InputGeneration.inputs(program, spec.seed(), arena);
        long inputBytes = inputs.values().stream().mapToLong(Tensor::byteSize).sum();
        log.done("generate inputs", s, inputs.size() + " tensor(s), " + Sizes.approx(inputBytes));

        // outputs updated in place start from their fill, in the golden's tensors and the chip's alike
        Map<String, Tensor> initial = InputGeneration.initialOutputs(program, spec.seed(), arena);

        s = log.begin("compute golden");
        Map<String, Tensor> golden = outputs(program.outputs(), initial, arena);
        program.golden().compute(Map.copyOf(inputs), golden);
        log.done("compute golden", s, "");
        Optional<Path> tensorDir = spec.saveTensors() ? spec.outputDir() : Optional.empty();
        tensorDir.ifPresent(dir -> {
            Map<String, Tensor> saved = new LinkedHashMap<>(inputs);
            saved.putAll(initial);
            TensorFiles.write(dir.resolve("inputs"), saved);
            TensorFiles.write(dir.resolve("golden"), golden);
        });

        Map<String, Tensor> actual = outputs(program.outputs(), initial, arena);
        Map<String, Tensor> args = new LinkedHashMap<>(inputs);
        args.putAll(actual);
        s = log.begin("runtime");
        RunTarget.Ran ran = onChip(log, () -> compiled.run(args, config));
        RunReport report = ran.report();
        log.done("runtime", s, report.tasksExecuted() + " tasks, " + (ran.l3().isPresent() ? "L3 wall " : "chip ")
                + micros(report.elapsedNanos()) + ", heap high-water " + heapHighWater(report));
        // L3: one line per chip (device id, calls, runtime stage time, heap high-water)
        ran.l3().ifPresent(l3 -> l3.lines().forEach(log::line));
        tensorDir.ifPresent(dir -> TensorFiles.write(dir.resolve("outputs"), actual));
        dfxLines(log, config, report);

        Optional<BenchmarkResult> bench = Optional.empty();
        if (spec.benchRounds() > 0) {
            s = log.begin("benchmark");
            // copies, so the benchmark's writes cannot touch the outputs that are validated below
            Map<String, Tensor> benchArgs = new LinkedHashMap<>(inputs);
            benchArgs.putAll(outputs(program.outputs(), initial, arena));
            BenchmarkResult b = onChip(log, () -> compiled.bench(benchArgs, config, spec.benchRounds(),
                    spec.progress()));
            log.done("benchmark", s, b.rounds() + " rounds after " + BenchLoop.WARMUP_ROUNDS + " warm-up");
            log.line(b.line());
            bench = Optional.of(b);
        }

        s = log.begin("validate");
        CompareContext context = new CompareContext(actual, golden, inputs);
        List<OutputCheck> checks = new ArrayList<>();
        for (Map.Entry<String, GoldenComparator> e : program.comparatorsInOrder().entrySet()) {
            Tensor a = actual.get(e.getKey());
            CompareResult r = e.getValue().compare(a, golden.get(e.getKey()), context);
            checks.add(new OutputCheck(e.getKey(), a.dtype(), a.shape(), r, e.getValue() instanceof NotValidated));
        }
        long skipped = checks.stream().filter(OutputCheck::skipped).count();
        log.done("validate", s, (checks.size() - skipped) + " output(s)" + (skipped > 0 ? ", " + skipped
                + " not validated" : ""));
        for (OutputCheck c : checks) {
            log.line(c.line());
        }
        tensorDir.ifPresent(dir -> log.line("[RUN] tensors saved under " + dir + " (inputs/, outputs/, golden/)"));
        boolean passed = checks.stream().allMatch(OutputCheck::passed);
        String total = StageLog.seconds(log.elapsed());
        if (passed) {
            log.line("[RUN] PASS (" + total + ")");
        } else {
            List<String> bad = checks.stream().filter(c -> !c.passed()).map(c -> "'" + c.name() + "'").toList();
            log.line("[RUN] FAIL (" + total + ") " + bad.size() + " of " + checks.size() + " output(s) mismatched: "
                    + String.join(", ", bad));
        }
        return new RunResult(program.programName(), program.preset(), passed, checks, log.stages(), log.elapsed(),
                report, bench, spec.outputDir().map(d -> workDir), ran.l3());
    }

    /**
     * Where the DFX outputs went, and for enable_pmu the per-kernel table of {@code pmu.csv}. With {@code --bench},
     * every benchmark round runs with the same flags, so the files on disk end up being the last round's.
     */
    private static void dfxLines(StageLog log, RunConfig config, RunReport report) {
        List<Path> files = new ArrayList<>(report.dfxFiles());
        report.scopeStatsFile().ifPresent(files::add);
        if (files.isEmpty()) {
            return;
        }
        Path prefix = Path.of(config.outputPrefix());
        log.line("[RUN] dfx under " + prefix + ": " + String.join(", ",
                files.stream().map(f -> prefix.relativize(f).toString()).toList()));
        files.stream().filter(f -> f.getFileName().toString().equals("pmu.csv")).findFirst().ifPresent(pmu -> {
            List<PmuSummary.Kernel> kernels = PmuSummary.read(pmu);
            long tasks = kernels.stream().mapToLong(PmuSummary.Kernel::tasks).sum();
            log.line("[RUN] pmu: " + tasks + " task(s), " + kernels.size() + " kernel(s); body wall time per kernel");
            PmuSummary.table(kernels).forEach(log::line);
        });
    }

    /** Runs a chip dispatch; a failure ends the log with {@code [RUN] FAIL runtime error …} and is rethrown. */
    private static <T> T onChip(StageLog log, Supplier<T> dispatch) {
        try {
            return dispatch.get();
        } catch (ChipRuntimeException e) {
            String code = e.orchErrorCode() != 0 ? "orch_error_code=" + e.orchErrorCode()
                    : "sched_error_code=" + e.schedErrorCode();
            String outcome = e.error() == ErrorCode.CANCELLED ? "CANCELLED (" + StageLog.seconds(log.elapsed())
                    + ") the chip run was stopped: " : "FAIL (" + StageLog.seconds(log.elapsed()) + ") runtime error ";
            log.line("[RUN] " + outcome + code + " " + e.error().name());
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

    private static String heapHighWater(RunReport report) {
        RunReport.Ring max = report.rings().stream().max(Comparator.comparingLong(RunReport.Ring::heapMax))
                .orElseThrow();
        return Sizes.approx(max.heapMax()) + " of " + Sizes.format(max.heapBytes()) + " (ring " + max.ring() + ")";
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
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove the temporary work dir " + root + ": " + e.getMessage(), e);
        }
    }
}
