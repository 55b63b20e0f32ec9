package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code jpto bench PROGRAM}: a registered program, a source file or a directory, timed like {@code run --bench}. */
@Timeout(300)
class BenchProgramCliTest {
    @TempDir
    Path tmp;

    private CliSession session;

    @BeforeEach
    void privateCache() {
        session = new CliSession(Map.of("JPTO_CACHE_DIR", tmp.resolve("cache").toString()));
    }

    @Test
    void aSourceFileIsValidatedThenTimedForTheGivenRounds() {
        assertThat(session.run("bench", UserProgramsCliTest.TUTORIAL.toString(), "--rounds", "2")).as(session.err()).isZero();
        assertThat(session.out()).contains("[RUN] compiled " + UserProgramsCliTest.TUTORIAL, "[RUN] tutorial.relu_dense",
                "2 rounds after 1 warm-up", "effective_us (2 rounds) min=", "'y' PASS", "[RUN] PASS");
    }

    @Test
    void aDirectoryOfSourcesAndARegisteredNameBenchTheSameWay() throws IOException {
        Path dir = tmp.resolve("mine");
        Files.createDirectories(dir);
        Files.copy(UserProgramsCliTest.TUTORIAL, dir.resolve("ReluDense.java"));
        assertThat(session.run("bench", dir + "/", "--rounds", "1", "--runtime-cfg", "ring_heap=1MiB")).as(session.err()).isZero();
        assertThat(session.out()).contains("[RUN] compiled " + dir, "effective_us (1 rounds) min=", "[RUN] PASS");

        assertThat(session.run("bench", "basic.vector_add", "--preset", "tiny", "--rounds", "3", "-p", "a5sim"))
                .as(session.err()).isZero();
        assertThat(session.out()).contains("basic.vector_add preset=tiny", "platform=a5sim", "effective_us (3 rounds) min=",
                "[RUN] PASS");
    }

    @Test
    void theKernelsReportedWorkGivesTheEffectiveRateBesideTheMachinesProbe() throws IOException {
        // basic.matmul tiny: C = A·B, 128³ fp32 in two K halves, then one element-wise add of the two partials
        long m = 128;
        long n = 128;
        long k = 128;
        double expectedGflop = (2 * m * n * k + m * n) / 1e9;
        assertThat(session.run("bench", "basic.matmul", "--preset", "tiny", "--rounds", "2", "--json")).isZero();
        JsonNode b = new ObjectMapper().readTree(session.out()).get("benchmark");
        assertThat(b.get("work_gflop").asDouble()).isEqualTo(expectedGflop);
        assertThat(b.get("effective_gops").asDouble())
                .isCloseTo(expectedGflop / (b.get("median_us").asDouble() / 1e6), Offset.offset(1e-9));

        assertThat(session.run("bench", "basic.matmul", "--preset", "tiny", "--rounds", "2")).isZero();
        assertThat(session.out()).contains(String.format(Locale.ROOT, "work_gflop=%.2f per round", expectedGflop))
                .containsPattern("peak +[0-9.]+ GFLOP/s fp32 FMA with [0-9]+ threads at once .*; "
                        + "effective [0-9.]+ G/s = ");
    }

    @Test
    void badRoundsAndUnknownProgramsAreUsageErrorsUnderTheBenchVerb() {
        assertThat(session.run("bench", "basic.vector_add", "--rounds", "0")).isEqualTo(ExitCodes.USAGE);
        assertThat(session.err()).contains("jpto bench: --rounds must be >= 1: --rounds 0 (try 10)");
        assertThat(session.out()).isEmpty();
        assertThat(session.run("bench", "basic.no_such", "--rounds", "2")).isEqualTo(ExitCodes.USAGE);
        assertThat(session.err()).contains("jpto bench: unknown program 'basic.no_such'").doesNotContain("\tat ");
    }

    @Test
    void withoutAProgramTheUsageListsTheBuiltInBenchmarks() {
        assertThat(session.run("bench")).isZero();
        assertThat(session.out()).contains("Usage: jpto bench", "[PROGRAM]", "--rounds=N", "matmul", "runtime");
    }
}
