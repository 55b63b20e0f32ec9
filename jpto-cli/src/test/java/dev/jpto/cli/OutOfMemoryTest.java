package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.ErrorCode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 20 item 9: running out of memory or stack is exit 3 with one line saying what ran out and what to change,
 * never a stack trace with exit 1. The CLI runs as its own JVM with a small {@code -Xmx} (this test's class path),
 * so that a real OutOfMemoryError is thrown and mapped.
 */
@Timeout(120)
class OutOfMemoryTest {
    /** Runs the CLI in a child JVM with {@code -Xmx<heap>}; returns exit code and stderr (JVM warnings dropped). */
    private static String[] jptoWithHeap(String heap, Path dir, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + heap, "--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(List.of(args));
        Path err = dir.resolve("stderr.txt");
        Process p = new ProcessBuilder(cmd).redirectOutput(dir.resolve("stdout.txt").toFile())
                .redirectError(err.toFile()).start();
        try {
            assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("the child jpto exits within 90 s").isTrue();
        } finally {
            p.destroyForcibly();
        }
        String text = String.join("\n", Files.readAllLines(err).stream()
                .filter(l -> !l.startsWith("WARNING: Using incubator modules")).toList());
        return new String[] {Integer.toString(p.exitValue()), text};
    }

    @Test
    void aMatmulBenchTooLargeForTheHostIsRefusedBeforeAllocatingWithExit2(@TempDir Path tmp) throws Exception {
        // 1048576 x 1048576 fp32 = 4TiB per matrix: refused by its size (an input-size cause: exit 2), in one line
        String[] r = jptoWithHeap("64m", tmp, "bench", "matmul", "--size", "1048576");
        assertThat(r[0]).as("exit code; stderr: %s", r[1]).isEqualTo(Integer.toString(ExitCodes.USAGE));
        assertThat(r[1].lines()).hasSize(1);
        assertThat(r[1]).startsWith("jpto bench matmul: size must be at most 16384").doesNotContain("\tat ");
    }

    @Test
    void nativeMemoryThatRunsOutIsOneLineWithExit3() {
        // what Arena.allocate throws when the host refuses native memory (-Xmx does not bound it)
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Outcome.of("bench", new PrintStream(err, true, StandardCharsets.UTF_8), false,
                () -> {
                    throw new OutOfMemoryError("Unable to allocate 4398046511104 bytes");
                });
        assertThat(code).isEqualTo(ExitCodes.RUNTIME);
        String text = err.toString(StandardCharsets.UTF_8);
        assertThat(text.lines()).hasSize(1);
        assertThat(text).startsWith("jpto bench: out of native memory (Unable to allocate 4398046511104 bytes)")
                .contains("use smaller sizes (run and exec refuse tensors over --max-memory before allocating them)");
    }

    @Test
    void aWorkDirTooLargeForTheJavaHeapIsOneLineNamingXmxWithExit3(@TempDir Path tmp) throws Exception {
        Path wd = tmp.resolve("wd");
        ByteArrayOutputStream quiet = new ByteArrayOutputStream();
        assertThat(Main.run(new PrintStream(quiet), new PrintStream(quiet), "compile", "basic.vector_add", "--preset",
                "tiny", "-o", wd.toString())).isZero();
        // an 8MiB kernel file (blank lines after the kernel) cannot be read into a 16MiB heap alongside the JVM
        Path kernel = wd.resolve("kernels/add_tile.pto");
        Files.writeString(kernel, Files.readString(kernel) + ("\n" + " ".repeat(1023)).repeat(8192));
        String[] r = jptoWithHeap("16m", tmp, "exec", wd.toString(), "--inputs", tmp.resolve("in").toString(),
                "--outputs", tmp.resolve("out").toString(), "--runtime-cfg", "ring_task_window=16", "--runtime-cfg",
                "ring_dep_pool=16");
        assertThat(r[0]).as("exit code; stderr: %s", r[1]).isEqualTo(Integer.toString(ExitCodes.RUNTIME));
        assertThat(r[1].lines()).hasSize(1);
        assertThat(r[1]).startsWith("jpto exec: out of Java heap memory (Java heap space; maximum heap ")
                .containsPattern("give the JVM more, e.g. JPTO_JAVA_OPTS=-Xmx[0-9]+g, or use smaller sizes$")
                .doesNotContain("\tat ");
    }

    @Test
    void aStackOverflowAndAChipErrorCausedByOneAreMappedToo() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(buf, true, StandardCharsets.UTF_8);
        int stack = Outcome.of("run", err, false, () -> recurse(0)); // a real StackOverflowError
        int chip = Outcome.of("run", err, false, () -> {
            throw new ChipRuntimeException(ErrorCode.KERNEL_EXCEPTION, "task 1 kernel 'k' threw "
                    + "java.lang.OutOfMemoryError: Java heap space", new OutOfMemoryError("Java heap space"));
        });
        int wrapped = Outcome.of("exec", err, false, () -> {
            throw new IllegalStateException("distributed job failed", new OutOfMemoryError("Java heap space"));
        });
        assertThat(List.of(stack, chip, wrapped)).containsOnly(ExitCodes.RUNTIME);
        List<String> lines = buf.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).isEqualTo("jpto run: out of stack space (StackOverflowError): something nests too "
                + "deeply; give threads a larger stack with JPTO_JAVA_OPTS=-Xss64m");
        assertThat(lines.get(1)).startsWith("jpto run: runtime error: ").contains("KERNEL_EXCEPTION")
                .contains("(out of Java heap memory (Java heap space; maximum heap ")
                .contains("JPTO_JAVA_OPTS=-Xmx");
        assertThat(lines.get(2)).startsWith("jpto exec: out of Java heap memory (Java heap space; maximum heap ");
    }

    private static int recurse(int depth) {
        return recurse(depth + 1) + 1;
    }
}
