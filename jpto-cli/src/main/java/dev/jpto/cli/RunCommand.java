package dev.jpto.cli;

import dev.jpto.lib.registry.ProgramSpec;
import dev.jpto.lib.runner.GoldenRunner;
import dev.jpto.lib.runner.OutputDir;
import dev.jpto.lib.runner.Progress;
import dev.jpto.lib.runner.RunOutputDir;
import dev.jpto.lib.runner.RunResult;
import dev.jpto.lib.runner.RunSpec;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code jpto run PROGRAM}: the golden runner. */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Compile → generate inputs → golden → runtime → [benchmark] → validate.",
            "Exit 0 PASS, 1 validation FAIL, 2 usage or bad config, 3 runtime error."})
final class RunCommand implements Callable<Integer> {
    @ParentCommand
    JptoCommand top;

    @Spec
    CommandSpec commandSpec;

    @Mixin
    ProgramOptions program = new ProgramOptions();

    @Option(names = "--seed", paramLabel = "N", defaultValue = "0", description = "input seed (default ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--bench", paramLabel = "ROUNDS", defaultValue = "0",
            description = "timed benchmark rounds after the correctness run (default ${DEFAULT-VALUE}: none)")
    int benchRounds;

    @Option(names = "--output-dir", paramLabel = "DIR",
            description = "keep the work dir (DIR/work_dir) and DFX files here, replacing an earlier run's; "
                    + "default: a temporary work dir")
    Path outputDir;

    @Option(names = "--save-tensors",
            description = "write inputs/, outputs/ and golden/ .npy files and meta.json under --output-dir "
                    + "(bf16/fp16 as float32)")
    boolean saveTensors;

    @Option(names = "--reuse", paramLabel = "DIR",
            description = "take inputs and golden from DIR, the --output-dir of an earlier run with --save-tensors, "
                    + "instead of generating them; refused (exit 2) unless DIR/meta.json matches this program, "
                    + "preset, seed and every file")
    Path reuse;

    @Option(names = "--chips", paramLabel = "N",
            description = "L3 programs: simulated chips, devices --device .. --device+N-1 (default: the program's)")
    Integer chips;

    @Mixin
    ChipOptions chip = new ChipOptions();

    @Mixin
    MemoryOption memory = new MemoryOption();

    @Option(names = "--json", description = "print one JSON document (docs/schema/run.schema.json) instead of the "
            + "stage lines; the exit code is the same")
    boolean json;

    @Option(names = "--report", description = "also write DIR/report.html (see 'jpto report') and DIR/run.json (the "
            + "--json document) into --output-dir DIR, after a failed run too; turns on scope statistics, the chip "
            + "swimlane, the dependency graph and PMU counters")
    boolean report;

    /** The verb errors are reported under: {@code run}, or {@code bench} when BenchCommand delegates here. */
    String verb = "run";

    @Override
    public Integer call() {
        JsonDocument doc = new JsonDocument(verb);
        // with --json the stage lines and progress go nowhere; the RunResult becomes the document
        PrintStream human = json ? new PrintStream(OutputStream.nullOutputStream()) : top.out;
        int code = Outcome.of(verb, top.err, chip.verbose, () -> {
            checkBenchRounds(benchRounds);
            if (saveTensors && outputDir == null) {
                throw new UsageException("--save-tensors writes files: give --output-dir DIR");
            }
            if (report) {
                if (outputDir == null) {
                    throw new UsageException("--report writes DIR/report.html: give --output-dir DIR");
                }
                chip.enableForReport();
            }
            ProgramSpec spec = program.spec(top, human);
            RunSpec run = RunSpec.defaults(human).withPlatform(chip.platform, chip.device).withSeed(seed)
                    .withBench(benchRounds, json ? Progress.lines(human) : progress())
                    .withChips(L3Chips.of(chips, spec.l3().isPresent(), spec.programName(), chip.device))
                    .withMemory(memory.budget());
            if (outputDir != null) {
                run = run.withOutputDir(outputDir, saveTensors);
            }
            if (reuse != null) {
                if (!Files.isDirectory(reuse)) {
                    throw new UsageException("--reuse " + reuse + ": not a directory; expected the --output-dir of "
                            + "an earlier 'jpto run --save-tensors'");
                }
                run = run.withReuse(reuse);
            }
            Map<String, String> cfg = chip.runtimeCfg(Optional.ofNullable(outputDir));
            if (json || report) {
                RunJson.describe(doc.root(), spec, run, cfg);
            }
            RunResult result;
            if (outputDir == null) { // a private temporary work dir
                result = GoldenRunner.runJit(spec, run, cfg);
            } else {
                // before the lock: a refused directory gets no lock file
                OutputDir.requireWritable("--output-dir", outputDir);
                RunOutputDir.check(outputDir);
                RunSpec locked = run;
                result = OutputDirLock.holding(outputDir, "--output-dir", commandSpec,
                        () -> GoldenRunner.runJit(spec, locked, cfg));
            }
            RunJson.result(doc.root(), result);
            if (verb.equals("bench") && !json) {
                result.benchmark().map(ProbeLine::of).filter(l -> !l.isEmpty()).ifPresent(human::println);
            }
            return exitCode(result);
        }, doc::failed);
        doc.root().put("passed", code == ExitCodes.PASS);
        if (report && doc.root().has("program") && code != ExitCodes.USAGE && code != ExitCodes.INTERRUPTED) {
            code = writeReport(doc, human, code);
        }
        if (json) {
            doc.print(top.out);
        }
        return code;
    }

    /** run.json and report.html of a run that ran (passed, failed or stopped); a report that fails is exit 2. */
    private int writeReport(JsonDocument doc, PrintStream human, int runCode) {
        int code = Outcome.of("run --report", top.err, chip.verbose, () -> {
            doc.write(outputDir.resolve(dev.jpto.lib.runner.RunOutputDir.RUN_JSON));
            ReportCommand.printWritten(human, dev.jpto.cli.report.ReportPage.write(outputDir));
            return runCode;
        });
        return code == runCode ? runCode : ExitCodes.USAGE;
    }

    /** {@code --bench ROUNDS} of run and exec: 0 (none) or more. */
    static void checkBenchRounds(int rounds) {
        if (rounds < 0) {
            throw new UsageException("--bench must be >= 0 rounds: --bench " + rounds + " (try 10)");
        }
    }

    private static int exitCode(RunResult result) {
        return result.passed() ? ExitCodes.PASS : ExitCodes.VALIDATION_FAIL;
    }

    /** A bar on a terminal, plain lines otherwise (a pipe, a log file, CI, a test). */
    private Progress progress() {
        return TerminalProgress.forTerminal(top.out, top.err, top.env);
    }
}
