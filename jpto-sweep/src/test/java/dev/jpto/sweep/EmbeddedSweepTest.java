package dev.jpto.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Tiny cases through one embedded Hazelcast member: results, expectations, resume. */
class EmbeddedSweepTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream log = new ByteArrayOutputStream();

    private int sweep(Path file, Path out) throws InterruptedException {
        Sweep sweep = new Sweep(new PrintStream(log, true, StandardCharsets.UTF_8), 2, Duration.ofMinutes(5),
                Map.of("JPTO_CACHE_DIR", dir.resolve("cache").toString()));
        return sweep.run(file, out);
    }

    private String log() {
        return log.toString(StandardCharsets.UTF_8);
    }

    private static List<JsonNode> results(Path out) throws IOException {
        ObjectMapper json = new ObjectMapper();
        return Files.readAllLines(out.resolve("results.jsonl")).stream().map(l -> {
            try {
                return json.readTree(l);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + l, e);
            }
        }).toList();
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void fourTinyCasesReportOnceEachWithTheirOutcomesAndASecondRunResumes() throws Exception {
        // basic.matmul's partial products live on the ring heap: 1 KiB cannot hold one (HEAP_RING_DEADLOCK);
        // basic.vector_add needs no heap
        Path file = Files.writeString(dir.resolve("sweep.yaml"), """
                programs: [basic.vector_add, basic.matmul]
                presets: [tiny]
                runtime_cfg:
                  ring_heap: [1024, 64MiB]
                expect:
                  "program=basic.matmul,ring_heap=1024": HEAP_RING_DEADLOCK
                """);
        Path out = dir.resolve("out");
        Files.createDirectories(out);
        assertThat(sweep(file, out)).as(log()).isZero();

        List<JsonNode> lines = results(out);
        assertThat(lines).hasSize(4);
        List<SweepCase> cases = SweepFile.read(file, Map.of("JPTO_CACHE_DIR", dir.resolve("cache").toString()));
        assertThat(lines.stream().map(l -> l.get("case_id").asText()))
                .containsExactlyInAnyOrderElementsOf(cases.stream().map(SweepCase::id).toList());
        JsonNode deadlock = lines.stream().filter(l -> l.get("program").asText().equals("basic.matmul")
                && l.get("runtime_cfg").get("ring_heap").asText().equals("1024")).findFirst().orElseThrow();
        assertThat(deadlock.get("outcome").asText()).isEqualTo("ERROR");
        assertThat(deadlock.get("exit_code").asInt()).isEqualTo(3);
        assertThat(deadlock.get("error_code").asText()).isEqualTo("HEAP_RING_DEADLOCK");
        assertThat(deadlock.get("message").asText()).startsWith("orch_error_code=2 HEAP_RING_DEADLOCK");
        assertThat(deadlock.get("device_us").asDouble()).isEqualTo(-1); // no run, no estimate
        List<JsonNode> passed = lines.stream().filter(l -> l != deadlock).toList();
        assertThat(passed).allSatisfy(l -> {
            assertThat(l.get("outcome").asText()).isEqualTo("PASS");
            assertThat(l.get("exit_code").asInt()).isZero();
            assertThat(l.get("verdicts")).isNotEmpty().allMatch(v -> v.asText().contains(" PASS shape="));
            assertThat(l.get("stage_millis").has("runtime")).isTrue();
            assertThat(l.get("heap_capacity")).isNotEmpty();
            assertThat(l.get("device_us").asDouble()).isPositive(); // the chip's estimate of the run
            assertThat(l.get("member").asText()).startsWith("jpto-");
        });
        JsonNode matmul = passed.stream().filter(l -> l.get("program").asText().equals("basic.matmul"))
                .findFirst().orElseThrow();
        // 64 MiB of ring heap in force on ring 0, and the partial products used some of it
        assertThat(matmul.get("heap_capacity").get(0).asLong()).isEqualTo(64L << 20);
        assertThat(matmul.get("heap_high_water").get(0).asLong()).isPositive();
        assertThat(log()).contains("[SWEEP] 4 case(s): 4 as expected, 0 unexpected");
        String summary = Files.readString(out.resolve("summary.md"));
        assertThat(summary).contains("## basic.vector_add", "## basic.matmul", "| HEAP_RING_DEADLOCK | "
                + "HEAP_RING_DEADLOCK | 3 |", String.format(java.util.Locale.ROOT, " | %.1f | ",
                        matmul.get("device_us").asDouble()));
        String html = Files.readString(out.resolve("summary.html"));
        long used = matmul.get("heap_high_water").get(0).asLong();
        assertThat(html).startsWith("<!DOCTYPE html>").contains("<h2>basic.matmul</h2>", "<h2>basic.vector_add</h2>",
                        "<p>4 case(s): 4 as expected, 0 unexpected, 0 not run.</p>",
                        "<td class=\"status\">HEAP_RING_DEADLOCK</td><td>HEAP_RING_DEADLOCK</td><td class=\"num\">3",
                        String.format(java.util.Locale.ROOT, "<td class=\"num\">%.1f</td>",
                                matmul.get("device_us").asDouble()),
                        used + " / " + (64L << 20) + " (" + Math.round(100.0 * used / (64L << 20)) + "%)")
                .doesNotContain("<script", "http:", "https:", "src=", "<link"); // nothing to fetch
        assertThat(html.split("<tr class=\"ok\">", -1)).hasSize(5);

        log.reset();
        assertThat(sweep(file, out)).as(log()).isZero();
        assertThat(log()).contains("4 case(s), 4 already in", "0 to run")
                .doesNotContain("done,");
        assertThat(results(out)).hasSize(4);
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void aSweepStoppedAfterItsFirstResultLeavesCompleteLinesAndTheNextRunDoesOnlyTheRest() throws Exception {
        Path file = Files.writeString(dir.resolve("sweep.yaml"), """
                programs: [basic.vector_add, basic.matmul]
                presets: [tiny]
                seeds: [0, 1, 2]
                """);
        Path out = dir.resolve("out");
        Files.createDirectories(out);
        Sweep oneAtATime = new Sweep(new PrintStream(log, true, StandardCharsets.UTF_8), 1, Duration.ofMinutes(5),
                Map.of("JPTO_CACHE_DIR", dir.resolve("cache").toString()));
        AtomicReference<Object> ended = new AtomicReference<>();
        Thread coordinator = Thread.ofPlatform().start(() -> {
            try {
                ended.set(oneAtATime.run(file, out));
            } catch (InterruptedException e) {
                ended.set(e);
            }
        });
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (!Files.exists(out.resolve("results.jsonl")) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        coordinator.interrupt(); // what Ctrl-C does to the command's thread
        coordinator.join(Duration.ofMinutes(1));
        assertThat(coordinator.isAlive()).as("the coordinator stops within a minute").isFalse();
        assertThat(ended.get()).as(log()).isInstanceOf(InterruptedException.class);
        int first = results(out).size(); // every line parses: results() fails on a torn one
        assertThat(first).isBetween(1, 5);

        log.reset();
        assertThat(sweep(file, out)).as(log()).isZero();
        assertThat(log()).contains("6 case(s), " + first + " already in", (6 - first) + " to run");
        assertThat(results(out).stream().map(l -> l.get("case_id").asText()).distinct()).hasSize(6);
        assertThat(results(out)).hasSize(6);
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void aCaseThatFailsWithoutAnExpectationMakesTheSweepExit1() throws Exception {
        Path file = Files.writeString(dir.resolve("sweep.json"), """
                {"programs": ["basic.matmul"], "presets": ["tiny"], "runtime_cfg": {"ring_heap": ["1024"]}}
                """);
        Path out = dir.resolve("out");
        Files.createDirectories(out);
        assertThat(sweep(file, out)).as(log()).isEqualTo(1);
        assertThat(log()).contains("[SWEEP] 1 case(s): 0 as expected, 1 unexpected",
                "[SWEEP] UNEXPECTED basic.matmul/tiny ring_heap=1024 a2a3sim seed=0: HEAP_RING_DEADLOCK "
                        + "(expected PASS)");
        assertThat(results(out)).singleElement().satisfies(l -> assertThat(l.get("observed").asText())
                .isEqualTo("HEAP_RING_DEADLOCK"));
    }
}
