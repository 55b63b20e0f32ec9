package dev.jpto.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jpto.compiler.CompiledL3Program;
import dev.jpto.compiler.CompiledProgram;
import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.compiler.l3.HostTensor;
import dev.jpto.compiler.l3.L3Report;
import dev.jpto.compiler.run.BenchmarkResult;
import dev.jpto.compiler.launch.DistributedRunner;
import dev.jpto.compiler.launch.Runner;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.Tensor;
import dev.jpto.lib.compare.ComparatorSpec;
import dev.jpto.lib.compare.GoldenComparator;
import dev.jpto.lib.runner.BenchLoop;
import dev.jpto.lib.runner.DefaultRuntimeCfg;
import dev.jpto.lib.runner.DfxReport;
import dev.jpto.lib.runner.InPlaceOutputs;
import dev.jpto.lib.runner.OutputCheck;
import dev.jpto.lib.runner.Preflight;
import dev.jpto.lib.runner.Progress;
import dev.jpto.lib.runner.RuntimeCfg;
import dev.jpto.lib.runner.TensorFiles;
import dev.jpto.lib.runner.Validation;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.RunReport;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code jpto exec WORKDIR --inputs DIR --outputs DIR}: runs a compiled work dir on .npy inputs. */
@Command(name = "exec", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run a compiled work dir on <name>.npy inputs (Runner.executeCompiled; an L3 work dir through "
                + "DistributedRunner) and write <name>.npy outputs.",
            "On the inputs 'jpto run --save-tensors' saved, the outputs are bit-identical to run's."})
final class ExecCommand implements Callable<Integer> {
    @ParentCommand
    JptoCommand top;

    @Parameters(index = "0", paramLabel = "WORKDIR", description = "a work dir written by 'jpto compile'")
    Path workDir;

    @Option(names = "--inputs", paramLabel = "DIR", required = true,
            description = "one <name>.npy per program input, and the initial value of any output updated in place "
                    + "(bf16/fp16 may be stored as float32)")
    Path inputs;

    @Option(names = "--outputs", paramLabel = "DIR", required = true,
            description = "where <name>.npy is written per program output (bf16/fp16 as float32)")
    Path outputs;

    @Option(names = "--golden", paramLabel = "DIR",
            description = "compare each output with DIR/<name>.npy as 'jpto run' does (bf16/fp16 may be stored as "
                    + "float32); exit 1 when one does not match")
    Path golden;

    @Option(names = "--compare", paramLabel = "NAME=COMPARATOR",
            description = "the comparator of output NAME with --golden, repeatable: " + ComparatorSpec.FORMS
                    + " (default: allclose, numpy's rtol=1e-05 atol=1e-08)")
    Map<String, String> compare = new LinkedHashMap<>();

    @Option(names = "--bench", paramLabel = "ROUNDS", defaultValue = "0",
            description = "timed benchmark rounds after the run, printed as 'jpto run --bench' does (default: none)")
    int benchRounds;

    @Option(names = "--zero-missing-inout",
            description = "start an output the program updates in place from zeros when --inputs has no "
                    + "<name>.npy for it (default: refused, naming it), and say so")
    boolean zeroMissingInOut;

    @Option(names = "--chips", paramLabel = "N",
            description = "L3 work dirs: simulated chips, devices --device .. --device+N-1 (default: the program's)")
    Integer chips;

    @Mixin
    ChipOptions chip = new ChipOptions();

    @Mixin
    MemoryOption memory = new MemoryOption();

    @Option(names = "--json", description = "print one JSON document (docs/schema/exec.schema.json) instead of the "
            + "log lines; the exit code is the same")
    boolean json;

    /** The log lines' stream: stdout, or nowhere with --json. */
    private PrintStream log;

    @Override
    public Integer call() {
        JsonDocument doc = new JsonDocument("exec");
        log = json ? new PrintStream(OutputStream.nullOutputStream()) : top.out;
        int code = Outcome.of("exec", top.err, chip.verbose, () -> execute(doc.root()), doc::failed);
        if (json) {
            doc.root().put("passed", code == ExitCodes.PASS);
            doc.print(top.out);
        }
        return code;
    }

