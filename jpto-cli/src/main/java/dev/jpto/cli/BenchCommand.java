package dev.jpto.cli;

import dev.jpto.isa.DType;
import dev.jpto.isa.engine.VectorEngine;
import dev.jpto.tools.bench.CpuPeak;
import dev.jpto.tools.bench.MatmulBenchmark;
import dev.jpto.tools.bench.NumpyBaseline;
import dev.jpto.tools.bench.RuntimeBenchmark;
import dev.jpto.tools.bench.RuntimeWorkload;
import dev.jpto.runtime.Platform;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jpto bench PROGRAM [--rounds N]}: a program's golden run followed by N timed rounds (exactly
 * {@code jpto run PROGRAM --bench N}); {@code jpto bench matmul|runtime}: the engine and runtime benchmarks, each
 * printed beside its baseline measured in the same run.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Time a program: its golden run, then --rounds timed rounds (as 'jpto run PROGRAM --bench N')."
                + " PROGRAM is a registered name, a .java file or a directory of sources.",
            "Or a built-in benchmark (matmul, runtime), each beside its baseline measured in the same run;"
                + " loop PROGRAM times the edit-run loop (fresh run, --reuse run).",
            "Exit 0 PASS, 1 validation FAIL, 2 usage or bad config, 3 runtime error."},
        subcommands = {BenchCommand.Matmul.class, BenchCommand.RuntimeTasks.class, BenchLoopCommand.class})
public final class BenchCommand implements Callable<Integer> {
    /** Timed rounds when --rounds is not given. */
    static final int DEFAULT_ROUNDS = 10;

    @CommandLine.ParentCommand
    JptoCommand top;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Parameters(index = "0", arity = "0..1", paramLabel = "PROGRAM",
            description = ProgramOptions.PROGRAM_HELP)
    String program;

