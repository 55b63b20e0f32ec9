package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import java.io.IOException;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code --json} on {@code jpto bench} (issue 26 §3): PROGRAM, matmul and runtime each print one document that
 * validates against docs/schema/bench.schema.json, with figures that agree with each other and the options.
 */
@Timeout(300)
class BenchJsonTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final CliSession cli = new CliSession();

    private JsonNode document() throws IOException {
        JsonNode doc = JSON.readTree(cli.out());
        List<String> errors = JsonOutputTest.schema("bench.schema.json").validate(doc).stream()
                .map(Error::toString).toList();
        assertThat(errors).as(doc.toPrettyString()).isEmpty();
        assertThat(doc.get("command").asText()).isEqualTo("bench");
        return doc;
    }

    @Test
    void benchProgramIsARunDocumentWithItsRounds() throws IOException {
        assertThat(cli.run("bench", "basic.vector_add", "--preset", "tiny", "--rounds", "3", "--json"))
                .as(cli.err()).isZero();
        JsonNode doc = document();
        assertThat(doc.get("program").asText()).isEqualTo("basic.vector_add");
        assertThat(doc.get("passed").asBoolean()).isTrue();
        JsonNode b = doc.get("benchmark");
        assertThat(b.get("rounds").asInt()).isEqualTo(3);
        assertThat(b.get("median_us").asDouble()).isBetween(b.get("min_us").asDouble(), b.get("max_us").asDouble());
    }

    @Test
    void matmulFiguresFollowFromTheShapeAndTheTimes() throws IOException {
        assertThat(cli.run("bench", "matmul", "--size", "64", "--tile", "32", "--warmups", "0", "--runs", "1",
                "--ghz", "2.6", "--json")).as(cli.err()).isZero();
        JsonNode doc = document();
        assertThat(doc.get("benchmark").asText()).isEqualTo("matmul");
        assertThat(doc.get("size").asInt()).isEqualTo(64);
        JsonNode v = doc.get("vector");
        // 64/32 = 2 tiles a side: 4 C tiles, each 2 matmul calls of 2·32³ flops
        assertThat(v.get("c_tiles").asInt()).isEqualTo(4);
        assertThat(v.get("matmul_calls").asLong()).isEqualTo(8);
        assertThat(v.get("flops").asLong()).isEqualTo(8L * 2 * 32 * 32 * 32);
        assertThat(v.get("gflops").asDouble()).isCloseTo(v.get("flops").asDouble()
                / v.get("best_cpu_seconds").asDouble() / 1e9, within(1e-9));
        JsonNode s = doc.get("scalar");
        assertThat(doc.get("ratio").asDouble()).isCloseTo(v.get("gflops").asDouble() / s.get("gflops").asDouble(),
                within(1e-9));
        assertThat(doc.get("agree").asBoolean()).isTrue();
        // the nominal peak of --ghz 2.6: GHz × 2 FMA units × lanes × 2 flops, lanes a power of two
        double perGhz = doc.get("nominal_peak_gflops").asDouble() / 2.6 / 2 / 2;
        assertThat(Integer.bitCount((int) Math.round(perGhz))).isEqualTo(1);
        assertThat(doc.has("baseline")).isFalse();
        assertThat(cli.err()).isEmpty();
    }

    @Test
    void runtimeHasOneRowPerShapeAskedWithTheRatioInsideItsQuartiles() throws IOException {
        assertThat(cli.run("bench", "runtime", "--shape", "chain,independent", "--tasks", "256", "--block", "64",
                "--warmups", "1", "--runs", "3", "--warmup-seconds", "0", "--json")).as(cli.err()).isZero();
        JsonNode doc = document();
        assertThat(doc.get("tasks").asInt()).isEqualTo(256);
        assertThat(doc.get("block").asInt()).isEqualTo(64);
        assertThat(doc.get("runs").asInt()).isEqualTo(3);
        List<JsonNode> rows = StreamSupport.stream(doc.get("shapes").spliterator(), false).toList();
        assertThat(rows.stream().map(r -> r.get("shape").asText())).containsExactly("chain", "independent");
        assertThat(rows).allSatisfy(r -> {
            assertThat(r.get("jpto_ns_per_task").asDouble()).isPositive();
            assertThat(r.get("forkjoin_ns_per_task").asDouble()).isPositive();
            assertThat(r.get("ratio").asDouble()).isBetween(r.get("ratio_q1").asDouble(),
                    r.get("ratio_q3").asDouble());
        });
    }

    @Test
    void refusedOptionsAreAnErrorDocumentAndExit2() throws IOException {
        assertThat(cli.run("bench", "runtime", "--shape", "tree", "--json")).isEqualTo(ExitCodes.USAGE);
        JsonNode doc = document();
        assertThat(doc.get("benchmark").asText()).isEqualTo("runtime");
        assertThat(doc.get("error").get("exit_code").asInt()).isEqualTo(2);
        assertThat(doc.get("error").get("message").asText()).startsWith("jpto bench runtime: --shape tree");
        assertThat(doc.get("passed").asBoolean()).isFalse();
    }
}