    private int execute(ObjectNode doc) throws Exception {
        RunCommand.checkBenchRounds(benchRounds);
        if (!compare.isEmpty() && golden == null) {
            throw new UsageException("--compare chooses how outputs are compared with their golden: give "
                    + "--golden DIR too");
        }
        Map<String, String> defaults = DefaultRuntimeCfg.read(workDir);
        Map<String, String> userCfg = chip.runtimeCfg(Optional.of(outputs));
        RunConfig config = RuntimeCfg.resolve(defaults, userCfg, chip.platform, chip.device);
        doc.put("work_dir", workDir.toString()).put("platform", config.platform().text())
                .put("device", config.deviceId()).set("runtime_cfg", RunJson.runtimeCfg(config, defaults, userCfg));
        if (!defaults.isEmpty()) {
            log.println("[RUN] the work dir's default runtime_cfg " + defaults + " (from "
                    + DefaultRuntimeCfg.FILE + "; --runtime-cfg entries override it)");
        }
        boolean l3 = CompiledL3Program.isL3WorkDir(workDir);
        int n = L3Chips.of(chips, l3, workDir.toString(), chip.device);
        CompiledL3Program l3Program = l3 ? CompiledL3Program.load(workDir) : null;
        CompiledProgram compiled = l3 ? null : CompiledProgram.load(workDir);
        List<TensorDecl> ins = l3 ? decls(l3Program.program().inputs()) : compiled.inputs();
        List<TensorDecl> outDecls = l3 ? decls(l3Program.program().outputs()) : compiled.outputs();
        // before reading or allocating anything: the output dirs, the memory budget, the disk, the chips
        Preflight checks = new Preflight().output("--outputs", outputs, outDecls).outputPrefix(config);
        Map<String, GoldenComparator> comparators = comparators(outDecls);
        ins.forEach(d -> checks.tensor("input", d, 1));
        int copies = 1 + (golden == null ? 0 : 1) + (benchRounds > 0 ? 1 : 0); // output, golden, bench copy
        outDecls.forEach(d -> checks.tensor("output", d, copies));
        if (l3) {
            decls(l3Program.program().scratch()).forEach(d -> checks.tensor("scratch", d, 1));
            checks.chips(n > 0 ? n : l3Program.program().chips(), config.deviceId());
        }
        checks.check(memory.budget());
        outDecls.forEach(d -> TensorFiles.file(outputs, d.name())); // refuses an output file leading outside
        try (Arena arena = Arena.ofShared()) {
            Map<String, Tensor> args = new LinkedHashMap<>(TensorFiles.read(inputs, ins, arena));
            // an output updated in place starts from inputs/<name>.npy when there is one; a missing one is
            // refused when the program reads it (its initial value is input), else it starts from zeros
            List<String> inPlace = l3 ? List.of() : InPlaceOutputs.of(compiled.program());
            Map<String, Tensor> outs = new LinkedHashMap<>();
            for (TensorDecl d : outDecls) {
                // exists, not isRegularFile: a FIFO or a link out there is refused by read, not skipped
                boolean present = Files.exists(TensorFiles.file(inputs, d.name()), LinkOption.NOFOLLOW_LINKS);
                if (!present && inPlace.contains(d.name())) {
                    missingInOut(d);
                }
                outs.put(d.name(), present ? TensorFiles.read(inputs, List.of(d), arena).get(d.name())
                        : Tensor.allocate(arena, d.dtype(), d.shape()));
            }
            Map<String, Tensor> goldens = golden == null ? Map.of() : TensorFiles.read(golden, outDecls, arena);
            Map<String, Tensor> inputTensors = Map.copyOf(args);
            Map<String, Tensor> benchArgs = new LinkedHashMap<>(args);
            if (benchRounds > 0) { // copies, so the rounds cannot touch the outputs written and compared
                outs.forEach((name, t) -> benchArgs.put(name, copy(t, arena)));
            }
            args.putAll(outs);
            long start = System.nanoTime();
            RunReport report;
            try { // a failed run still says which diagnostic files it wrote
                report = run(l3, l3Program, compiled, args, config, n, start);
            } catch (ChipRuntimeException e) {
                DfxReport.lines(config.outputPrefix(), e.diagnosticFiles(), config.platform()).forEach(log::println);
                throw e;
            }
            List<Path> dfx = new ArrayList<>(report.dfxFiles());
            report.scopeStatsFile().ifPresent(dfx::add);
            DfxReport.lines(config.outputPrefix(), dfx, config.platform()).forEach(log::println);
            doc.set("report", PlanJson.report(report));
            TensorFiles.write(outputs, outs);
            ArrayNode written = doc.putArray("written");
            for (TensorDecl d : outDecls) {
                log.println("[RUN] wrote " + TensorFiles.file(outputs, d.name()) + " " + d);
                written.addObject().put("name", d.name()).put("path", TensorFiles.file(outputs, d.name())
                        .toString());
            }
            Optional<BenchmarkResult> bench = Optional.empty();
            if (benchRounds > 0) {
                BenchmarkResult b = l3 ? BenchLoop.runL3(l3Program, n > 0 ? n : l3Program.program().chips(),
                        benchArgs, config, benchRounds, Progress.lines(log))
                        : BenchLoop.run(compiled, benchArgs, config, benchRounds, Progress.lines(log));
                b.lines().forEach(log::println);
                bench = Optional.of(b);
            }
            doc.set("benchmark", RunJson.benchmark(bench));
            int code = ExitCodes.PASS;
            if (golden != null) {
                List<OutputCheck> results = Validation.check(comparators, outs, goldens, inputTensors);
                results.forEach(c -> log.println(c.line()));
                log.println(Validation.verdict(results, String.format(Locale.ROOT, "%.3fs",
                        (System.nanoTime() - start) / 1e9)));
                ArrayNode checked = doc.putArray("outputs");
                results.forEach(c -> checked.add(RunJson.output(c)));
                code = Validation.passed(results) ? ExitCodes.PASS : ExitCodes.VALIDATION_FAIL;
            } else {
                doc.putNull("outputs");
            }
            doc.put("total_seconds", (System.nanoTime() - start) / 1e9);
            return code;
        }
    }

