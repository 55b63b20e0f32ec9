package dev.jpto.runtime.orch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jpto.isa.DType;
import dev.jpto.runtime.Arg;
import dev.jpto.runtime.CallConfig;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.RuntimeEnv;
import dev.jpto.runtime.Scope;
import dev.jpto.runtime.chip.Chip;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
@SuppressWarnings("try") // scopes opened for their ring
class RingTimelineTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void mergingPairsKeepsEveryMaximumAndTheSizeBounded() {
        RingTimeline t = new RingTimeline();
        Random rnd = new Random(7);
        int n = RingTimeline.MAX_POINTS * 5 + 3;
        long[] heap = new long[n];
        long max = 0;
        for (int i = 0; i < n; i++) {
            heap[i] = rnd.nextInt(1 << 20);
            max = Math.max(max, heap[i]);
            t.occupancy(2, heap[i], i % 97, 3);
        }
        JsonNode ring = JSON.valueToTree(t.document(Map.of())).get("rings").get(0);
        assertThat(ring.get("ring").asInt()).isEqualTo(2);
        assertThat(ring.get("submits").asLong()).isEqualTo(n);
        int points = ring.get("heap").size();
        long stride = ring.get("stride").asLong();
        assertThat(points).isLessThanOrEqualTo(RingTimeline.MAX_POINTS);
        // every point but the last covers `stride` submits: its value is the maximum of exactly those
        assertThat(points).isEqualTo((int) ((n + stride - 1) / stride));
        for (int p = 0; p < points; p++) {
            long expected = 0;
            for (long i = p * stride; i < Math.min(n, (p + 1) * stride); i++) {
                expected = Math.max(expected, heap[(int) i]);
            }
            assertThat(ring.get("heap").get(p).asLong()).as("point %d", p).isEqualTo(expected);
        }
        assertThat(max(ring.get("heap"))).isEqualTo(max);
        assertThat(max(ring.get("tasks"))).isEqualTo(96);
    }

    @Test
    void aRunWritesTheTimelineWhosePeaksAreTheHighWaterMarks(@TempDir Path dir) throws Exception {
        int scopes = 300;
        try (Chip chip = Chip.open(Platform.A5SIM, 0)) {
            chip.run(orch -> {
                for (int i = 0; i < scopes; i++) {
                    try (Scope s = orch.scope()) {
                        long a = orch.submit("a", CoreType.AIV, ctx -> { }, Arg.output(DType.FP32, 1000 + i));
                        orch.submit("b", CoreType.AIV, ctx -> { }, Arg.input(orch.output(a, 0)),
                                Arg.output(DType.FP32, 10));
                    }
                }
            }, CallConfig.defaults().withScopeStats(dir.toString()));
        }
        JsonNode header = JSON.readTree(Files.readAllLines(dir.resolve("scope_stats/scope_stats.jsonl")).get(0));
        JsonNode t = JSON.readTree(dir.resolve("scope_stats/ring_timeline.json").toFile());
        assertThat(t.get("heap").toString()).isEqualTo(header.get("heap").toString());
        assertThat(t.get("rings")).hasSize(1);
        JsonNode ring1 = t.get("rings").get(0);
        assertThat(ring1.get("ring").asInt()).isEqualTo(1);
        assertThat(ring1.get("submits").asLong()).isEqualTo(2L * scopes);
        assertThat(max(ring1.get("heap"))).isEqualTo(header.get("heap_max").get(1).asLong()).isPositive();
        assertThat(max(ring1.get("tasks"))).isBetween(2L, header.get("task_window_max").get(1).asLong());
        assertThat(max(ring1.get("deps"))).isBetween(1L, header.get("dep_pool_max").get(1).asLong());
        // root begin/end and each scope's begin/end, oldest first
        assertThat(t.get("marks")).hasSize(2 + 2 * scopes);
        assertThat(t.get("marks").get(1).get("phase").asText()).isEqualTo("begin");
        assertThat(t.get("stop").isNull()).isTrue();
    }

    @Test
    void aDeadlockedRunRecordsWhereItStopped(@TempDir Path dir) throws Exception {
        RuntimeEnv env = RuntimeEnv.defaults().withRingHeap(64 << 10, 0, 0, 0);
        try (Chip chip = Chip.open(Platform.A2A3SIM, 0)) {
            try {
                chip.run(orch -> {
                    for (int i = 0; i < 100; i++) { // 16 KiB each, held by the root scope: the 5th fails
                        orch.submit("k", CoreType.AIV, ctx -> { }, Arg.output(DType.INT8, 16 << 10));
                    }
                }, CallConfig.defaults().withRuntimeEnv(env).withScopeStats(dir.toString()));
                throw new AssertionError("expected a heap deadlock");
            } catch (ChipRuntimeException e) {
                assertThat(e.getMessage()).contains("HEAP_RING_DEADLOCK");
            }
        }
        JsonNode t = JSON.readTree(dir.resolve("scope_stats/ring_timeline.json").toFile());
        assertThat(t.get("fatal").asBoolean()).isTrue();
        JsonNode stop = t.get("stop");
        assertThat(stop.get("ring").asInt()).isZero();
        assertThat(stop.get("error").asText()).contains("HEAP_RING_DEADLOCK");
        assertThat(stop.get("heap").asLong()).isEqualTo(64L << 10);
        assertThat(max(t.get("rings").get(0).get("heap"))).isEqualTo(64L << 10);
    }

    private static long max(JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false).mapToLong(JsonNode::asLong).max().orElseThrow();
    }
}
