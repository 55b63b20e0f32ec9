package dev.jpto.cli;

import static dev.jpto.cli.ChildJpto.awaitOutput;
import static dev.jpto.cli.ChildJpto.startJpto;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.cli.ChildJpto.Drain;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end as a user runs it: two {@code jpto worker} processes form a cluster on loopback and a
 * {@code jpto sweep --join} process submits to it; every case reports once, from both workers.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SweepWorkersProcessTest {
    @TempDir
    Path tmp;

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void twoWorkerProcessesRunASweepSubmittedWithJoin() throws Exception {
        Path secret = Files.writeString(tmp.resolve("secret"), "0123456789abcdef0123456789abcdef\n");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
        Path file = Files.writeString(tmp.resolve("sweep.yaml"), """
                programs: [basic.vector_add, basic.matmul]
                presets: [tiny]
                seeds: [0, 1, 2]
                """);
        String members = "127.0.0.1:" + freePort() + ",127.0.0.1:" + freePort();
        List<Process> started = new ArrayList<>();
        try {
            List<Drain> logs = new ArrayList<>();
            for (String self : members.split(",")) {
                Process w = startJpto("worker", "--bind", self, "--join", members, "--slots", "1",
                        "--secret-file", secret.toString());
                started.add(w);
                Drain log = new Drain(w.getInputStream());
                new Drain(w.getErrorStream());
                logs.add(log);
                awaitOutput(log, w, "[WORKER] jpto-");
            }
            awaitOutput(logs.getFirst(), started.getFirst(), "[WORKER] joined: ");

            Path out = tmp.resolve("out");
            Process sweep = startJpto("sweep", file.toString(), "--join", members.split(",")[0],
                    "--secret-file", secret.toString(), "--out", out.toString());
            started.add(sweep);
            Drain sweepOut = new Drain(sweep.getInputStream());
            Drain sweepErr = new Drain(sweep.getErrorStream());
            assertThat(sweep.waitFor(3, TimeUnit.MINUTES)).as("the sweep ends within 3 minutes").isTrue();
            sweepOut.join(5_000);
            sweepErr.join(5_000);
            assertThat(sweep.exitValue()).as(sweepOut.text() + sweepErr.text()).isZero();
            assertThat(sweepOut.text()).contains("[SWEEP] 6 case(s): 6 as expected, 0 unexpected");
            List<String> lines = Files.readAllLines(out.resolve("results.jsonl"));
            assertThat(lines).hasSize(6).allMatch(l -> l.contains("\"outcome\":\"PASS\""));
            // each worker had one slot free when the first two cases were placed
            assertThat(lines.stream().map(l -> l.replaceAll(".*\"member\":\"([^\"]+)\".*", "$1")).distinct())
                    .hasSize(2);
            assertThat(out.resolve("summary.html")).exists();
        } finally {
            for (Process p : started) {
                p.destroy(); // SIGTERM: a worker shuts its member down
            }
            for (Process p : started) {
                if (!p.waitFor(20, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
        }
    }
}
