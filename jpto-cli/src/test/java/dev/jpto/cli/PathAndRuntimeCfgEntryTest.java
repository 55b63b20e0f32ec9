package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Command-line values that used to be taken silently: an empty path (the current directory: {@code -o ''} wrote a
 * work dir into wherever jpto was started) and a {@code --runtime-cfg} key given twice with different values (the
 * last one won).
 */
@Timeout(120)
class PathAndRuntimeCfgEntryTest {
    private final ByteArrayOutputStream outBuf = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBuf = new ByteArrayOutputStream();

    @TempDir
    Path tmp;

    private int jpto(String... args) {
        return Main.run(new PrintStream(outBuf, true, StandardCharsets.UTF_8),
                new PrintStream(errBuf, true, StandardCharsets.UTF_8), args);
    }

    private String err() {
        return errBuf.toString(StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " "})
    void anEmptyPathIsRefusedNamingTheOption(String empty) {
        String wd = tmp.resolve("wd").toString();
        String dir = tmp.toString();
        String[][] lines = {
            {"compile", "basic.vector_add", "--preset", "tiny", "-o", empty},
            {"compile", "basic.vector_add", "--preset", "tiny", "--output", empty},
            {"run", "basic.vector_add", "--preset", "tiny", "--output-dir", empty},
            {"exec", wd, "--inputs", empty, "--outputs", dir},
            {"exec", wd, "--inputs", dir, "--outputs", empty},
            {"exec", empty, "--inputs", dir, "--outputs", dir},
        };
        String[] named = {"option '--output'", "option '--output'", "option '--output-dir'", "option '--inputs'",
            "option '--outputs'", "positional parameter at index 0 (WORKDIR)"};
        for (int i = 0; i < lines.length; i++) {
            errBuf.reset();
            assertThat(jpto(lines[i])).as(String.join(" ", lines[i]) + ": " + err()).isEqualTo(ExitCodes.USAGE);
            assertThat(err()).startsWith("jpto " + lines[i][0] + ": Invalid value for " + named[i] + ": the path is "
                    + "empty ('" + empty + "'), which would mean the current directory; give a directory, e.g. ./out")
                    .doesNotContain("\tat ");
            assertThat(err().lines().count()).isEqualTo(1);
        }
        assertThat(outBuf.toString(StandardCharsets.UTF_8)).doesNotContain("[RUN]");
        assertThat(Path.of("manifest.json")).as("nothing written into the current directory").doesNotExist();
    }

    @Test
    void aRuntimeCfgKeyGivenTwiceWithDifferentValuesIsRefusedNamingBoth() {
        assertThat(jpto("run", "basic.vector_add", "--preset", "tiny", "--runtime-cfg", "ring_heap=1MiB",
                "--runtime-cfg", "aicpu_thread_num=2", "--runtime-cfg=ring_heap=2MiB")).as(err())
                .isEqualTo(ExitCodes.USAGE);
        assertThat(err()).isEqualTo("jpto run: --runtime-cfg ring_heap is given twice with different values: "
                + "ring_heap=1MiB and ring_heap=2MiB (give it once); see 'jpto run --help'" + System.lineSeparator());
        assertThat(outBuf.toString(StandardCharsets.UTF_8)).doesNotContain("[RUN] compile");

        errBuf.reset();
        assertThat(jpto("plan", "basic.vector_add", "--preset", "tiny", "--runtime-cfg", "ring_heap=64KiB",
                "--runtime-cfg", "ring_heap=1MiB")).isEqualTo(ExitCodes.USAGE);
        assertThat(err()).startsWith("jpto plan: --runtime-cfg ring_heap is given twice with different values: "
                + "ring_heap=64KiB and ring_heap=1MiB");
    }

    @Test
    void aRuntimeCfgKeyRepeatedWithTheSameValueIsAccepted() {
        assertThat(jpto("plan", "basic.vector_add", "--preset", "tiny", "--runtime-cfg", "ring_heap=1MiB",
                "--runtime-cfg=ring_heap=1MiB", "--runtime-cfg", "ring_dep_pool=1024")).as(err()).isZero();
        assertThat(outBuf.toString(StandardCharsets.UTF_8))
                .contains("--runtime-cfg {ring_heap=1MiB, ring_dep_pool=1024}) cover the plan");
    }

    @Test
    void aRuntimeCfgEntryWithoutAValueOrAtTheEndIsAUsageError() {
        assertThat(jpto("plan", "basic.vector_add", "--runtime-cfg", "ring_heap")).isEqualTo(ExitCodes.USAGE);
        assertThat(err()).startsWith("jpto plan: Value for option '--runtime-cfg' (KEY=VALUE) should be in "
                + "KEY=VALUE format but was ring_heap; see 'jpto plan --help'");
        errBuf.reset();
        assertThat(jpto("plan", "basic.vector_add", "--runtime-cfg")).isEqualTo(ExitCodes.USAGE);
        assertThat(err()).startsWith("jpto plan: Missing required parameter for option '--runtime-cfg' (KEY=VALUE)");
    }

    @Test
    void anIntegerBeyondIntSaysTheAllowedRange() {
        assertThat(jpto("run", "basic.vector_add", "--preset", "tiny", "--runtime-cfg", "aicpu_thread_num=9999999999"))
                .isEqualTo(ExitCodes.USAGE);
        assertThat(err()).startsWith("jpto run: ").contains("aicpu_thread_num must be <= 64 in the simulator: "
                + "aicpu_thread_num=9999999999").doesNotContain("must be an integer");
    }
}
