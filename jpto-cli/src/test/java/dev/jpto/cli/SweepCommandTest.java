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

    @Test
    void clusterOptionsAreCheckedBeforeAnyMemberStartsAndAreExit2() throws IOException {
        Path file = Files.writeString(tmp.resolve("s.yaml"), "programs: [basic.matmul]\n");
        Path secret = Files.writeString(tmp.resolve("secret"), "0123456789abcdef0123456789abcdef");
        java.nio.file.Files.setPosixFilePermissions(secret,
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        Path open = Files.writeString(tmp.resolve("open-secret"), "0123456789abcdef0123456789abcdef");
        java.nio.file.Files.setPosixFilePermissions(open,
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        String out = tmp.resolve("o").toString();
        Map<List<String>, String> cases = Map.of(
                List.of("sweep", file.toString(), "--out", out, "--join", "127.0.0.1:5701"),
                "jpto sweep: jpto sweep --join needs --secret-file FILE",
                List.of("sweep", file.toString(), "--out", out, "--secret-file", secret.toString()),
                "jpto sweep: --bind, --cluster-name and --secret-file go with --join HOST:PORT[,...]",
                List.of("sweep", file.toString(), "--out", out, "--join", "127.0.0.1:5701", "--secret-file",
                        open.toString()),
                "jpto sweep: --secret-file " + open + ": readable by other users; allow only its owner",
                List.of("sweep", file.toString(), "--out", out, "--join", "10.0.0.5:http", "--secret-file",
                        secret.toString()),
                "jpto sweep: --join '10.0.0.5:http': the port must be a number from 1 to 65535",
                List.of("sweep", file.toString(), "--out", out, "--join", "127.0.0.1", "--secret-file",
                        secret.toString(), "--max-parallel", "2"),
                "jpto sweep: --max-parallel has no effect with --join",
                List.of("worker", "--slots", "0", "--secret-file", secret.toString()),
                "jpto worker: --slots must be >= 1: --slots 0",
                List.of("worker", "--secret-file", tmp.resolve("none").toString()),
                "jpto worker: --secret-file " + tmp.resolve("none") + ": no such file",
                List.of("worker", "--cluster-name", "a b", "--secret-file", secret.toString()),
                "jpto worker: --cluster-name 'a b': use 1 to 64 letters");
        cases.forEach((args, message) -> {
            assertThat(jpto(args.toArray(String[]::new))).as(String.join(" ", args) + "\n" + err())
                    .isEqualTo(ExitCodes.USAGE);
            assertThat(err()).as(String.join(" ", args)).startsWith(message).doesNotContain("\tat ");
        });
        assertThat(tmp.resolve("o").resolve("results.jsonl")).doesNotExist();
    }

    @Test
    void compareListsAStatusChangeWithExit1AndIsExit0OnTheSameRunAnd2WithoutResults() throws IOException {
        String line = "{\"case_id\":\"c1\",\"program\":\"basic.matmul\",\"preset\":\"tiny\","
                + "\"runtime_cfg\":{\"ring_heap\":\"1024\"},\"platform\":\"a2a3sim\",\"seed\":0,"
                + "\"observed\":\"%s\",\"stage_millis\":{\"runtime\":5},\"effective_us\":-1.0}%n";
        Path before = Files.createDirectories(tmp.resolve("old"));
        Files.writeString(before.resolve("results.jsonl"), line.formatted("PASS"));
        Path after = Files.createDirectories(tmp.resolve("new"));
        Files.writeString(after.resolve("results.jsonl"), line.formatted("HEAP_RING_DEADLOCK"));

        assertThat(jpto("sweep", "compare", before.toString(), after.toString())).as(err()).isEqualTo(1);
        assertThat(outBuf.toString(StandardCharsets.UTF_8)).contains("[COMPARE] STATUS basic.matmul/tiny "
                + "ring_heap=1024 a2a3sim seed=0: PASS -> HEAP_RING_DEADLOCK", "1 status change(s), 0 slower by "
                + "more than 10%");
        assertThat(jpto("sweep", "compare", "--threshold", "5", after.toString(), after.toString())).as(err())
                .isZero();
        assertThat(jpto("sweep", "compare", before.toString(), tmp.resolve("none").toString()))
                .isEqualTo(ExitCodes.USAGE);
        assertThat(err()).isEqualTo("jpto sweep compare: NEW " + tmp.resolve("none") + ": no such file or "
                + "directory" + System.lineSeparator());
        assertThat(jpto("sweep")).isEqualTo(ExitCodes.USAGE);
        assertThat(err()).startsWith("jpto sweep: missing FILE: ");
    }
}
