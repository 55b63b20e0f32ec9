package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.Tensor;
import dev.jpto.lib.npy.Npy;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The programs under {@code examples/} as a user runs them: {@code jpto run FILE.java} compiles the file and
 * validates it against its own golden, then {@code examples/numpy_check.py} recomputes the outputs with numpy
 * from the saved inputs, an independent reference.
 */
@Timeout(600)
class ExamplesTest {
    /** The repository's examples/ (tests run in the module's directory). */
    static final Path EXAMPLES = Path.of("..", "examples");
    /** A bound on each python3 run (a few seconds normally; generous for a loaded machine). */
    static final long PYTHON_WAIT_SECONDS = 120;

    /** One run: the source file, its program and preset, numpy_check's name for it, the outputs it validates. */
    record Example(String file, String program, String preset, String check, List<String> outputs) {
        @Override
        public String toString() {
            return file + " --preset " + preset;
        }
    }

    static final List<Example> ALL = List.of(
            new Example("ReluDense.java", "tutorial.relu_dense", "tiny", "relu_dense", List.of("y")),
            new Example("LayerNorm.java", "examples.layer_norm", "tiny", "layer_norm", List.of("y")),
            new Example("Rope.java", "examples.rope", "tiny", "rope", List.of("q_rot")),
            new Example("GemmEpilogue.java", "examples.gemm_epilogue", "tiny", "gemm_epilogue", List.of("c")),
            new Example("GemmEpilogue.java", "examples.gemm_epilogue", "tiny_silu", "gemm_epilogue", List.of("c")),
            new Example("MultiProjection.java", "examples.multi_projection", "tiny", "multi_projection",
                    List.of("q", "k", "v")),
            new Example("TopK.java", "examples.topk", "tiny", "topk", List.of("values", "indices")),
            new Example("PagedAttention.java", "examples.paged_attention", "tiny", "paged_attention",
                    List.of("out")),
            new Example("MixedMatmul.java", "examples.mixed_matmul", "tiny", "mixed_matmul", List.of("y")));

    /** Shared by every run, as a user's cache is: a second preset of one file reuses its compiled classes. */
    @TempDir
    static Path cache;

    @TempDir
    Path dir;

    private static Boolean numpy;

    static Stream<Example> examples() {
        return ALL.stream();
    }

    @Test
    void everyExampleSourceFileIsRunHere() throws IOException {
        Set<String> files;
        try (Stream<Path> list = Files.list(EXAMPLES)) {
            files = list.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".java"))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
        assertThat(files).isEqualTo(ALL.stream().map(Example::file).collect(Collectors.toCollection(TreeSet::new)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void runsFromItsSourceFileAndNumpyAgrees(Example e) throws Exception {
        ByteArrayOutputStream outBuf = new ByteArrayOutputStream();
        ByteArrayOutputStream errBuf = new ByteArrayOutputStream();
        int code = Main.run(new PrintStream(outBuf, true, StandardCharsets.UTF_8),
                new PrintStream(errBuf, true, StandardCharsets.UTF_8), Map.of("JPTO_CACHE_DIR", cache.toString()),
                "run", EXAMPLES.resolve(e.file()).toString(), "--preset", e.preset(), "--output-dir", dir.toString(),
                "--save-tensors");
        String out = outBuf.toString(StandardCharsets.UTF_8);
        assertThat(code).as(out + errBuf.toString(StandardCharsets.UTF_8)).isEqualTo(ExitCodes.PASS);
        assertThat(out).contains("[RUN] " + e.program() + " preset=" + e.preset()).contains("[RUN] PASS");
        for (String o : e.outputs()) {
            assertThat(out).contains("'" + o + "' PASS");
            assertThat(dir.resolve("outputs").resolve(o + ".npy")).isRegularFile();
        }

        Assumptions.assumeTrue(numpyAvailable(), "python3 with numpy is not available: the numpy check is skipped");
        Result agree = numpyCheck(e);
        assertThat(agree.exit()).as(agree.text()).isZero();
        for (String o : e.outputs()) {
            assertThat(agree.text()).contains(o + ": OK");
        }

        // the check can fail: one element of jpto's first output moved by 1 is caught and named
        String first = e.outputs().getFirst();
        nudgeFirstElement(dir.resolve("outputs").resolve(first + ".npy"));
        Result caught = numpyCheck(e);
        assertThat(caught.exit()).as(caught.text()).isEqualTo(1);
        assertThat(caught.text()).contains(first + ": MISMATCH");
    }

    /** A child process's exit code and its merged output. */
    record Result(int exit, String text) {
    }

    private Result numpyCheck(Example e) throws IOException, InterruptedException {
        return python(List.of(EXAMPLES.resolve("numpy_check.py").toString(), e.check(), dir.toString(), "--preset",
                e.preset()));
    }

    private static void nudgeFirstElement(Path npy) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Tensor t = Npy.read(npy, arena);
            t.setDouble(0, t.getDouble(0) + 1);
            Npy.write(npy, t);
        }
    }

    private static synchronized boolean numpyAvailable() throws InterruptedException {
        if (numpy == null) {
            try {
                numpy = python(List.of("-c", "import numpy")).exit() == 0;
            } catch (IOException notInstalled) {
                numpy = false;
            }
        }
        return numpy;
    }

    private static Result python(List<String> args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("python3"));
        command.addAll(args);
        Path log = Files.createTempFile("numpy-check", ".txt");
        try {
            // output to a file, so a child that hangs cannot block the test past the bounded wait
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!p.waitFor(PYTHON_WAIT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("python3 " + args + " did not finish within " + PYTHON_WAIT_SECONDS + " s");
            }
            return new Result(p.exitValue(), Files.readString(log));
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
