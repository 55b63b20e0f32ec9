package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.compiler.dsl.TaskArg;
import dev.jpto.compiler.run.RunConfigKeys;
import dev.jpto.isa.DType;
import dev.jpto.lib.compare.Comparators;
import dev.jpto.lib.gen.Init;
import dev.jpto.lib.registry.InputFill;
import dev.jpto.lib.registry.InputSpec;
import dev.jpto.lib.registry.Programs;
import dev.jpto.lib.registry.ProgramDef;
import dev.jpto.lib.registry.ProgramRegistry;
import dev.jpto.lib.registry.ProgramSpec;
import dev.jpto.lib.runner.DefaultRuntimeCfg;
import dev.jpto.lib.registry.PresetProgram;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The command contract of DESIGN.md, run in-process through {@link Main#run(PrintStream, PrintStream, String...)}. */
class JptoCliTest {
    private final ByteArrayOutputStream outBuf = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBuf = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(outBuf, true, StandardCharsets.UTF_8);
    private final PrintStream err = new PrintStream(errBuf, true, StandardCharsets.UTF_8);

    private int jpto(String... args) {
        return Main.run(out, err, args);
    }

    private String out() {
        return outBuf.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return errBuf.toString(StandardCharsets.UTF_8);
    }

    private List<String> outLines() {
        return out().lines().toList();
    }

    @Test
    void planRecommendsSizesThatRunAndFlagsSizesThatDeadlock() {
        assertThat(jpto("plan", "basic.matmul", "--preset", "tiny")).isZero();
        String recommended = outLines().stream().filter(l -> l.startsWith("[PLAN] recommended: ")).findFirst()
                .orElseThrow().substring("[PLAN] recommended: ".length());
        assertThat(out()).contains("cover the plan").contains("heap_needed").doesNotContain("reads data");
        assertThat(jpto("plan", "dsv4.moe", "--preset", "tiny")).isZero();
        assertThat(out()).contains("[PLAN] moe reads data at orchestration time (Orch.read): every read is taken at "
                + "its declared bound, so this plan is an upper bound for it");

        List<String> runArgs = new java.util.ArrayList<>(List.of("run", "basic.matmul", "--preset", "tiny"));
        runArgs.addAll(List.of(recommended.split(" ")));
        assertThat(jpto(runArgs.toArray(String[]::new))).as(out() + err()).isZero();

        assertThat(jpto("plan", "basic.matmul", "--preset", "tiny", "--runtime-cfg", "ring_heap=64KiB")).isEqualTo(1);
        assertThat(out()).contains("NOT ENOUGH with the sizes in force").contains("in force 64KiB");
        assertThat(jpto("run", "basic.matmul", "--preset", "tiny", "--runtime-cfg", "ring_heap=64KiB")).isEqualTo(3);
        assertThat(err()).contains("HEAP_RING_DEADLOCK");
    }

    @Test
    void planMeasureDryRunsAtTheSizesInForceAndPrintsTheHighWaterMarksNextToThePlan() {
        assertThat(jpto("plan", "basic.matmul", "--preset", "tiny", "--measure", "--runtime-cfg", "ring_heap=auto"))
                .as(err()).isZero();
        assertThat(out()).containsPattern("\\[PLAN\\] measured: dry run on a2a3sim, empty kernels, sizes in force: 12 "
                + "tasks in \\d+\\.\\d+s").contains("heap_max", "needed/max", "dep_pool_max");
        // ring 0: default window, 12 live, the heap planned and measured alike (128 KiB of split-K partials)
        assertThat(outLines()).anySatisfy(l -> assertThat(l.trim().split("\\s+")).startsWith("0", "16384", "12", "12",
                "1MiB", "128KiB", "(131072)", "128KiB", "(131072)", "1.000"));

        assertThat(jpto("plan", "basic.matmul", "--preset", "tiny", "--measure", "--runtime-cfg", "ring_heap=64KiB"))
                .isEqualTo(3);
        assertThat(err()).contains("HEAP_RING_DEADLOCK", "heap bytes on ring 0", "the static ring plan of");
    }

    @Test
    void theDryRunIsNotAnOptionOfRun() {
        assertThat(jpto("run", "basic.matmul", "--preset", "tiny", "--measure")).isEqualTo(2);
        assertThat(jpto("run", "basic.matmul", "--preset", "tiny", "--dry-run")).isEqualTo(2);
        assertThat(jpto("run", "basic.matmul", "--preset", "tiny", "--runtime-cfg", "dry_run=1")).isEqualTo(2);
    }

    @Test
    void listShowsEveryProgramWithItsPresetsAndTheDefaultMarked() {
        assertThat(jpto("list")).isZero();
        for (ProgramDef p : Programs.registry().all()) {
            String line = outLines().stream().filter(l -> l.startsWith(p.name() + " ")).findFirst().orElseThrow();
            assertThat(line).contains(p.defaultPreset() + "*").contains(p.description());
            for (String preset : p.presets()) {
                assertThat(line).contains(preset);
            }
        }
    }

    @Test
    void runPrintsTheStagesOneLinePerOutputAndPass() {
        int code = jpto("run", "basic.softmax", "--preset", "tiny", "--seed", "5");
        assertThat(code).as(err()).isZero();
        assertThat(outLines().getFirst()).isEqualTo("[RUN] basic.softmax preset=tiny seed=5 platform=a2a3sim device=0");
        assertThat(out()).containsSubsequence("[RUN] compile (", "[RUN] generate inputs (", "[RUN] compute golden (",
                "[RUN] runtime (", "[RUN] validate (", "'y' PASS shape=[128, 96] dtype=fp32");
        assertThat(outLines().getLast()).matches("\\[RUN\\] PASS \\(\\d+\\.\\d+s\\)");
        assertThat(err()).isEmpty();
    }

    @Test
    void runWithBenchPrintsTheBenchmarkStageAndEffectiveTimes() {
        assertThat(jpto("run", "basic.vector_add", "--preset", "tiny", "--bench", "4", "-p", "a5sim")).isZero();
        assertThat(out()).contains("platform=a5sim").containsSubsequence("[RUN] runtime (", "[RUN] benchmark (",
                "effective_us (4 rounds) min=", "[RUN] validate (");
    }

    @ParameterizedTest
    @ValueSource(strings = {"list", "run", "compile", "exec", "bench"})
    void everyCommandHasHelp(String command) {
        assertThat(jpto(command, "--help")).isZero();
        assertThat(out()).contains("Usage: jpto " + command);
    }

    @Test
    void runHelpListsTheContractOptions() {
        jpto("run", "--help");
        assertThat(out().replaceAll("\\s+", " ")).contains("-p, --platform", "-d, --device", "--preset", "--seed", "--bench", "--output-dir",
                "--save-tensors", "--runtime-cfg", "--enable-scope-stats", "--enable-chip-swimlane",
                "--enable-dep-gen", "--dump-args", "--enable-pmu", "--verbose",
                "--runtime-cfg keys (RunConfig's fields): key, default, values");
        String flat = out().replaceAll("\\s+", ""); // picocli wraps the footer, also after commas
        for (String line : RunConfigKeys.help()) {
            assertThat(flat).contains(line.replaceAll("\\s+", ""));
        }
        assertThat(flat).contains(("ring_heap (unset) heap bytes per ring: 512MiB or r0,r1,r2,r3 (at least 1024 "
                + "bytes; 0 in a list = default 256MiB); auto = the ring plan's").replaceAll("\\s+", ""));
    }

    @Test
    void anUnknownFlagIsAUsageErrorNamingIt() {
        assertThat(jpto("run", "basic.matmul", "--bogus")).isEqualTo(ExitCodes.USAGE);
        assertThat(err().strip()).isEqualTo("jpto run: Unknown option: '--bogus'; see 'jpto run --help'");
        assertThat(out()).isEmpty();
    }

    @Test
    void anUnknownCommandListsTheCommands() {
        assertThat(jpto("frob")).isEqualTo(ExitCodes.USAGE);
        String commands = String.join(", ", JptoCommand.commandLine().getSubcommands().keySet());
        assertThat(commands).startsWith("help, list, run, compile, exec").contains("plan", "bench");
        assertThat(err().strip()).isEqualTo("jpto: unknown command 'frob'; commands: " + commands + "; see 'jpto --help'");
    }

    @Test
    void aNonNumericValueNamesTheFlag() {
        assertThat(jpto("run", "basic.matmul", "--bench", "x")).isEqualTo(ExitCodes.USAGE);
        assertThat(err().strip()).isEqualTo("jpto run: Invalid value for option '--bench': 'x' is not an int; "
                + "see 'jpto run --help'");
    }

    @Test
    void anUnknownPlatformListsTheValidOnes() {
        assertThat(jpto("run", "basic.matmul", "-p", "a9")).isEqualTo(ExitCodes.USAGE);
        assertThat(err()).contains("'--platform'").contains("a2a3sim, a5sim, a2a3, a5");
    }

    @Test
    void aMalformedRuntimeCfgIsAUsageError() {
        assertThat(jpto("run", "basic.matmul", "--runtime-cfg", "ring_heap")).isEqualTo(ExitCodes.USAGE);
        assertThat(err()).contains("--runtime-cfg").contains("KEY=VALUE");
    }

    @Test
    void anUnknownRuntimeCfgKeyListsRunConfigsKeys() {
        assertThat(jpto("run", "basic.matmul", "--preset", "tiny", "--runtime-cfg", "ring_hep=1GiB"))
                .isEqualTo(ExitCodes.USAGE);
        assertThat(err().strip()).startsWith("jpto run: runtime_cfg: unknown run config key 'ring_hep'")
                .contains(String.join(", ", RunConfigKeys.keys()))
                .doesNotContain("\tat ");
        assertThat(err().strip().lines().count()).isEqualTo(1);
    }

    @Test
    void aBadRuntimeCfgValueNamesTheKeyAndTheRule() {
        assertThat(jpto("run", "basic.matmul", "--preset", "tiny", "--runtime-cfg", "ring_task_window=1000"))
                .isEqualTo(ExitCodes.USAGE);
        assertThat(err()).contains("ring_task_window").contains("1000");
    }

    @Test
    void anUnknownProgramListsTheValidOnes() {
        assertThat(jpto("run", "basic.nope")).isEqualTo(ExitCodes.USAGE);
        assertThat(err()).contains("unknown program 'basic.nope'").contains("basic.flash_attention")
                .contains("basic.vector_add");
    }

    @Test
    void anUnknownPresetListsTheValidOnes() {
        assertThat(jpto("run", "basic.flash_attention", "--preset", "huge")).isEqualTo(ExitCodes.USAGE);
        assertThat(err()).contains("--preset huge is not a preset of basic.flash_attention; valid presets: tiny, "
                + "tiny_bf16, demo, large");
    }

    @Test
    void saveTensorsAndDfxFlagsNeedAnOutputDir() {
        assertThat(jpto("run", "basic.matmul", "--preset", "tiny", "--save-tensors")).isEqualTo(ExitCodes.USAGE);
        assertThat(err()).contains("--save-tensors").contains("--output-dir DIR");
        assertThat(jpto("run", "basic.matmul", "--preset", "tiny", "--enable-scope-stats")).isEqualTo(ExitCodes.USAGE);
        assertThat(err()).contains("--enable-scope-stats writes files: give --output-dir DIR");
    }

    @Test
    void scopeStatsAreWrittenUnderTheOutputDir(@TempDir Path dir) throws Exception {
        assertThat(jpto("run", "basic.matmul", "--preset", "tiny", "--enable-scope-stats", "--output-dir",
                dir.toString())).as(err()).isZero();
        try (var files = Files.walk(dir)) {
            assertThat(files.map(Path::toString)).anyMatch(f -> f.endsWith("scope_stats.jsonl"));
        }
    }

    @Test
    void everyDfxFlagWritesItsFileAndPmuPrintsAPerKernelTable(@TempDir Path dir) throws Exception {
        assertThat(jpto("run", "basic.matmul", "--preset", "tiny", "--output-dir", dir.toString(),
                "--enable-scope-stats", "--enable-chip-swimlane", "--enable-dep-gen", "--dump-args", "--enable-pmu"))
                .as(err()).isZero();
        for (String f : List.of("scope_stats/scope_stats.jsonl", "chip_swimlane.json", "chip_swimlane_records.json",
                "chip_swimlane_device.json", "deps.json", "deps.dot", "args_dump/args_dump.json", "pmu.csv")) {
            assertThat(dir.resolve(f)).as(f).exists();
        }
        assertThat(out()).contains("[RUN] dfx under " + dir.toAbsolutePath());
        // basic.matmul tiny: 128×128×128 split in 2 along K: the partial products are 2·M·N·K FLOPs, and the
        // reduce kernel adds the 2 partials, (2 − 1)·M·N FLOPs
        List<String> lines = outLines();
        int at = lines.indexOf(lines.stream().filter(l -> l.startsWith("[RUN] pmu: ")).findFirst().orElseThrow());
        assertThat(lines.get(at + 1).split("\\s+")).containsExactly("kernel", "tasks", "total_us", "mean_us",
                "GFLOP/s", "GB/s", "device_us", "cube%", "vec%", "gm%");
        List<String> csv = Files.readAllLines(dir.resolve("pmu.csv"));
        int flops = List.of(csv.getFirst().split(",")).indexOf("flops");
        int kernel = List.of(csv.getFirst().split(",")).indexOf("kernel");
        java.util.Map<String, Long> perKernel = new java.util.TreeMap<>();
        csv.stream().skip(1).map(l -> l.split(",")).forEach(c -> perKernel.merge(c[kernel], Long.parseLong(c[flops]),
                Long::sum));
        assertThat(perKernel).containsExactly(java.util.Map.entry("mm_partial", 2L * 128 * 128 * 128),
                java.util.Map.entry("mm_reduce", 128L * 128));
        int kernels = 0;
        for (String row : lines.subList(at + 2, lines.size())) {
            if (row.startsWith("[RUN]") || row.startsWith("'")) {
                break;
            }
            kernels++;
        }
        assertThat(kernels).isEqualTo(2);
        assertThat(lines.get(at)).contains(csv.size() - 1 + " task(s)");
    }

    @Test
    void anUndersizedHeapRingIsARuntimeErrorWithTheRuntimesCode() {
        int code = jpto("run", "basic.matmul", "--preset", "tiny", "--runtime-cfg", "ring_heap=64KiB");
        assertThat(code).isEqualTo(ExitCodes.RUNTIME);
        assertThat(err()).startsWith("jpto run: runtime error: orch_error_code=2 HEAP_RING_DEADLOCK")
                .contains("ring_heap").doesNotContain("\tat ");
        assertThat(outLines().getLast()).contains("[RUN] FAIL").contains("HEAP_RING_DEADLOCK");
    }

    @Test
    void verboseShowsTheStackTrace() {
        jpto("run", "basic.matmul", "--preset", "tiny", "--runtime-cfg", "ring_heap=64KiB", "--verbose");
        assertThat(err()).contains("\tat ");
    }

    @Test
    void theSameRingSizeThatDeadlocksPassesWhenLargeEnough() {
        assertThat(jpto("run", "basic.matmul", "--preset", "tiny", "--runtime-cfg", "ring_heap=1MiB", "--bench", "2"))
                .as(err()).isZero();
    }

    @Test
    void aValidationFailureExitsOne() {
        // vector_add's tiny preset with a golden that is off by one everywhere
        ProgramSpec good = Programs.registry().get("basic.vector_add").spec("tiny");
        ProgramSpec broken = new ProgramSpec("test.broken_add", "tiny", good.program(), good.inputs(), (in, o) -> {
            good.golden().compute(in, o);
            var z = o.get("z");
            for (long i = 0; i < z.numel(); i++) {
                z.setDouble(i, z.getDouble(i) + 1);
            }
        }, good.comparators(), good.runtimeCfg());
        record P(String name) {
        }
        ProgramDef def = new PresetProgram<>("test.broken_add", "vector add against a wrong golden",
                List.of(new P("tiny")), P::name, "tiny", p -> broken);
        var registry = new ProgramRegistry(List.of(def));
        int code = JptoCommand.commandLine(out, err, registry).execute("run", "test.broken_add");
        assertThat(code).isEqualTo(ExitCodes.VALIDATION_FAIL);
        assertThat(out()).contains("'z' FAIL shape=[128, 256] dtype=fp32").contains("max_abs=1.000");
        assertThat(outLines().getLast()).startsWith("[RUN] FAIL (");
    }

    @ParameterizedTest
    @ValueSource(strings = {"basic.flash_attention:tiny_bf16", "basic.matmul:tiny", "basic.rmsnorm:tiny",
        "l3.tiled_matmul:tiny"})
    void compileThenExecReproducesRunsOutputsBitForBit(String programAndPreset, @TempDir Path tmp) throws Exception {
        String program = programAndPreset.split(":")[0];
        String preset = programAndPreset.split(":")[1];
        Path runDir = tmp.resolve("run");
        assertThat(jpto("run", program, "--preset", preset, "--seed", "11", "--output-dir", runDir.toString(),
                "--save-tensors")).as(err()).isZero();
        Path workDir = tmp.resolve("wd");
        assertThat(jpto("compile", program, "--preset", preset, "-o", workDir.toString())).as(err()).isZero();
        Path execOut = tmp.resolve("exec_out");
        assertThat(jpto("exec", workDir.toString(), "--inputs", runDir.resolve("inputs").toString(), "--outputs",
                execOut.toString())).as(err()).isZero();
        ProgramSpec spec = Programs.registry().get(program).spec(preset);
        for (var d : spec.outputs()) {
            Path a = runDir.resolve("outputs").resolve(d.name() + ".npy");
            Path b = execOut.resolve(d.name() + ".npy");
            assertThat(Files.mismatch(a, b)).as(d.name()).isEqualTo(-1L);
        }
        assertThat(out()).contains("[RUN] wrote " + execOut.resolve(spec.outputs().getFirst().name() + ".npy"));
    }

    /** A program's default runtime_cfg travels with its work dir: exec applies it, and --runtime-cfg overrides it. */
    @Test
    void execAppliesTheDefaultRuntimeCfgSavedByCompile(@TempDir Path tmp) throws Exception {
        Path workDir = tmp.resolve("wd");
        assertThat(jpto("compile", "dsv4.moe", "--preset", "tiny", "-o", workDir.toString())).as(err()).isZero();
        assertThat(out()).contains("default runtime_cfg {", "is saved in default_runtime_cfg.properties");
        assertThat(Files.readAllLines(workDir.resolve("default_runtime_cfg.properties")))
                .contains("ring_heap=1GiB").noneMatch(line -> line.startsWith("ring_dep_pool"));
        Path runDir = tmp.resolve("run");
        assertThat(jpto("run", "dsv4.moe", "--preset", "tiny", "--output-dir", runDir.toString(), "--save-tensors"))
                .as(err()).isZero();
        assertThat(DefaultRuntimeCfg.read(runDir.resolve("work_dir"))).as("the kept work dir of a run")
                .containsEntry("ring_heap", "1GiB");
        assertThat(jpto("exec", workDir.toString(), "--inputs", runDir.resolve("inputs").toString(), "--outputs",
                tmp.resolve("o").toString())).as(err()).isZero();
        assertThat(out()).contains("[RUN] the work dir's default runtime_cfg {ring_heap=1GiB}");
        // an override wins: a dep pool this small cannot hold the program's edges
        assertThat(jpto("exec", workDir.toString(), "--inputs", runDir.resolve("inputs").toString(), "--outputs",
                tmp.resolve("o2").toString(), "--runtime-cfg", "ring_dep_pool=4")).isEqualTo(ExitCodes.RUNTIME);
        assertThat(err()).contains("DEP_POOL_OVERFLOW");
    }

    @Test
    void anL3ProgramRunsOnChipsChipsWithOneLinePerChipAndExecsFromItsWorkDir(@TempDir Path tmp) throws Exception {
        Path runDir = tmp.resolve("run");
        assertThat(jpto("run", "l3.tiled_matmul", "--preset", "tiny", "-d", "3", "--chips", "2", "--output-dir",
                runDir.toString(), "--save-tensors")).as(err()).isZero();
        assertThat(outLines().stream().filter(l -> l.startsWith("[L3] device ")).toList()).hasSize(2)
                .anyMatch(l -> l.startsWith("[L3] device 3: 6 call(s), runtime "))
                .anyMatch(l -> l.startsWith("[L3] device 4: 6 call(s), runtime "))
                .allMatch(l -> l.contains("heap high-water"));
        assertThat(runDir.resolve("work_dir/l3.json")).exists();
        Path execOut = tmp.resolve("exec_out");
        assertThat(jpto("exec", runDir.resolve("work_dir").toString(), "--inputs", runDir.resolve("inputs").toString(),
                "--outputs", execOut.toString(), "--chips", "1")).as(err()).isZero();
        assertThat(outLines().stream().filter(l -> l.startsWith("[L3] device ")).toList()).hasSize(3);
        assertThat(Files.mismatch(runDir.resolve("outputs/c.npy"), execOut.resolve("c.npy"))).isEqualTo(-1L);

        assertThat(jpto("run", "basic.matmul", "--preset", "tiny", "--chips", "2")).isEqualTo(ExitCodes.USAGE);
        assertThat(err()).contains("--chips applies to L3 programs");
        assertThat(jpto("run", "l3.tiled_matmul", "--preset", "tiny", "--chips", "0")).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void execOfAMissingInputNamesTheFile(@TempDir Path tmp) {
        Path workDir = tmp.resolve("wd");
        assertThat(jpto("compile", "basic.vector_add", "--preset", "tiny", "-o", workDir.toString())).isZero();
        assertThat(jpto("exec", workDir.toString(), "--inputs", tmp.resolve("none").toString(), "--outputs",
                tmp.resolve("o").toString())).isEqualTo(ExitCodes.USAGE);
        assertThat(err()).contains("missing input file").contains("x.npy");
    }

    @Test
    void execOfSomethingThatIsNotAWorkDirIsAUsageError(@TempDir Path tmp) {
        assertThat(jpto("exec", tmp.toString(), "--inputs", tmp.toString(), "--outputs", tmp.toString()))
                .isEqualTo(ExitCodes.USAGE);
        assertThat(err()).startsWith("jpto exec: ").contains("manifest.json");
    }

    /** acc += x over [64, 64], acc starting from a fill: exec must start it from inputs/acc.npy as run did. */
    private static ProgramRegistry inPlaceRegistry() {
        var k = dev.jpto.compiler.dsl.KernelBuilder.kernel("acc_add");
        var x = k.input("x", DType.FP32, 2);
        var acc = k.inout("acc", DType.FP32, 2);
        var a = k.tile("a", DType.FP32, 64, 64);
        var b = k.tile("b", DType.FP32, 64, 64);
        k.load(a, acc, 0, 0).load(b, x, 0, 0).add(a, a, b).store(a, acc, 0, 0);
        var p = dev.jpto.compiler.dsl.ProgramBuilder.program("accumulate");
        var xs = p.input("x", DType.FP32, 64, 64);
        var accs = p.output("acc", DType.FP32, 64, 64);
        var add = p.aiv(k.build());
        p.orchestrate(o -> o.submit(add, TaskArg.in(xs), TaskArg.inout(accs)));
        ProgramSpec spec = new ProgramSpec("test.accumulate", "tiny", p.build(),
                List.of(InputSpec.of("x", DType.FP32, new long[] {64, 64}, new Init.Uniform(-1, 1))),
                (in, out) -> {
                    var xt = in.get("x");
                    var at = out.get("acc");
                    for (long i = 0; i < at.numel(); i++) {
                        at.setDouble(i, at.getDouble(i) + xt.getDouble(i));
                    }
                }, java.util.Map.of("acc", Comparators.allclose(0, 0)), java.util.Map.of(),
                java.util.Map.of("acc", InputFill.of(new Init.Uniform(10, 20))));
        record P(String name) {
        }
        return new ProgramRegistry(List.of(new PresetProgram<>("test.accumulate", "acc += x in place",
                List.of(new P("tiny")), P::name, "tiny", pr -> spec)));
    }

    @Test
    void execStartsAnInPlaceOutputFromItsSavedInitialValue(@TempDir Path tmp) throws Exception {
        ProgramRegistry registry = inPlaceRegistry();
        Path runDir = tmp.resolve("run");
        assertThat(JptoCommand.commandLine(out, err, registry).execute("run", "test.accumulate", "--output-dir",
                runDir.toString(), "--save-tensors")).as(err()).isZero();
        assertThat(JptoCommand.commandLine(out, err, registry).execute("compile", "test.accumulate", "-o",
                tmp.resolve("wd").toString())).as(err()).isZero();
        assertThat(jpto("exec", tmp.resolve("wd").toString(), "--inputs", runDir.resolve("inputs").toString(),
                "--outputs", tmp.resolve("o").toString())).as(err()).isZero();
        assertThat(Files.mismatch(runDir.resolve("outputs/acc.npy"), tmp.resolve("o/acc.npy"))).isEqualTo(-1L);
    }

    @Test
    void execWithPmuWritesCountersUnderTheOutputsDirAndPrintsTheTable(@TempDir Path tmp) throws Exception {
        ProgramRegistry registry = inPlaceRegistry();
        Path runDir = tmp.resolve("run");
        assertThat(JptoCommand.commandLine(out, err, registry).execute("run", "test.accumulate", "--output-dir",
                runDir.toString(), "--save-tensors")).as(err()).isZero();
        assertThat(jpto("exec", runDir.resolve("work_dir").toString(), "--inputs", runDir.resolve("inputs").toString(),
                "--outputs", tmp.resolve("o").toString(), "--enable-pmu")).as(err()).isZero();
        List<String> csv = Files.readAllLines(tmp.resolve("o/pmu.csv"));
        assertThat(csv).hasSize(2);
        List<String> header = List.of(csv.get(0).split(","));
        String[] row = csv.get(1).split(",");
        // one acc_add task on 64×64 fp32: 4096 adds, loads of acc and x, one store of acc
        assertThat(row[header.indexOf("kernel")]).isEqualTo("acc_add");
        assertThat(row[header.indexOf("flops")]).isEqualTo("4096");
        assertThat(row[header.indexOf("bytes_read")]).isEqualTo(String.valueOf(2 * 64 * 64 * 4));
        assertThat(row[header.indexOf("bytes_written")]).isEqualTo(String.valueOf(64 * 64 * 4));
        assertThat(outLines()).anyMatch(l -> l.matches("acc_add\\s+1\\s+.*"));
    }
}
