package dev.jpto.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jpto.isa.DType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
@SuppressWarnings("try") // scopes opened for their ring
class ScopeStatsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void headerHasCapacitiesInForceAndHighWaterThenOneLinePerBoundary(@TempDir Path dir) throws Exception {
        RuntimeEnv env = RuntimeEnv.defaults().withRingHeap(0, 512L << 20, 0, 0).withRingTaskWindow(0, 64, 0, 0);
        try (Chip chip = Chip.open(Platform.A5SIM, 0)) {
            RunReport rep = chip.run(orch -> {
                for (int i = 0; i < 2; i++) {
                    try (Scope s = orch.scope()) {
                        long a = orch.submit("a", CoreType.AIV, ctx -> { }, Arg.output(DType.FP32, 1000));
                        orch.submit("b", CoreType.AIV, ctx -> { }, Arg.input(orch.output(a, 0)),
                                Arg.output(DType.FP32, 10));
                    }
                }
            }, CallConfig.defaults().withRuntimeEnv(env).withScopeStats(dir.toString()));
            Path file = dir.resolve("scope_stats/scope_stats.jsonl");
            assertThat(rep.scopeStatsFile()).contains(file);
            List<String> lines = Files.readAllLines(file);
            JsonNode h = JSON.readTree(lines.get(0));
            assertThat(h.get("version").asInt()).isEqualTo(6);
            assertThat(h.get("fatal").asBoolean()).isFalse();
            assertThat(h.get("heap").toString()).isEqualTo("[268435456,536870912,268435456,268435456]");
            assertThat(h.get("task_window").toString()).isEqualTo("[16384,64,16384,16384]");
            assertThat(h.get("dep_pool").toString()).isEqualTo("[16384,16384,16384,16384]");
            // Each ring-1 scope allocates a 4000-byte output (→ 4096) and a 40-byte one (→ 1024); the first scope's
            // tasks may or may not be reclaimed before the second allocates.
            assertThat(h.get("heap_max").get(1).asLong()).isBetween(5120L, 10240L);
            assertThat(h.get("task_window_max").get(1).asLong()).isBetween(1L, 4L);
            assertThat(h.get("dep_pool_max").get(1).asLong()).isBetween(0L, 2L);
            assertThat(h.get("total").asInt()).isEqualTo(lines.size() - 1);
            // root begin, 2 × (begin, end), root end
            assertThat(lines).hasSize(1 + 6);
            JsonNode firstBegin = JSON.readTree(lines.get(2));
            assertThat(firstBegin.get("phase").asText()).isEqualTo("begin");
            assertThat(firstBegin.get("depth").asInt()).isEqualTo(1);
            assertThat(firstBegin.get("ring").asInt()).isEqualTo(1);
            assertThat(firstBegin.get("site").asText()).startsWith("ScopeStatsTest.java:");
            JsonNode firstEnd = JSON.readTree(lines.get(3));
            assertThat(firstEnd.get("phase").asText()).isEqualTo("end");
            assertThat(firstEnd.get("task_window_end").asLong()).isEqualTo(2);
            assertThat(firstEnd.get("heap_end").asLong()).isEqualTo(5120);
            JsonNode secondEnd = JSON.readTree(lines.get(5));
            assertThat(secondEnd.get("task_window_end").asLong()).isEqualTo(4);
            assertThat(secondEnd.get("heap_end").asLong()).as("monotonic allocated bytes").isEqualTo(10240);
            assertThat(rep.ring(1).heapMax()).isEqualTo(h.get("heap_max").get(1).asLong());
            assertThat(rep.ring(1).heapBytes()).isEqualTo(512L << 20);
        }
    }

    @Test
    void failedRunStillWritesStatsWithFatalHeader(@TempDir Path dir) throws Exception {
        try (Chip chip = Chip.open(Platform.A2A3SIM, 0)) {
            try {
                chip.run(orch -> {
                    try (Scope s = orch.scope()) {
                        orch.submit("huge", CoreType.AIC, ctx -> { }, Arg.output(DType.INT8, 300L << 20));
                    }
                }, CallConfig.defaults().withScopeStats(dir.toString()));
                throw new AssertionError("expected failure");
            } catch (ChipRuntimeException e) {
                assertThat(e.orchErrorCode()).isEqualTo(2);
            }
            List<String> lines = Files.readAllLines(dir.resolve("scope_stats/scope_stats.jsonl"));
            JsonNode h = JSON.readTree(lines.get(0));
            assertThat(h.get("fatal").asBoolean()).isTrue();
            assertThat(h.get("orch_error_code").asInt()).isEqualTo(2);
            JsonNode last = JSON.readTree(lines.getLast());
            assertThat(last.get("phase").asText()).isEqualTo("fatal");
            assertThat(last.get("error").asText()).contains("HEAP_RING_DEADLOCK");
        }
    }
}
