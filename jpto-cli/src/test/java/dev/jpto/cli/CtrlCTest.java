package dev.jpto.cli;

import static dev.jpto.cli.ChildJpto.awaitOutput;
import static dev.jpto.cli.ChildJpto.startJpto;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.cli.ChildJpto.Drain;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Ctrl-C during a long {@code jpto run}: the CLI runs as its own JVM (this test's class path), gets a real SIGINT
 * ({@code kill -INT}) in the middle of its benchmark, and must stop the chip run — not merely die — with exit 130,
 * a message, and no chip thread left; during {@code jpto fuzz}, the session must stop without false findings and
 * remove its directories. The stop latency is printed for the report, asserted only against a generous bound.
 */
@Timeout(120)
class CtrlCTest {
    private static final long GENEROUS_BOUND_MS = 5_000;

    /** True if {@code pid} ignores SIGINT (inherited SIG_IGN, e.g. under nohup): then no JVM can be Ctrl-C'd. */
    private static boolean ignoresSigint(long pid) throws IOException {
        Path status = Path.of("/proc", Long.toString(pid), "status");
        if (!Files.isReadable(status)) {
            return false;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseUnsignedLong(line.substring(7).trim(), 16) & (1L << 1)) != 0; // bit of SIGINT (2)
            }
        }
        return false;
    }

    @Test
    void sigintDuringALongRunStopsTheChipRunWithExit130AndAMessage() throws Exception {
        Assumptions.assumeTrue(Path.of("/proc/self/status").toFile().exists(), "needs Linux /proc and kill");
        Process p = startJpto("run", "basic.matmul", "--preset", "tiny", "--bench", "1000000");
        Drain out = new Drain(p.getInputStream());
        Drain err = new Drain(p.getErrorStream());
        try {
            Assumptions.assumeFalse(ignoresSigint(p.pid()), "SIGINT is ignored in this environment (SIG_IGN "
                    + "inherited from the parent), so Ctrl-C cannot reach a JVM here");
            awaitOutput(out, p, "[RUN] runtime ("); // the correctness run is done: the benchmark rounds are running
            Thread.sleep(300);
            assertThat(p.isAlive()).isTrue();
            long sent = System.nanoTime();
            Process kill = new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start();
            assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(kill.exitValue()).isZero();
            boolean exited = p.waitFor(GENEROUS_BOUND_MS, TimeUnit.MILLISECONDS);
            long latencyMs = (System.nanoTime() - sent) / 1_000_000;
            assertThat(exited).as("jpto stopped within %d ms of SIGINT; stderr:%n%s", GENEROUS_BOUND_MS, err.text())
                    .isTrue();
            out.join(5_000); // both streams end with the process
            err.join(5_000);
            System.out.println("Ctrl-C stop latency (kill -INT to process exit): " + latencyMs + " ms");
            System.out.println("stderr:\n" + err.text());

            assertThat(p.exitValue()).isEqualTo(ExitCodes.INTERRUPTED);
            assertThat(err.text())
                    .contains("jpto run: interrupted: sched_error_code=105 CANCELLED - the host cancelled the run")
                    .containsPattern("jpto: interrupted: the command stopped in \\d+ ms; no chip threads left")
                    .doesNotContain("\tat ");
            assertThat(out.text()).contains("[RUN] CANCELLED (").contains("the chip run was stopped")
                    .doesNotContain("[RUN] PASS");
        } finally {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void sigintDuringFuzzStopsTheSessionWithoutFindingsAndRemovesItsDirectories() throws Exception {
        Assumptions.assumeTrue(Path.of("/proc/self/status").toFile().exists(), "needs Linux /proc and kill");
        Path tmp = Files.createTempDirectory("jpto-ctrlc-fuzz");
        Process p = startJpto(List.of("-Djava.io.tmpdir=" + tmp), "fuzz", "--seconds", "600", "--seed", "900",
                "--verbose");
        Drain out = new Drain(p.getInputStream());
        Drain err = new Drain(p.getErrorStream());
        try {
            Assumptions.assumeFalse(ignoresSigint(p.pid()), "SIGINT is ignored in this environment");
            awaitOutput(out, p, "[FUZZ] seed 902 "); // three programs done, the session is in full swing
            long sent = System.nanoTime();
            Process kill = new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start();
            assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(p.waitFor(GENEROUS_BOUND_MS, TimeUnit.MILLISECONDS))
                    .as("jpto fuzz stopped within %d ms of SIGINT; stderr:%n%s", GENEROUS_BOUND_MS, err.text())
                    .isTrue();
            System.out.println("fuzz Ctrl-C stop latency: " + (System.nanoTime() - sent) / 1_000_000 + " ms");
            out.join(5_000);
            err.join(5_000);

            assertThat(p.exitValue()).isEqualTo(ExitCodes.INTERRUPTED);
            assertThat(out.text()).containsPattern("\\[FUZZ\\] programs=\\d+ passes=\\d+ hangs=0 wrong_results=0 "
                            + "unexpected_errors=0")
                    .containsPattern("\\[FUZZ\\] INTERRUPTED after \\d+ program\\(s\\) \\(the one running then is "
                            + "not counted\\): no findings so far")
                    .doesNotContain("FINDING").doesNotContain("shrinking").doesNotContain("[FUZZ] PASS");
            assertThat(err.text())
                    .containsPattern("jpto fuzz: interrupted after \\d+ program\\(s\\); no findings so far")
                    .containsPattern("jpto: interrupted: the command stopped in \\d+ ms; no chip threads left")
                    .doesNotContain("\tat ");
            java.util.regex.Matcher scratch = java.util.regex.Pattern.compile("scratch work dirs under (\\S+)")
                    .matcher(out.text());
            assertThat(scratch.find()).as(out.text()).isTrue();
            assertThat(Path.of(scratch.group(1))).as("the scratch work dirs are removed").doesNotExist();
            try (var left = Files.list(tmp)) {
                assertThat(left.map(Path::getFileName).map(Path::toString)
                        .filter(n -> n.startsWith("jpto-fuzz")).toList()).as("no reproducer directories").isEmpty();
            }
        } finally {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
            try (var files = Files.walk(tmp)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }
}
