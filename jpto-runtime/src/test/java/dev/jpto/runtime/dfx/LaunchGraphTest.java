package dev.jpto.runtime.dfx;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.Arg;
import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.Launch;
import dev.jpto.runtime.MixedKernels;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.RuntimeEnv;
import dev.jpto.runtime.Scope;
import dev.jpto.runtime.TaskBody;
import dev.jpto.runtime.chip.Chip;
import dev.jpto.runtime.device.DepsGraphReader;
import dev.jpto.runtime.device.DeviceTask;
import dev.jpto.runtime.device.TaskCost;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** deps.json and the swimlane records of a program with a manual scope, an SPMD task and a mixed task. */
@Timeout(30)
@SuppressWarnings("try") // the manual scope is opened for its kind
class LaunchGraphTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TaskBody NOOP = ctx -> { };

    @Test
    void depsJsonCarriesScopeKindBlocksAndExplicitEdgesAndTheSwimlaneEachBlock(@TempDir Path dir) throws Exception {
        List<Long> ids = new ArrayList<>();
        try (Arena arena = Arena.ofShared(); Chip chip = Chip.open(Platform.A2A3SIM, 0)) {
            Tensor x = Tensor.allocate(arena, DType.FP32, 8);
            chip.run(orch -> {
                try (Scope m = orch.manualScope()) {
                    long alloc = orch.allocTensors(new Arg.Output(DType.FP32, new long[] {8}));
                    long spmd = orch.submit(Launch.blocks(4).syncStart().withDeps(alloc), "spmd", CoreType.AIV, NOOP,
                            Arg.outputExisting(orch.output(alloc, 0)));
                    long mix = orch.submitMixed(Launch.blocks(2).withDeps(spmd), new MixedKernels("mix", NOOP, NOOP,
                            null), Arg.input(orch.output(alloc, 0)), Arg.outputExisting(x));
                    ids.addAll(List.of(alloc, spmd, mix));
                }
            }, DfxPrograms.dfx(dir, 2, 0, 0, true, RuntimeEnv.defaults()));
        }
        JsonNode root = JSON.readTree(dir.resolve("deps.json").toFile());
        JsonNode tasks = root.get("tasks");
        assertThat(tasks).hasSize(3);
        for (JsonNode t : tasks) {
            assertThat(t.get("scope").asText()).isEqualTo("manual");
        }
        assertThat(tasks.get(0).get("kernel").asText()).isEqualTo("alloc_tensors");
        assertThat(tasks.get(1).get("block_num").asInt()).isEqualTo(4);
        assertThat(tasks.get(1).get("core_type").asText()).isEqualTo("AIV");
        assertThat(tasks.get(1).has("active_mask")).isFalse();
        assertThat(tasks.get(1).get("require_sync_start").asBoolean()).isTrue();
        assertThat(tasks.get(2).has("require_sync_start")).as("written only when true").isFalse();
        assertThat(tasks.get(2).get("block_num").asInt()).isEqualTo(2);
        assertThat(tasks.get(2).get("core_type").asText()).isEqualTo("MIX");
        assertThat(tasks.get(2).get("active_mask").asInt()).isEqualTo(3);
        // only the explicit edges: no creator edge to the allocation, no TensorMap edge, in a manual scope
        List<List<String>> edges = new ArrayList<>();
        for (JsonNode e : root.get("edges")) {
            edges.add(List.of(e.get("pred").asText(), e.get("succ").asText(), e.get("source").asText(),
                    e.get("arg").asText(), e.get("flags").toString()));
        }
        String both = "[\"wait\",\"retain\"]";
        assertThat(edges).containsExactly(
                List.of(ids.get(0).toString(), ids.get(1).toString(), "explicit", "-1", both),
                List.of(ids.get(1).toString(), ids.get(2).toString(), "explicit", "-1", both));

        // swimlane: each block on its core; a mixed block's two lanes on one cluster (cube k, vector 2k)
        JsonNode records = JSON.readTree(dir.resolve("chip_swimlane_records.json").toFile());
        int aic = Platform.A2A3SIM.aicCores();
        Map<Long, List<Integer>> coresOf = new HashMap<>();
        for (JsonNode row : records.get("aicore_tasks")) {
            coresOf.computeIfAbsent(row.get(1).asLong(), k -> new ArrayList<>()).add(row.get(0).asInt());
        }
        assertThat(coresOf).doesNotContainKey(ids.get(0)); // the allocation ran on no core
        assertThat(coresOf.get(ids.get(1))).hasSize(4).allMatch(c -> c >= aic);
        List<Integer> mixCores = coresOf.get(ids.get(2));
        assertThat(mixCores).hasSize(4);
        long cubes = mixCores.stream().filter(c -> c < aic).count();
        assertThat(cubes).isEqualTo(2);
        for (int c : mixCores) {
            if (c < aic) {
                assertThat(mixCores).contains(aic + 2 * c);
            }
        }

        // the device estimate's reader takes the block counts and the explicit edges back
        List<DeviceTask> graph = DepsGraphReader.read(dir.resolve("deps.json"), (id, k, type) -> TaskCost.ZERO);
        assertThat(graph).extracting(DeviceTask::blocks).containsExactly(1, 4, 2);
        assertThat(graph.get(2).coreType()).isEqualTo(CoreType.AIC);
        assertThat(graph.get(2).preds()).containsExactly(ids.get(1));
    }
}
