package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code jpto sweep} through the command line: exit codes and messages; a user's source program in a sweep. */
@Timeout(180)
class SweepCommandTest {
    @TempDir
    Path tmp;

    private final ByteArrayOutputStream outBuf = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBuf = new ByteArrayOutputStream();

    private int jpto(String... args) {
        outBuf.reset();
        errBuf.reset();
        return Main.run(new PrintStream(outBuf, true, StandardCharsets.UTF_8),
                new PrintStream(errBuf, true, StandardCharsets.UTF_8),
                Map.of("JPTO_CACHE_DIR", tmp.resolve("cache").toString()), args);
    }

    private String err() {
        return errBuf.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aBadSweepFileIsExit2WithItsLineAndTheAllowedValues() throws IOException {
        Path file = Files.writeString(tmp.resolve("bad.yaml"), "programs: [basic.matmul]\nplatforms: [a2a3sim, tpu]\n");
        assertThat(jpto("sweep", file.toString(), "--out", tmp.resolve("out").toString()))
                .isEqualTo(ExitCodes.USAGE);
        assertThat(err()).startsWith("jpto sweep: " + file + ":2: platform: ").contains("a2a3sim", "a5sim")
                .doesNotContain("\tat ");
        assertThat(tmp.resolve("out").resolve("results.jsonl")).doesNotExist();
    }

    @Test
    void aUserSourceProgramAndARegisteredOneRunAsCasesAndARerunSkipsThem() throws IOException {
        Path tutorial = UserProgramsCliTest.TUTORIAL.toAbsolutePath().normalize();
        Path file = Files.writeString(tmp.resolve("mine.yaml"), "programs:\n  - " + tutorial
                + "\n  - basic.vector_add\nseeds: [3]\n");
        Path out = tmp.resolve("out");
        assertThat(jpto("sweep", file.toString(), "--out", out.toString(), "--max-parallel", "1")).as(err())
                .isZero();
        List<String> lines = Files.readAllLines(out.resolve("results.jsonl"));
        assertThat(lines).hasSize(2);
        assertThat(lines.getFirst() + lines.getLast()).contains("\"program\":\"tutorial.relu_dense\"",
                "\"program\":\"basic.vector_add\"", "\"seed\":3");
        assertThat(lines).allMatch(l -> l.contains("\"outcome\":\"PASS\""));
        assertThat(jpto("sweep", file.toString(), "--out", out.toString())).as(err()).isZero();
        assertThat(outBuf.toString(StandardCharsets.UTF_8)).contains("2 case(s), 2 already in", "0 to run",
                "[SWEEP] 2 case(s): 2 as expected, 0 unexpected");
        assertThat(Files.readAllLines(out.resolve("results.jsonl"))).isEqualTo(lines);
    }

    @Test
    void maxParallelBelowOneIsExit2() throws IOException {
        Path file = Files.writeString(tmp.resolve("s.yaml"), "programs: [basic.matmul]\n");
        assertThat(jpto("sweep", file.toString(), "--max-parallel", "0", "--out", tmp.resolve("o").toString()))
                .isEqualTo(ExitCodes.USAGE);
        assertThat(err()).isEqualTo("jpto sweep: --max-parallel must be >= 1: --max-parallel 0 (try "
                + dev.jpto.sweep.Sweep.defaultParallel() + ")" + System.lineSeparator());
    }
}
