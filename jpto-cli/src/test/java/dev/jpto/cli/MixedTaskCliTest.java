package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * examples/MixedMatmul.java (one mixed cube + vector task) through the command line: {@code plan} counts it as one
 * task slot, deps.json names its lanes and launch, and too many sync-start blocks end the run with code 7.
 */
@Timeout(300)
class MixedTaskCliTest {
    private static final Path EXAMPLE = ExamplesTest.EXAMPLES.resolve("MixedMatmul.java");

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

    private String out() {
        return outBuf.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return errBuf.toString(StandardCharsets.UTF_8);
    }

    @Test
    void planCountsTheMixedTaskOnceWhateverItsBlocksAndLanes() throws Exception {
        assertThat(jpto("plan", EXAMPLE.toString(), "--preset", "demo", "--json")).as(err()).isZero();
        JsonNode plan = new ObjectMapper().readTree(out());
        int tasks = 0;
        for (JsonNode ring : plan.findValues("rings").getFirst()) {
            tasks += ring.get("tasks").asInt();
        }
        assertThat(tasks).as("16 blocks x 3 lanes, one task slot: %s", plan).isEqualTo(1);
    }

    @Test
    void depsJsonNamesTheLanesAndTheLaunch() throws Exception {
        Path run = tmp.resolve("run");
        assertThat(jpto("run", EXAMPLE.toString(), "--output-dir", run.toString(), "--runtime-cfg",
                "enable_dep_gen=1")).as(out() + err()).isZero();
        Path deps;
        try (var files = java.nio.file.Files.walk(run)) {
            deps = files.filter(f -> f.getFileName().toString().equals("deps.json")).findFirst().orElseThrow();
        }
        JsonNode task = new ObjectMapper().readTree(deps.toFile()).get("tasks").get(0);
        assertThat(task.get("kernel").asText()).isEqualTo("band_mm+half_bias_relu+half_bias_relu");
        assertThat(task.get("core_type").asText()).isEqualTo("MIX");
        assertThat(task.get("active_mask").asInt()).isEqualTo(7);
        assertThat(task.get("block_num").asInt()).isEqualTo(4);
        assertThat(task.get("require_sync_start").asBoolean()).isTrue();
    }

    @Test
    void moreSyncStartBlocksThanClustersEndTheRunWithCode7() {
        for (String[] platform : new String[][] {{"a2a3sim", "24"}, {"a5sim", "36"}}) {
            assertThat(jpto("run", EXAMPLE.toString(), "--preset", "sync40", "--platform", platform[0],
                    "--output-dir", tmp.resolve(platform[0]).toString())).as(out() + err())
                    .isEqualTo(ExitCodes.RUNTIME);
            assertThat(err()).as(platform[0]).contains("REQUIRE_SYNC_START_INVALID")
                    .contains("require_sync_start block_num=40 > limit=" + platform[1] + " (deadlock guaranteed)");
        }
    }
}
