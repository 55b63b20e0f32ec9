package dev.jpto.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.compiler.run.RunConfigKeys;
import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.lib.npy.Npy;
import dev.jpto.lib.npy.NpyType;
import dev.jpto.lib.registry.ProgramSpec;
import dev.jpto.lib.registry.Programs;
import dev.jpto.lib.runner.GoldenRunner;
import dev.jpto.lib.runner.JitConfigException;
import dev.jpto.lib.runner.OutputCheck;
import dev.jpto.lib.runner.Progress;
import dev.jpto.lib.runner.RunResult;
import dev.jpto.lib.runner.RunSpec;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.ErrorCode;
import dev.jpto.runtime.Platform;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GoldenRunnerTest {
    private final ByteArrayOutputStream buf = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8);

    private String log() {
        return buf.toString(StandardCharsets.UTF_8);
    }

    private List<String> lines() {
        return log().lines().toList();
    }

    private static ProgramSpec spec(String program, String preset) {
        return Programs.registry().get(program).spec(preset);
    }

    @Test
    void stagesInOrderThenOneLinePerOutputThenPass() {
        RunResult r = GoldenRunner.runJit(spec("basic.vector_add", "tiny"), RunSpec.defaults(out), Map.of());
        assertThat(r.passed()).isTrue();
        List<String> stages = lines().stream().filter(l -> l.matches("\\[RUN\\] [a-z ]+ \\(\\d+\\.\\d+s\\).*"))
                .map(l -> l.substring(6, l.indexOf(" (")))
                .toList();
        assertThat(stages).containsExactly("compile", "generate inputs", "compute golden", "runtime", "validate");
        assertThat(r.stageNanos().keySet()).containsExactlyElementsOf(stages);
        assertThat(log()).contains("'z' PASS shape=[128, 256] dtype=fp32");
        assertThat(lines().getLast()).matches("\\[RUN\\] PASS \\(\\d+\\.\\d{3}s\\)");
    }

    @Test
    void aWrongResultFailsWithErrorsCountAndFirstIndices() {
        ProgramSpec good = spec("basic.vector_add", "tiny");
        // the golden of x - y instead of x + y: every element with y != 0 differs
        ProgramSpec wrong = new ProgramSpec(good.programName(), good.preset(), good.program(), good.inputs(),
                (in, o) -> {
                    Tensor x = in.get("x");
                    Tensor y = in.get("y");
                    Tensor z = o.get("z");
                    for (long i = 0; i < z.numel(); i++) {
                        z.setDouble(i, x.getDouble(i) - y.getDouble(i));
                    }
                }, good.comparators(), good.runtimeCfg());
        RunResult r = GoldenRunner.runJit(wrong, RunSpec.defaults(out), Map.of());
        assertThat(r.passed()).isFalse();
        OutputCheck z = r.outputs().getFirst();
        assertThat(z.passed()).isFalse();
        assertThat(z.result().mismatchCount()).isGreaterThan(z.result().numel() / 2);
        assertThat(z.result().firstMismatches()).isNotEmpty();
        String line = lines().stream().filter(l -> l.startsWith("'z' ")).findFirst().orElseThrow();
        assertThat(line).startsWith("'z' FAIL shape=[128, 256] dtype=fp32").contains("max_abs=").contains("[0, 0]");
        assertThat(lines().getLast()).matches("\\[RUN\\] FAIL \\(\\d+\\.\\d+s\\) 1 of 1 output\\(s\\) mismatched: 'z'");
    }

    @Test
    void benchmarkPrintsEffectiveTimesAndUsesTheRunsConfigPlatformAndDevice() {
        RunSpec s = RunSpec.defaults(out).withPlatform(Platform.A5SIM, 0).withBench(3, Progress.lines(out));
        RunResult r = GoldenRunner.runJit(spec("basic.matmul", "tiny"), s,
                Map.of("ring_heap", "1MiB", "ring_task_window", "64"));
        assertThat(r.passed()).isTrue();
        assertThat(r.benchmark()).isPresent();
        var last = r.benchmark().orElseThrow().last();
        // the benchmark chip ran with this run's ring sizes and platform, not the defaults
        assertThat(last.platform()).isEqualTo(Platform.A5SIM);
        assertThat(last.rings()).allSatisfy(ring -> {
            assertThat(ring.heapBytes()).isEqualTo(1L << 20);
            assertThat(ring.taskWindow()).isEqualTo(64);
        });
        assertThat(r.report().ring(0).heapBytes()).isEqualTo(1L << 20);
        assertThat(log()).containsPattern("\\[RUN\\] benchmark \\(\\d+\\.\\d+s\\) 3 rounds")
                .containsPattern("effective_us \\(3 rounds\\) min=\\d+\\.\\d median=\\d+\\.\\d mean=\\d+\\.\\d "
                        + "max=\\d+\\.\\d");
        var b = r.benchmark().orElseThrow();
        assertThat(b.minUs()).isPositive().isLessThanOrEqualTo(b.medianUs());
        assertThat(b.medianUs()).isLessThanOrEqualTo(b.maxUs());
    }

    @Test
    void anUnknownRuntimeCfgKeyIsRefusedWithTheValidKeys() {
        assertThatThrownBy(() -> GoldenRunner.runJit(spec("basic.vector_add", "tiny"), RunSpec.defaults(out),
                Map.of("ring_hep", "1GiB")))
                .isInstanceOf(JitConfigException.class)
                .hasMessageContaining("ring_hep")
                .hasMessageContaining(String.join(", ", RunConfigKeys.keys()));
        assertThat(log()).isEmpty();
    }

    @Test
    void aRuntimeCfgForAnotherChipIsRefused() {
        assertThatThrownBy(() -> GoldenRunner.runJit(spec("basic.vector_add", "tiny"), RunSpec.defaults(out),
                Map.of("platform", "a5sim")))
                .isInstanceOf(JitConfigException.class)
                .hasMessageContaining("platform=a5sim disagrees with the run's --platform a2a3sim");
    }

    @Test
    void anUndersizedHeapRingFailsWithTheRuntimesCodeAndTheLogSaysSo() {
        // tiny matmul keeps 8 partial products of 16 KiB each live in the root scope: 128 KiB
        assertThatThrownBy(() -> GoldenRunner.runJit(spec("basic.matmul", "tiny"), RunSpec.defaults(out),
                Map.of("ring_heap", "64KiB")))
                .isInstanceOfSatisfying(ChipRuntimeException.class, e -> {
                    assertThat(e.error()).isEqualTo(ErrorCode.HEAP_RING_DEADLOCK);
                    assertThat(e.getMessage()).contains("ring_heap");
                });
        assertThat(lines().getLast()).matches("\\[RUN\\] FAIL \\(\\d+\\.\\d+s\\) runtime error orch_error_code=\\d+ "
                + "HEAP_RING_DEADLOCK");
    }

    @Test
    void theSameHeapSizeThatDeadlocksPassesWhenDoubled() {
        RunResult r = GoldenRunner.runJit(spec("basic.matmul", "tiny"), RunSpec.defaults(out),
                Map.of("ring_heap", "128KiB"));
        assertThat(r.passed()).isTrue();
        assertThat(r.report().ring(0).heapMax()).isEqualTo(128L << 10);
    }

    @Test
    void savedTensorsRoundTripAndHalfPrecisionIsStoredAsFloat32(@TempDir Path dir) throws Exception {
        RunSpec s = RunSpec.defaults(out).withOutputDir(dir, true).withSeed(3);
        RunResult r = GoldenRunner.runJit(spec("basic.rmsnorm", "tiny"), s, Map.of());
        assertThat(r.passed()).isTrue();
        for (String f : List.of("inputs/x.npy", "inputs/gamma.npy", "outputs/y.npy", "golden/y.npy")) {
            assertThat(dir.resolve(f)).isRegularFile();
            assertThat(Npy.readHeader(dir.resolve(f)).type()).isEqualTo(dev.jpto.lib.npy.NpyType.F4);
        }
        assertThat(r.workDir()).contains(dir.resolve("work_dir"));
        assertThat(dir.resolve("work_dir/manifest.json")).isRegularFile();
        // the saved bf16 input reads back bit for bit into bf16, and equals what the seed generates
        Tensor x = Npy.read(dir.resolve("inputs/x.npy"), DType.BF16, new long[] {64, 256});
        ProgramSpec p = spec("basic.rmsnorm", "tiny");
        try (var arena = java.lang.foreign.Arena.ofConfined()) {
            Tensor again = Tensor.allocate(arena, DType.BF16, 64, 256);
            p.inputs().getFirst().fill().fill(again, "x", 3);
            assertThat(x.buffer().mismatch(again.buffer())).isEqualTo(-1);
        }
        assertThat(Files.list(dir.resolve("outputs")).count()).isEqualTo(1);
    }

    @Test
    void aTemporaryWorkDirIsRemoved() {
        RunResult r = GoldenRunner.runJit(spec("basic.vector_add", "tiny"), RunSpec.defaults(out), Map.of());
        assertThat(r.workDir()).isEmpty();
        String dirLine = lines().stream().filter(l -> l.startsWith("[RUN] compile")).findFirst().orElseThrow();
        Path wd = Path.of(dirLine.substring(dirLine.indexOf("work dir ") + 9));
        assertThat(wd).doesNotExist();
    }
}
