package dev.jpto.runtime.dfx;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jpto.isa.DType;
import dev.jpto.runtime.Arg;
import dev.jpto.runtime.CallConfig;
import dev.jpto.runtime.chip.Chip;
import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.RunReport;
import dev.jpto.runtime.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** scope_stats.jsonl against the spec's schema (version 6): header keys in order, then one line per boundary. */
@Timeout(30)
class ScopeStatsSchemaTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> LINE_KEYS = List.of("site", "phase", "depth", "ring", "task_window_start",
            "task_window_end", "heap_start", "heap_end", "dep_pool_start", "dep_pool_end", "tensormap");

    @Test
    void headerAndLinesFollowTheSpecAndHighWaterMarksMatchTheReport(@TempDir Path dir) throws Exception {
        RunReport rep;
        try (Chip chip = Chip.open(Platform.A2A3SIM, 0)) {
            rep = chip.run(orch -> {
                for (int i = 0; i < 3; i++) {
                    try (Scope _ = orch.scope()) {
                        long a = orch.submit("a", CoreType.AIV, ctx -> { }, Arg.output(DType.FP32, 256));
                        try (Scope _ = orch.scope()) {
                            orch.submit("b", CoreType.AIV, ctx -> { }, Arg.input(orch.output(a, 0)),
                                    Arg.output(DType.FP32, 8));
                        }
                    }
                }
            }, CallConfig.defaults().withScopeStats(dir.toString()));
        }
        List<String> lines = Files.readAllLines(dir.resolve("scope_stats/scope_stats.jsonl"));
        JsonNode h = JSON.readTree(lines.getFirst());
        List<String> keys = new ArrayList<>();
        h.fieldNames().forEachRemaining(keys::add);
        assertThat(keys.subList(0, 8)).containsExactly("version", "fatal", "dropped", "total", "task_window_max",
                "heap_max", "dep_pool_max", "tensormap_max");
        assertThat(keys).contains("task_window", "heap", "dep_pool", "tensormap_capacity");
        assertThat(h.get("version").asInt()).isEqualTo(6);
        assertThat(h.get("dropped").asInt()).isZero();
        for (String k : List.of("task_window_max", "heap_max", "dep_pool_max", "task_window", "heap", "dep_pool")) {
            assertThat(h.get(k)).as(k).hasSize(4);
        }
        for (int r = 0; r < 4; r++) {
            assertThat(h.get("heap_max").get(r).asLong()).isEqualTo(rep.ring(r).heapMax());
            assertThat(h.get("task_window_max").get(r).asLong()).isEqualTo(rep.ring(r).taskWindowMax());
            assertThat(h.get("heap").get(r).asLong()).isEqualTo(rep.ring(r).heapBytes());
        }
        assertThat(h.get("tensormap_max").asInt()).isEqualTo(rep.tensorMapMax());
        // root (2) + 3 × (outer 2 + inner 2)
        assertThat(h.get("total").asInt()).isEqualTo(lines.size() - 1).isEqualTo(14);
        int depth = -1;
        for (String line : lines.subList(1, lines.size())) {
            JsonNode s = JSON.readTree(line);
            List<String> k = new ArrayList<>();
            s.fieldNames().forEachRemaining(k::add);
            assertThat(k).containsExactlyElementsOf(LINE_KEYS);
            int d = s.get("depth").asInt();
            assertThat(s.get("ring").asInt()).isEqualTo(Math.min(d, 3));
            // boundaries nest: a begin opens depth + 1, an end closes the innermost
            if (s.get("phase").asText().equals("begin")) {
                assertThat(d).isEqualTo(depth + 1);
                depth = d;
            } else {
                assertThat(s.get("phase").asText()).isEqualTo("end");
                assertThat(d).isEqualTo(depth);
                depth--;
            }
            assertThat(s.get("task_window_end").asLong()).isGreaterThanOrEqualTo(s.get("task_window_start").asLong());
            assertThat(s.get("heap_end").asLong()).isGreaterThanOrEqualTo(s.get("heap_start").asLong());
        }
        assertThat(depth).isEqualTo(-1);
    }
}
