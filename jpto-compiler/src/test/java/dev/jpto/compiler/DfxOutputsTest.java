package dev.jpto.compiler;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jpto.compiler.launch.Runner;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.RunReport;
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

/**
 * A compiled program with DFX on: the PMU counters are the tile executor's counts (FLOPs = 2·M·N·K of the
 * matmul), and the dependency graph is the K-accumulation chain of every output tile.
 */
@Timeout(60)
class DfxOutputsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void matmulCountersAndDependencyChains(@TempDir Path dir) throws Exception {
        int m = 128, k = 256, n = 192, t = 64;
        RunReport rep;
        try (Arena arena = Arena.ofShared()) {
            Tensor a = Tensors.random(arena, 3, m, k);
            Tensor b = Tensors.random(arena, 4, k, n);
            Tensor c = Tensor.allocate(arena, DType.FP32, m, n);
            RunConfig config = RunConfig.fromMap(Map.of("enable_pmu", "2", "enable_dep_gen", "true",
                    "output_prefix", dir.toString()));
            rep = Runner.run(Compiler.compileInMemory(TestPrograms.matmul(m, k, n)), Map.of("a", a, "b", b, "c", c),
                    config);
        }
        int tiles = (m / t) * (n / t), steps = k / t;
        assertThat(rep.tasksExecuted()).isEqualTo(tiles * steps);

        List<String> lines = Files.readAllLines(dir.resolve("pmu.csv"));
        List<String> header = List.of(lines.getFirst().split(","));
        int kernel = header.indexOf("kernel"), flops = header.indexOf("flops"), read = header.indexOf("bytes_read"),
                written = header.indexOf("bytes_written"), coreType = header.indexOf("core_type");
        assertThat(lines).hasSize(1 + tiles * steps);
        long totalFlops = 0;
        long tileBytes = (long) t * t * 4;
        for (String line : lines.subList(1, lines.size())) {
            String[] cols = line.split(",");
            assertThat(cols[coreType]).isEqualTo("AIC");
            assertThat(Long.parseLong(cols[flops])).isEqualTo(2L * t * t * t);
            // mm_first loads a and b tiles; mm_acc also loads the c tile it accumulates into
            long loads = cols[kernel].equals("mm_first") ? 2 : 3;
            assertThat(Long.parseLong(cols[read])).as(line).isEqualTo(loads * tileBytes);
            assertThat(Long.parseLong(cols[written])).isEqualTo(tileBytes);
            totalFlops += Long.parseLong(cols[flops]);
        }
        assertThat(totalFlops).isEqualTo(2L * m * n * k);

        // Each output tile: mm_first, then steps − 1 mm_acc tasks, each waiting for the previous through the
        // TensorMap (a covered INOUT replaces the previous writer's entry, so only consecutive pairs).
        JsonNode graph = JSON.readTree(dir.resolve("deps.json").toFile());
        JsonNode tasks = graph.get("tasks");
        assertThat(tasks).hasSize(tiles * steps);
        Set<List<String>> expected = new HashSet<>();
        for (int tile = 0; tile < tiles; tile++) {
            for (int s = 1; s < steps; s++) {
                expected.add(List.of(tasks.get(tile * steps + s - 1).get("task_id").asText(),
                        tasks.get(tile * steps + s).get("task_id").asText()));
            }
        }
        Set<List<String>> found = new HashSet<>();
        Map<String, String> kernels = new HashMap<>();
        tasks.forEach(task -> kernels.put(task.get("task_id").asText(), task.get("kernel").asText()));
        for (JsonNode e : graph.get("edges")) {
            assertThat(e.get("source").asText()).isEqualTo("tensormap");
            assertThat(e.get("overlap").asText()).isEqualTo("covered");
            assertThat(e.get("arg").asInt()).isEqualTo(2);
            assertThat(kernels.get(e.get("succ").asText())).isEqualTo("mm_acc");
            found.add(List.of(e.get("pred").asText(), e.get("succ").asText()));
        }
        assertThat(graph.get("edges")).hasSize(tiles * (steps - 1));
        assertThat(found).isEqualTo(expected);
        List<String> kinds = new ArrayList<>();
        for (int s = 0; s < steps; s++) {
            kinds.add(tasks.get(s).get("kernel").asText());
        }
        assertThat(kinds).containsExactly("mm_first", "mm_acc", "mm_acc", "mm_acc");
    }
}
