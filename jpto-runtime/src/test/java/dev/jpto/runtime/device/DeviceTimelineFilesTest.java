package dev.jpto.runtime.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.Arg;
import dev.jpto.runtime.CallConfig;
import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.RuntimeEnv;
import dev.jpto.runtime.TaskBody;
import dev.jpto.runtime.chip.Chip;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The device swimlane file parsed back, and the replay graph built from a real run's deps.json. */
@Timeout(60)
class DeviceTimelineFilesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HardwareSpec A2 = HardwareSpec.of(Platform.A2A3SIM);

    private static List<JsonNode> events(JsonNode root, String ph) {
        List<JsonNode> out = new ArrayList<>();
        root.get("traceEvents").forEach(e -> {
            if (e.get("ph").asText().equals(ph)) {
                out.add(e);
            }
        });
        return out;
    }

    @Test
    void theDeviceSwimlaneHasOneSlicePerBlockOnItsCoresTrackAndOneFlowPerEdge(@TempDir Path dir) throws Exception {
        // 1850 cycles = 1 us on a2a3; dispatch 0.3 us, completion 0.6 us, submit 0.874 us per task
        List<DeviceTask> g = List.of(new DeviceTask(7, "producer", CoreType.AIC, 1850, 0, List.of(), 1),
                new DeviceTask(8, "consumer", CoreType.AIV, 3700, 0, List.of(7L, 7L), 2));
        DeviceTimeline tl = DeviceReplay.replay(A2, g);
        Path file = DeviceSwimlaneWriter.write(dir.resolve("out"), A2, 3, g, tl);
        assertThat(file).isEqualTo(dir.resolve("out").resolve("chip_swimlane_device.json"));
        JsonNode root = JSON.readTree(file.toFile());
        assertThat(root.get("displayTimeUnit").asText()).isEqualTo("ns");
        List<JsonNode> tasks = events(root, "X").stream().filter(e -> e.get("cat").asText().equals("task")).toList();
        assertThat(tasks).hasSize(3);
        JsonNode producer = tasks.get(0);
        assertThat(producer.get("name").asText()).isEqualTo("producer");
        assertThat(producer.get("tid").asInt()).as("AIC core 0").isEqualTo(1);
        // submitted at 0.874, dispatched then, starts 0.3 later and runs 1 us
        assertThat(producer.get("ts").asDouble()).isEqualTo(1.174);
        assertThat(producer.get("dur").asDouble()).isEqualTo(1.0);
        assertThat(producer.get("args").get("task_id").asText()).isEqualTo("0x0000000000000007");
        // the consumer's two blocks on AIV cores 0 and 1 (tracks 1 + 24 + c), after completion (0.6) and dispatch
        List<JsonNode> consumer = tasks.subList(1, 3);
        assertThat(consumer).extracting(e -> e.get("tid").asInt()).containsExactly(25, 26);
        assertThat(consumer).extracting(e -> e.get("ts").asDouble()).containsOnly(2.174 + 0.6 + 0.3);
        assertThat(consumer).extracting(e -> e.get("dur").asDouble()).containsOnly(2.0);
        List<JsonNode> submits = events(root, "X").stream().filter(e -> e.get("cat").asText().equals("submit"))
                .toList();
        assertThat(submits).extracting(e -> e.get("tid").asInt()).containsOnly(0);
        assertThat(submits).extracting(e -> e.get("ts").asDouble()).containsExactly(0.0, 0.874);
        assertThat(events(root, "s")).hasSize(1); // the duplicated edge is one flow
        // consumer done at 2.174 + 0.6 + 0.3 + 2 + 0.6; no GM bytes
        assertThat(root.get("otherData").get("device_us").asDouble()).isCloseTo(5.674, within(1e-9));
        assertThat(root.get("otherData").get("gm_bytes").asLong()).isZero();
        assertThat(root.get("otherData").get("hbm_bytes").asLong()).isZero();
        assertThat(events(root, "f").getFirst().get("bp").asText()).isEqualTo("e");
        assertThat(events(root, "M").stream().filter(e -> e.get("name").asText().equals("thread_name")))
                .hasSize(1 + 24 + 48);
    }

    private static final TaskBody NOTHING = ctx -> {
    };

    @Test
    void aRunsDepsJsonBecomesTheReplaysGraph(@TempDir Path dir) throws Exception {
        long[] ids = new long[3];
        try (Arena arena = Arena.ofShared(); Chip chip = Chip.open(Platform.A2A3SIM, 0)) {
            Tensor x = Tensor.allocate(arena, DType.FP32, 4, 8);
            Tensor out = Tensor.allocate(arena, DType.FP32, 4, 8);
            CallConfig cfg = new CallConfig(0, 0, 0, 0, true, false, dir.toString(), RuntimeEnv.defaults());
            chip.run(orch -> {
                ids[0] = orch.submit("make", CoreType.AIV, NOTHING, Arg.input(x), Arg.output(DType.FP32, 4, 8));
                ids[1] = orch.submit("mm", CoreType.AIC, NOTHING, Arg.input(orch.output(ids[0], 1)),
                        Arg.output(DType.FP32, 4, 8));
                ids[2] = orch.submit("add", CoreType.AIV, NOTHING, Arg.input(orch.output(ids[0], 1)),
                        Arg.input(orch.output(ids[1], 1)), Arg.outputExisting(out));
            }, cfg);
        }
        List<DeviceTask> g = DepsGraphReader.read(dir.resolve("deps.json"),
                (id, kernel, type) -> new TaskCost(kernel.equals("mm") ? 3700 : 1850, 0, 0, 0, 0, 0, 128, 128, 1));
        assertThat(g).extracting(DeviceTask::id).containsExactly(ids[0], ids[1], ids[2]);
        assertThat(g).extracting(DeviceTask::kernel).containsExactly("make", "mm", "add");
        assertThat(g).extracting(DeviceTask::coreType).containsExactly(CoreType.AIV, CoreType.AIC, CoreType.AIV);
        assertThat(g.get(0).preds()).isEmpty();
        assertThat(g.get(1).preds()).containsExactly(ids[0]);
        assertThat(g.get(2).preds()).containsExactlyInAnyOrder(ids[0], ids[1]);
        assertThat(g.get(1).cycles()).isEqualTo(3700);
        assertThat(g.get(1).gmBytes()).isEqualTo(256);
        DeviceTimeline tl = DeviceReplay.replay(A2, g);
        assertThat(tl.criticalPath()).containsExactly(ids[0], ids[1], ids[2]);
        // make: submitted 0.874, runs 1.174..2.174; mm ready 2.774, runs 3.074..5.074; add ready 5.674 (its own
        // submit at 2.622 is earlier), runs 5.974..6.974, done 7.574
        assertThat(tl.makespanPs()).isEqualTo(7_574_000);
    }

    @Test
    void aDepsFileWithoutACoreTypeIsRefusedNamingTheField(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("deps.json");
        Files.writeString(f, "{\"tasks\":[{\"task_id\":\"1\",\"kernel\":\"k\"}],\"edges\":[]}");
        assertThatThrownBy(() -> DepsGraphReader.read(f, (id, k, t) -> TaskCost.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(f + ": tasks[0].core_type is missing or not a string");
        Files.writeString(f, "{\"tasks\":[{\"task_id\":\"1\",\"kernel\":\"k\",\"core_type\":\"GPU\"}],\"edges\":[]}");
        assertThatThrownBy(() -> DepsGraphReader.read(f, (id, k, t) -> TaskCost.ZERO))
                .hasMessage(f + ": tasks[0].core_type is 'GPU'; allowed: AIC, AIV, MIX");
        Files.writeString(f, "{\"tasks\":[{\"task_id\":\"1\",\"kernel\":\"k\",\"core_type\":\"AIV\",\"block_num\":0}],"
                + "\"edges\":[]}");
        assertThatThrownBy(() -> DepsGraphReader.read(f, (id, k, t) -> TaskCost.ZERO))
                .hasMessage(f + ": tasks[0].block_num is 0; allowed: an integer >= 1 (absent: 1)");
        Files.writeString(f, "[]");
        assertThatThrownBy(() -> DepsGraphReader.read(f, (id, k, t) -> TaskCost.ZERO))
                .hasMessage(f + ": 'tasks' must be an array (is this a deps.json?)");
    }
}
