package dev.jpto.runtime.dfx;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.Arg;
import dev.jpto.runtime.CallConfig;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.chip.Chip;
import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.ErrorCode;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.RunReport;
import dev.jpto.runtime.RuntimeEnv;
import dev.jpto.runtime.Scope;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** enable_chip_swimlane and enable_pmu: the trace and the CSV parsed back and checked against the run. */
@Timeout(30)
class SwimlaneAndPmuFormatTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private record Slice(int tid, double ts, double dur) {
        boolean contains(double t) {
            return t >= ts && t <= ts + dur;
        }
    }

    @Test
    void traceHasOneSlicePerTaskOnItsCoreTrackAndAFlowPerDependency(@TempDir Path dir) throws Exception {
        Platform platform = Platform.A5SIM;
        DfxPrograms.Ids ids = new DfxPrograms.Ids();
        try (Arena arena = Arena.ofShared(); Chip chip = Chip.open(platform, 0)) {
            Tensor x = Tensor.allocate(arena, DType.FP32, 4, 8);
            Tensor h = Tensor.allocate(arena, DType.FP32, 4, 8);
            Tensor out = Tensor.allocate(arena, DType.FP32, 4, 8);
            RunReport rep = chip.run(DfxPrograms.fiveTasks(x, h, out, ids),
                    DfxPrograms.dfx(dir, 2, 0, 2, false, RuntimeEnv.defaults()));
            assertThat(rep.dfxFiles()).containsExactly(dir.resolve("chip_swimlane.json"),
                    dir.resolve("chip_swimlane_records.json"), dir.resolve("pmu.csv"),
                    dir.resolve("chip_swimlane_device.json"));
        }
        JsonNode trace = JSON.readTree(dir.resolve("chip_swimlane.json").toFile());
        int aic = platform.aicCores(), aiv = platform.aivCores();
        Map<Integer, String> threadNames = new HashMap<>();
        Map<String, Slice> sliceOfTask = new HashMap<>();
        Map<Integer, List<Slice>> byTrack = new HashMap<>();
        List<JsonNode> starts = new ArrayList<>(), finishes = new ArrayList<>();
        for (JsonNode e : trace.get("traceEvents")) {
            assertThat(e.get("pid").asInt()).isEqualTo(1);
            switch (e.get("ph").asText()) {
                case "M" -> {
                    if (e.get("name").asText().equals("thread_name")) {
                        threadNames.put(e.get("tid").asInt(), e.get("args").get("name").asText());
                    }
                }
                case "X" -> {
                    assertThat(e.get("cat").asText()).isEqualTo("task");
                    JsonNode a = e.get("args");
                    Slice s = new Slice(e.get("tid").asInt(), e.get("ts").asDouble(), e.get("dur").asDouble());
                    assertThat(s.dur()).isNotNegative();
                    assertThat(a.get("task_id").isTextual()).isTrue();
                    assertThat(sliceOfTask.put(a.get("task_id").asText(), s)).as("one slice per task").isNull();
                    byTrack.computeIfAbsent(s.tid(), k -> new ArrayList<>()).add(s);
                    // the slice is on the track of the core it names
                    String core = a.get("core").asText();
                    assertThat(threadNames.get(s.tid())).isEqualTo(core);
                    assertThat(a.get("args")).isNotEmpty();
                }
                case "s" -> starts.add(e);
                case "f" -> finishes.add(e);
                default -> throw new AssertionError("unexpected event " + e);
            }
        }
        // tracks: orchestrator + every logical core
        assertThat(threadNames).hasSize(1 + aic + aiv).containsEntry(0, "orchestrator")
                .containsEntry(1, "AIC 0").containsEntry(1 + aic, "AIV 0").containsEntry(aic + aiv, "AIV " + (aiv - 1));
        assertThat(sliceOfTask).hasSize(5);
        for (long id : ids.ids) {
            assertThat(sliceOfTask).containsKey(String.format("0x%016x", id));
        }
        // one core runs one task at a time
        for (List<Slice> track : byTrack.values()) {
            track.sort((p, q) -> Double.compare(p.ts(), q.ts()));
            for (int i = 1; i < track.size(); i++) {
                assertThat(track.get(i).ts()).isGreaterThanOrEqualTo(track.get(i - 1).ts() + track.get(i - 1).dur());
            }
        }
        // flows: one per distinct (pred, succ) pair of DfxPrograms.fiveTasks, bound to the right slices
        assertThat(starts).hasSize(4);
        assertThat(finishes).hasSize(4);
        Set<List<String>> flows = new HashSet<>();
        for (int i = 0; i < 4; i++) {
            JsonNode s = starts.get(i), f = finishes.get(i);
            assertThat(s.get("id").asInt()).isEqualTo(f.get("id").asInt());
            assertThat(f.get("bp").asText()).isEqualTo("e");
            String pred = taskAt(sliceOfTask, s.get("tid").asInt(), s.get("ts").asDouble());
            String succ = taskAt(sliceOfTask, f.get("tid").asInt(), f.get("ts").asDouble());
            flows.add(List.of(pred, succ));
            // a consumer starts after its producer ended
            assertThat(sliceOfTask.get(succ).ts()).isGreaterThanOrEqualTo(sliceOfTask.get(pred).ts()
                    + sliceOfTask.get(pred).dur() - 1e-3);
        }
        assertThat(flows).containsExactlyInAnyOrder(pair(ids, 0, 1), pair(ids, 2, 3), pair(ids, 1, 3),
                pair(ids, 2, 4));

        JsonNode records = JSON.readTree(dir.resolve("chip_swimlane_records.json").toFile());
        assertThat(records.get("chip_swimlane_level").asInt()).isEqualTo(2);
        assertThat(records.get("metadata").get("num_cores").asInt()).isEqualTo(aic + aiv);
        assertThat(records.get("metadata").get("core_types")).hasSize(aic + aiv);
        assertThat(records.get("aicore_tasks")).hasSize(5);
        assertThat(records.get("aicpu_tasks")).hasSize(5);
        for (JsonNode row : records.get("aicore_tasks")) {
            assertThat(ids.ids).contains(row.get(1).asLong());
            assertThat(row.get(4).asLong()).isGreaterThanOrEqualTo(row.get(3).asLong());
        }

        // pmu.csv: one row per task; counters are what the bodies reported (DfxPrograms' formulas)
        List<String> lines = Files.readAllLines(dir.resolve("pmu.csv"));
        assertThat(lines.getFirst()).isEqualTo(PmuWriter.HEADER);
        assertThat(lines).hasSize(6);
        Map<String, String[]> rows = new HashMap<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] c = line.split(",");
            assertThat(c).hasSize(12);
            rows.put(c[3], c);
        }
        String[] t0 = rows.get(String.format("0x%016x", ids.get(0)));
        assertThat(t0[2]).isEqualTo("AIV");
        assertThat(t0[4]).isEqualTo("scale");
        assertThat(Long.parseLong(t0[8])).isEqualTo(32 * 4); // bytes read: 4x8 fp32
        assertThat(Long.parseLong(t0[9])).isEqualTo(32 * 4);
        assertThat(Long.parseLong(t0[10])).isEqualTo(2 * 32); // 2 FLOPs per element
        assertThat(t0[11]).isEqualTo("2");
        String[] t1 = rows.get(String.format("0x%016x", ids.get(1)));
        assertThat(t1[2]).isEqualTo("AIC");
        assertThat(Integer.parseInt(t1[1])).isBetween(0, aic - 1);
        String[] t3 = rows.get(String.format("0x%016x", ids.get(3)));
        assertThat(Long.parseLong(t3[8])).isEqualTo(2 * 32 * 4);
        assertThat(Long.parseLong(t3[10])).isEqualTo(32);
        String[] t4 = rows.get(String.format("0x%016x", ids.get(4)));
        assertThat(Long.parseLong(t4[10])).as("inc on the 2x8 view").isEqualTo(16);
        for (String[] r : rows.values()) {
            assertThat(Long.parseLong(r[6])).isNotNegative();
            assertThat(r[7]).as("device_cycles: these Java bodies report none").isEqualTo("0");
            assertThat(Integer.parseInt(r[0])).isBetween(0, CallConfig.defaults().aicpuThreads(platform) - 2);
        }
    }

    private static List<String> pair(DfxPrograms.Ids ids, int p, int s) {
        return List.of(String.format("0x%016x", ids.get(p)), String.format("0x%016x", ids.get(s)));
    }

    private static String taskAt(Map<String, Slice> slices, int tid, double ts) {
        return slices.entrySet().stream().filter(e -> e.getValue().tid() == tid && e.getValue().contains(ts))
                .map(Map.Entry::getKey).findFirst().orElseThrow(() -> new AssertionError("no slice at tid " + tid
                        + " ts " + ts));
    }

    @Test
    void backPressureWaitsAreSlicesOnTheOrchestratorTrackInsideTheirSubmit(@TempDir Path dir) throws Exception {
        // Ring 1 holds two 16 KiB outputs; each task sleeps, so the orchestrator must wait for heap.
        RuntimeEnv env = RuntimeEnv.defaults().withRingHeap(0, 32 * 1024, 0, 0);
        int tasks = 6;
        try (Chip chip = Chip.open(Platform.A2A3SIM, 0)) {
            chip.run(orch -> {
                for (int i = 0; i < tasks; i++) {
                    try (Scope _ = orch.scope()) {
                        orch.submit("sleepy", CoreType.AIV, ctx -> Thread.sleep(5), Arg.output(DType.INT8, 16 * 1024));
                    }
                }
            }, DfxPrograms.dfx(dir, 4, 0, 0, false, env)); // level 4: submits are slices too
        }
        JsonNode trace = JSON.readTree(dir.resolve("chip_swimlane.json").toFile());
        int slices = 0;
        List<Slice> submits = new ArrayList<>(), waits = new ArrayList<>();
        for (JsonNode e : trace.get("traceEvents")) {
            if (!e.get("ph").asText().equals("X")) {
                continue;
            }
            Slice s = new Slice(e.get("tid").asInt(), e.get("ts").asDouble(), e.get("dur").asDouble());
            switch (e.get("cat").asText()) {
                case "back_pressure" -> {
                    waits.add(s);
                    assertThat(s.tid()).isZero();
                    assertThat(e.get("args").get("ring").asInt()).isEqualTo(1);
                    assertThat(e.get("args").get("resource").asText()).isEqualTo("heap");
                    assertThat(s.dur()).isPositive();
                }
                case "submit" -> {
                    submits.add(s);
                    assertThat(s.tid()).isZero();
                    assertThat(e.get("name").asText()).isEqualTo("submit sleepy");
                }
                default -> slices++;
            }
        }
        assertThat(slices).isEqualTo(tasks);
        assertThat(submits).hasSize(tasks);
        assertThat(waits).as("at least the third submit waits for the first task's heap").isNotEmpty();
        for (Slice w : waits) {
            assertThat(submits).as("a wait lies inside the submit that waited")
                    .anyMatch(sub -> sub.contains(w.ts()) && sub.contains(w.ts() + w.dur()));
        }
        JsonNode records = JSON.readTree(dir.resolve("chip_swimlane_records.json").toFile());
        assertThat(records.get("aicpu_orchestrator_phases")).hasSize(tasks);
        assertThat(records.get("aicpu_orchestrator_phases").get(tasks - 1).get("submit_idx").asInt())
                .isEqualTo(tasks - 1);
    }

    @Test
    void theSubmitThatFailedAndTheWaitItFailedInAreSlicesAndTheErrorListsTheFiles(@TempDir Path dir)
            throws Exception {
        // Ring 1 holds two 16 KiB outputs; three submits in one open scope: the third can never get heap (the
        // oldest task is held by its scope), so the run ends in HEAP_RING_DEADLOCK on that submit's wait.
        RuntimeEnv env = RuntimeEnv.defaults().withRingHeap(0, 32 * 1024, 0, 0);
        ChipRuntimeException failure;
        try (Chip chip = Chip.open(Platform.A2A3SIM, 0)) {
            failure = org.junit.jupiter.api.Assertions.assertThrows(ChipRuntimeException.class, () -> chip.run(
                    orch -> {
                        try (Scope _ = orch.scope()) {
                            for (int i = 0; i < 3; i++) {
                                orch.submit("big", CoreType.AIV, ctx -> { }, Arg.output(DType.INT8, 16 * 1024));
                            }
                        }
                    }, DfxPrograms.dfx(dir, 4, 0, 0, false, env)));
        }
        assertThat(failure.error()).isEqualTo(ErrorCode.HEAP_RING_DEADLOCK);
        assertThat(failure.diagnosticFiles()).containsExactly(dir.resolve("chip_swimlane.json"),
                dir.resolve("chip_swimlane_records.json"));
        JsonNode trace = JSON.readTree(dir.resolve("chip_swimlane.json").toFile());
        List<Slice> submits = new ArrayList<>();
        Slice failedSubmit = null;
        Slice wait = null;
        for (JsonNode e : trace.get("traceEvents")) {
            if (!e.get("ph").asText().equals("X")) {
                continue;
            }
            Slice s = new Slice(e.get("tid").asInt(), e.get("ts").asDouble(), e.get("dur").asDouble());
            switch (e.get("cat").asText()) {
                case "submit" -> {
                    if (e.get("name").asText().equals("submit big FAILED HEAP_RING_DEADLOCK")) {
                        assertThat(failedSubmit).as("one failed submit").isNull();
                        assertThat(e.get("args").get("error_code").asInt())
                                .isEqualTo(ErrorCode.HEAP_RING_DEADLOCK.code());
                        failedSubmit = s;
                    } else {
                        assertThat(e.get("name").asText()).isEqualTo("submit big");
                        submits.add(s);
                    }
                }
                case "back_pressure" -> {
                    assertThat(wait).as("one wait").isNull();
                    assertThat(e.get("args").get("ring").asInt()).isEqualTo(1);
                    assertThat(e.get("args").get("resource").asText()).isEqualTo("heap");
                    wait = s;
                }
                default -> { }
            }
        }
        assertThat(submits).as("the two submits that got their heap").hasSize(2);
        assertThat(failedSubmit).as("the failed submit is a slice").isNotNull();
        assertThat(failedSubmit.tid()).isZero();
        assertThat(wait).as("the wait that failed is a slice, though it never idled").isNotNull();
        assertThat(failedSubmit.contains(wait.ts()) && failedSubmit.contains(wait.ts() + wait.dur()))
                .as("the wait lies inside the failed submit").isTrue();
        JsonNode phases = JSON.readTree(dir.resolve("chip_swimlane_records.json").toFile())
                .get("aicpu_orchestrator_phases");
        assertThat(phases).hasSize(3);
        assertThat(phases.get(2).get("task_id").asText()).isEqualTo("-1");
        assertThat(phases.get(2).get("error").asText()).isEqualTo("HEAP_RING_DEADLOCK");
    }
}