    @Option(names = "--preset", paramLabel = "NAME", description = "the program's size (default: its default preset)")
    String preset;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "" + DEFAULT_ROUNDS,
            description = "timed rounds after the correctness run, >= 1 (default ${DEFAULT-VALUE})")
    int rounds;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "0",
            description = "input seed (default ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--chips", paramLabel = "N",
            description = "L3 programs: simulated chips, devices --device .. --device+N-1 (default: the program's)")
    Integer chips;

    @CommandLine.Mixin
    ProgramPathOptions paths = new ProgramPathOptions();

    @CommandLine.Mixin
    ChipOptions chip = new ChipOptions();

    @CommandLine.Mixin
    MemoryOption memory = new MemoryOption();

    @Option(names = "--json", description = "print one JSON document (docs/schema/bench.schema.json: a run document "
            + "whose command is 'bench') instead of the human lines")
    boolean json;

    /** Without PROGRAM, the usage (which lists the built-in benchmarks); with one, {@code jpto run --bench}. */
    @Override
    public Integer call() {
        if (program == null) {
            spec.commandLine().usage(spec.commandLine().getOut());
            return 0;
        }
        if (rounds < 1) {
            String line = "jpto bench: --rounds must be >= 1: --rounds " + rounds + " (try " + DEFAULT_ROUNDS + ")";
            top.err.println(line);
            if (json) {
                BenchJson.failed(program, line).print(top.out);
            }
            return JptoCommand.EXIT_USAGE;
        }
        RunCommand run = new RunCommand();
        run.verb = "bench";
        run.top = top;
        run.commandSpec = spec;
        run.program.program = program;
        run.program.preset = preset;
        run.program.paths = paths;
        run.seed = seed;
        run.benchRounds = rounds;
        run.chips = chips;
        run.chip = chip;
        run.memory = memory;
        run.json = json;
        return run.call();
    }

    /** Exit 2 for refused options of a built-in benchmark: the line on stderr, and the document with --json. */
    private static int refused(CommandLine.Model.CommandSpec spec, boolean json, String benchmark, Exception e) {
        String line = "jpto bench " + benchmark + ": " + e.getMessage();
        spec.commandLine().getErr().println(line);
        if (json) {
            spec.commandLine().getOut().println(BenchJson.failed(benchmark, line).text());
            spec.commandLine().getOut().flush();
        }
        return JptoCommand.EXIT_USAGE;
    }

    /**
     * {@code jpto bench matmul}: GFLOP/s of the Vector API engine and the scalar reference, % of the measured FMA
     * peak, and optionally numpy's rate on the same shape.
     */
    @Command(name = "matmul", mixinStandardHelpOptions = true,
            description = "Tiled matmul C = A·B (square; fp32 C, int32 for int8): Vector API engine vs the scalar"
                    + " reference engine, GFLOP/s, ratio, %% of this core's measured FP32 FMA peak, and with"
                    + " --baseline numpy numpy's single-thread rate on the same shape.")
    static final class Matmul implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--size", defaultValue = "1024",
                description = "M = N = K, a multiple of --tile (default ${DEFAULT-VALUE})")
        int size;

        @Option(names = "--dtype", defaultValue = "fp32",
                description = "input dtype of A and B: fp32, bf16, fp16 or int8 (default ${DEFAULT-VALUE})")
        String dtype;

        @Option(names = "--tile", defaultValue = "128",
                description = "edge of every matmul call's tiles (default ${DEFAULT-VALUE})")
        int tile;

        @Option(names = "--warmups", defaultValue = "5", description = "untimed runs first (default ${DEFAULT-VALUE})")
        int warmups;

        @Option(names = "--runs", defaultValue = "20",
                description = "timed runs; the best is reported (default ${DEFAULT-VALUE})")
        int runs;

        @Option(names = "--scalar-tiles", defaultValue = "1",
                description = "C tiles the scalar engine computes, each size/tile calls (default ${DEFAULT-VALUE})")
        int scalarTiles;

        @Option(names = "--fma-units", defaultValue = "2",
                description = "FMA units per core assumed for the peak (default ${DEFAULT-VALUE})")
        int fmaUnits;

        @Option(names = "--ghz", description = "core clock for the nominal peak (default: BogoMIPS / 2 from"
                + " /proc/cpuinfo); the headline uses the peak measured by an FMA loop")
        Double ghz;

        @Option(names = "--baseline", description = "also time this on the same shape, 1 thread, and print the"
                + " ratio: numpy (its float32 matmul, OpenBLAS with its own choice of kernel)")
        String baseline;

        @Option(names = "--python", defaultValue = "python3",
                description = "python with numpy for --baseline numpy (default ${DEFAULT-VALUE})")
        String python;

        @Option(names = "--json", description = "print one JSON document (docs/schema/bench.schema.json) instead of "
                + "the human lines")
        boolean json;

        @Override
        public Integer call() {
            MatmulBenchmark.Options options;
            try {
                if (baseline != null && !baseline.equals("numpy")) {
                    throw new IllegalArgumentException("--baseline must be numpy: baseline=" + baseline
                            + " (try --baseline numpy)");
                }
                int lanes = VectorEngine.floatLanes();
                CpuPeak peak = ghz != null ? CpuPeak.of(ghz, fmaUnits, lanes) : CpuPeak.detect(fmaUnits, lanes);
                options = new MatmulBenchmark.Options(size, DType.fromText(dtype), tile, warmups, runs, scalarTiles,
                        peak);
            } catch (IllegalArgumentException | IllegalStateException | java.io.UncheckedIOException e) {
                return refused(spec, json, "matmul", e);
            }
            MatmulBenchmark.Result result = MatmulBenchmark.run(options);
            java.io.PrintWriter out = spec.commandLine().getOut();
            Optional<NumpyBaseline.Outcome> numpy = Optional.ofNullable(baseline).map(b ->
                    new NumpyBaseline(python, NumpyBaseline.timeoutFor(size, warmups, runs)).run(size, warmups, runs));
            if (json) {
                out.println(BenchJson.matmul(result, numpy).text());
            } else {
                result.lines().forEach(out::println);
                numpy.ifPresent(n -> NumpyBaseline.lines(n, options.dtype().text(), result.vector().gflops(),
                        options.unit()).forEach(out::println));
            }
            out.flush();
            return result.agree() ? 0 : 1;
        }
    }

    /** {@code jpto bench runtime}: ns/task of the chip runtime beside ForkJoinPool on the same DAGs. */
    @Command(name = "runtime", mixinStandardHelpOptions = true,
            description = "Empty-kernel tasks (independent, chain, fan-in-2 DAG) through the chip runtime vs"
                    + " ForkJoinPool+CompletableFuture with hand-wired edges: ns/task and ratio.")
    static final class RuntimeTasks implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = {"-p", "--platform"}, defaultValue = "a2a3sim",
                description = "a2a3sim or a5sim (default ${DEFAULT-VALUE})")
        String platform;

        @Option(names = "--tasks", defaultValue = "8192",
                description = "tasks per run, a multiple of --block (default ${DEFAULT-VALUE})")
        int tasks;

        @Option(names = "--block", defaultValue = "128", description = "tasks per scope (default ${DEFAULT-VALUE})")
        int block;

        @Option(names = "--warmups", defaultValue = "10",
                description = "untimed runs of each first (default ${DEFAULT-VALUE})")
        int warmups;

        @Option(names = "--runs", defaultValue = "15",
                description = "timed runs of each; the median is reported (default ${DEFAULT-VALUE})")
        int runs;

        @Option(names = "--threads", defaultValue = "0",
                description = "aicpu_thread_num: 1 orchestrator + n-1 schedulers,"
                + " and n-1 ForkJoinPool workers; 0 = platform default (default ${DEFAULT-VALUE})")
        int threads;

        @Option(names = "--warmup-seconds", defaultValue = "" + RuntimeBenchmark.Options.DEFAULT_WARMUP_SECONDS,
                description = "warm up each shape at least this long,"
                + " besides --warmups runs (default ${DEFAULT-VALUE}): the JIT needs 1-2 s on 2 cores")
        double warmupSeconds;

        @Option(names = "--shape", split = ",", description = "shapes to run: independent, chain, dag2 (default all)")
        List<String> shapes = List.of();

        @Option(names = "--json", description = "print one JSON document (docs/schema/bench.schema.json) instead of "
                + "the human lines")
        boolean json;

        @Override
        public Integer call() {
            RuntimeBenchmark.Options options;
            try {
                List<RuntimeWorkload.Shape> chosen = shapes.isEmpty() ? List.of(RuntimeWorkload.Shape.values())
                        : shapes.stream().map(RuntimeTasks::shape).toList();
                options = new RuntimeBenchmark.Options(Platform.parse(platform), tasks, block, warmups, runs, threads,
                        chosen, warmupSeconds);
                if (tasks < 1 || block < 1 || tasks % block != 0) {
                    throw new IllegalArgumentException("--tasks must be a positive multiple of --block: tasks="
                            + tasks + " block=" + block + " (try --tasks 8192 --block 128)");
                }
            } catch (IllegalArgumentException e) {
                return refused(spec, json, "runtime", e);
            }
            List<RuntimeBenchmark.Row> rows = RuntimeBenchmark.run(options);
            java.io.PrintWriter out = spec.commandLine().getOut();
            if (json) {
                out.println(BenchJson.runtime(options, rows).text());
            } else {
                RuntimeBenchmark.lines(options, rows).forEach(out::println);
            }
            out.flush();
            return 0;
        }

        private static RuntimeWorkload.Shape shape(String name) {
            for (RuntimeWorkload.Shape s : RuntimeWorkload.Shape.values()) {
                if (s.name().equalsIgnoreCase(name.trim())) {
                    return s;
                }
            }
            throw new IllegalArgumentException("--shape " + name + " is not a shape; use independent, chain or dag2");
        }
    }
}
