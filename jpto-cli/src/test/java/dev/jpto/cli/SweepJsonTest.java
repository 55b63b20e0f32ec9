package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --json} on {@code jpto sweep} and {@code jpto sweep compare} (issue 26 §3): one document each on stdout,
 * valid against its schema, with every case's result line and counts that match results.jsonl.
 */
@Timeout(300)
class SweepJsonTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    private CliSession cli;

    private int jpto(String... args) {
        cli = new CliSession(Map.of("JPTO_CACHE_DIR", tmp.resolve("cache").toString()));
        return cli.run(args);
    }

    private JsonNode document(String schema) throws IOException {
        JsonNode doc = JSON.readTree(cli.out());
        List<String> errors = JsonOutputTest.schema(schema).validate(doc).stream().map(Error::toString).toList();
        assertThat(errors).as(doc.toPrettyString()).isEmpty();
        return doc;
    }

    private static List<JsonNode> list(JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false).toList();
    }

    @Test
    void aSweepDocumentHasEveryCaseWithItsResultLineAndTheCounts() throws IOException {
        // basic.matmul's split-K partials need ring heap: 1 KiB deadlocks, expected for one case only
        Path file = Files.writeString(tmp.resolve("s.yaml"), """
                programs: [basic.matmul]
                presets: [tiny]
                runtime_cfg:
                  ring_heap: [1024, 64MiB]
                """);
        Path out = tmp.resolve("out");
        assertThat(jpto("sweep", file.toString(), "--out", out.toString(), "--max-parallel", "1", "--json"))
                .as(cli.err()).isEqualTo(ExitCodes.VALIDATION_FAIL);
        JsonNode doc = document("sweep-run.schema.json");
        assertThat(doc.get("command").asText()).isEqualTo("sweep");
        assertThat(doc.get("cases").asInt()).isEqualTo(2);
        assertThat(doc.get("ran_now").asInt()).isEqualTo(2);
        assertThat(doc.get("parallel").get("slots").asInt()).isEqualTo(1);
        assertThat(doc.get("passed").asBoolean()).isFalse();
        assertThat(doc.get("counts").get("as_expected").asInt()).isEqualTo(1);
        assertThat(doc.get("counts").get("unexpected").asInt()).isEqualTo(1);
        assertThat(doc.get("counts").get("not_run").asInt()).isZero();
        List<String> lines = Files.readAllLines(out.resolve("results.jsonl"));
        List<JsonNode> rows = list(doc.get("results"));
        assertThat(rows).hasSize(2);
        for (JsonNode row : rows) {
            // the result is results.jsonl's line for the case, unchanged
            JsonNode line = JSON.readTree(lines.stream().filter(l -> l.contains(row.get("case_id").asText()))
                    .findFirst().orElseThrow());
            assertThat(row.get("result")).isEqualTo(line);
            boolean small = row.get("runtime_cfg").get("ring_heap").asText().equals("1024");
            assertThat(row.get("status").asText()).isEqualTo(small ? "HEAP_RING_DEADLOCK" : "PASS");
            assertThat(row.get("as_expected").asBoolean()).isEqualTo(!small);
            if (small) {
                assertThat(line.get("device_us").asDouble()).isEqualTo(-1); // deadlocked: no estimate
            } else {
                assertThat(line.get("device_us").asDouble()).isPositive();
            }
        }
        assertThat(cli.err()).isEmpty();

        // sweep compare of the run with itself: nothing changed, the counts of both sides
        assertThat(jpto("sweep", "compare", out.toString(), out.toString(), "--json")).isZero();
        JsonNode same = document("sweep-compare.schema.json");
        assertThat(same.get("both").asInt()).isEqualTo(2);
        assertThat(same.get("status_changes")).isEmpty();
        assertThat(same.get("slower")).isEmpty();
        assertThat(same.get("passed").asBoolean()).isTrue();

        // a NEW run where the deadlocked case passes: one status change, exit 1
        Path changed = tmp.resolve("changed");
        Files.createDirectories(changed);
        Files.write(changed.resolve("results.jsonl"), lines.stream().map(l -> l.contains("\"HEAP_RING_DEADLOCK\"")
                ? l.replace("\"observed\":\"HEAP_RING_DEADLOCK\"", "\"observed\":\"PASS\"") : l).toList());
        assertThat(jpto("sweep", "compare", out.toString(), changed.toString(), "--json")).isEqualTo(1);
        JsonNode diff = document("sweep-compare.schema.json");
        JsonNode change = diff.get("status_changes").get(0);
        assertThat(change.get("old").asText()).isEqualTo("HEAP_RING_DEADLOCK");
        assertThat(change.get("new").asText()).isEqualTo("PASS");
        assertThat(change.get("label").asText()).contains("basic.matmul/tiny", "ring_heap=1024");
        assertThat(diff.get("passed").asBoolean()).isFalse();
    }

    @Test
    void aBadSweepFileIsAnErrorDocumentAndExit2() throws IOException {
        Path file = Files.writeString(tmp.resolve("bad.yaml"), "programs: [basic.matmul]\nplatforms: [tpu]\n");
        assertThat(jpto("sweep", file.toString(), "--out", tmp.resolve("o").toString(), "--json"))
                .isEqualTo(ExitCodes.USAGE);
        JsonNode doc = document("sweep-run.schema.json");
        assertThat(doc.get("error").get("exit_code").asInt()).isEqualTo(2);
        assertThat(doc.get("error").get("message").asText()).startsWith("jpto sweep: " + file + ":2: platform: ");
        assertThat(jpto("sweep", "compare", tmp.resolve("none").toString(), tmp.toString(), "--json"))
                .isEqualTo(ExitCodes.USAGE);
        assertThat(document("sweep-compare.schema.json").get("error").get("message").asText())
                .contains("no such file or directory");
    }
}