    /** Refuses a missing initial value of in-place output {@code d}, or with --zero-missing-inout says it is zero. */
    private void missingInOut(TensorDecl d) {
        Path f = TensorFiles.file(inputs, d.name());
        if (!zeroMissingInOut) {
            throw new UsageException("missing input file " + f + " for " + d + ": the program updates this output in "
                    + "place, so its initial value is an input ('jpto run --save-tensors' saves it under inputs/); "
                    + "give the file, or --zero-missing-inout to start it from zeros");
        }
        log.println("[RUN] " + d.name() + " starts from zeros: " + f + " is missing and --zero-missing-inout "
                + "was given (the program updates it in place)");
    }

    /** Runs the work dir once on {@code args}; prints the runtime line (and an L3 program's per-chip lines). */
    private RunReport run(boolean l3, CompiledL3Program l3Program, CompiledProgram compiled, Map<String, Tensor> args,
                          RunConfig config, int n, long start) {
        if (l3) {
            L3Report r = DistributedRunner.run(l3Program, args, config, n > 0 ? n : l3Program.program().chips());
            RunReport report = r.aggregate();
            log.println(String.format(Locale.ROOT, "[RUN] runtime (%.3fs) %s: %d tasks, L3 wall %.1f us",
                    (System.nanoTime() - start) / 1e9, l3Program.name(), report.tasksExecuted(), r.wallNanos() / 1e3));
            r.lines().forEach(log::println);
            return report;
        }
        RunReport report = Runner.executeCompiled(workDir, args, config);
        log.println(String.format(Locale.ROOT, "[RUN] runtime (%.3fs) %s: %d tasks, chip %.1f us, %s",
                (System.nanoTime() - start) / 1e9, compiled.name(), report.tasksExecuted(),
                report.elapsedNanos() / 1e3, report.deviceField()));
        return report;
    }

    /** The comparator of every output (--compare, else numpy's allclose); a NAME that is no output is refused. */
    private Map<String, GoldenComparator> comparators(List<TensorDecl> outDecls) {
        List<String> names = outDecls.stream().map(TensorDecl::name).toList();
        for (String name : compare.keySet()) {
            if (!names.contains(name)) {
                throw new UsageException("--compare " + name + "=…: '" + name + "' is not an output of this work "
                        + "dir; outputs: " + String.join(", ", names));
            }
        }
        Map<String, GoldenComparator> out = new LinkedHashMap<>();
        for (String name : names) {
            String spec = compare.get(name);
            try {
                out.put(name, spec == null ? ComparatorSpec.numpyDefault() : ComparatorSpec.parse(spec));
            } catch (IllegalArgumentException e) {
                throw new UsageException("--compare " + name + "=" + spec + ": " + e.getMessage());
            }
        }
        return out;
    }

    private static Tensor copy(Tensor t, Arena arena) {
        Tensor c = Tensor.allocate(arena, t.dtype(), t.shape());
        MemorySegment.copy(t.buffer(), 0, c.buffer(), 0, t.byteSize());
        return c;
    }

    private static List<TensorDecl> decls(List<HostTensor> tensors) {
        return tensors.stream().map(t -> new TensorDecl(t.name(), t.dtype(), t.shape())).toList();
    }
}
