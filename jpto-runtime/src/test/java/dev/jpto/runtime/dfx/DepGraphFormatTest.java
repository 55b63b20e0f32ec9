package dev.jpto.runtime.dfx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.chip.Chip;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.RunReport;
import dev.jpto.runtime.RuntimeEnv;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** enable_dep_gen: deps.json and deps.dot parsed back and compared with the dependencies built into a program. */
@Timeout(30)
class DepGraphFormatTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private record Edge(long pred, long succ, int arg, String source, String overlap) {
    }

    @Test
    void depsJsonAndDotHoldExactlyTheProgramsDependencies(@TempDir Path dir) throws Exception {
        DfxPrograms.Ids ids = new DfxPrograms.Ids();
        RunReport rep;
        Tensor x, h;
        try (Arena arena = Arena.ofShared(); Chip chip = Chip.open(Platform.A2A3SIM, 0)) {
            x = Tensor.allocate(arena, DType.FP32, 4, 8);
            h = Tensor.allocate(arena, DType.FP32, 4, 8);
            Tensor out = Tensor.allocate(arena, DType.FP32, 4, 8);
            rep = chip.run(DfxPrograms.fiveTasks(x, h, out, ids),
                    DfxPrograms.dfx(dir, 0, 0, 0, true, RuntimeEnv.defaults()));
            assertThat(rep.dfxFiles()).containsExactly(dir.resolve("deps.json"), dir.resolve("deps.dot"));

            JsonNode root = JSON.readTree(dir.resolve("deps.json").toFile());
            assertThat(root.get("fatal").asBoolean()).isFalse();
            JsonNode tasks = root.get("tasks");
            assertThat(tasks).hasSize(5);
            List<String> kernels = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                JsonNode t = tasks.get(i);
                assertThat(t.get("task_id").isTextual()).as("64-bit ids are strings").isTrue();
                assertThat(Long.parseLong(t.get("task_id").asText())).isEqualTo(ids.get(i));
                assertThat(t.get("task_id_hex").asText()).isEqualTo(String.format("0x%016x", ids.get(i)));
                assertThat(t.get("scope_depth").asInt()).isZero();
                kernels.add(t.get("kernel").asText());
            }
            assertThat(kernels).containsExactly("scale", "scale", "inc", "add", "inc");
            JsonNode t3args = tasks.get(3).get("args");
            assertThat(t3args.get(0).get("role").asText()).isEqualTo("input");
            assertThat(t3args.get(2).get("role").asText()).isEqualTo("output_existing");
            assertThat(t3args.get(2).get("shape").toString()).isEqualTo("[4,8]");
            JsonNode t4view = tasks.get(4).get("args").get(0);
            assertThat(t4view.get("shape").toString()).isEqualTo("[2,8]");
            assertThat(t4view.get("strides").toString()).isEqualTo("[8,1]");

            // expected: the table in DfxPrograms.fiveTasks
            Set<Edge> expected = Set.of(
                    new Edge(ids.get(0), ids.get(1), 0, "creator", null),
                    new Edge(ids.get(2), ids.get(3), 0, "tensormap", "covered"),
                    new Edge(ids.get(1), ids.get(3), 1, "creator", null),
                    new Edge(ids.get(2), ids.get(4), 0, "tensormap", "partial"));
            Set<Edge> found = new HashSet<>();
            for (JsonNode e : root.get("edges")) {
                assertThat(e.get("pred").isTextual()).isTrue();
                JsonNode ov = e.get("overlap");
                Edge edge = new Edge(Long.parseLong(e.get("pred").asText()), Long.parseLong(e.get("succ").asText()),
                        e.get("arg").asInt(), e.get("source").asText(), ov.isNull() ? null : ov.asText());
                assertThat(found.add(edge)).as("duplicate edge %s", edge).isTrue();
                List<String> flags = new ArrayList<>();
                e.get("flags").forEach(f -> flags.add(f.asText()));
                assertThat(flags).isEqualTo(edge.source().equals("creator") ? List.of("wait", "retain")
                        : List.of("wait"));
            }
            assertThat(found).isEqualTo(expected);
            for (JsonNode e : root.get("edges")) {
                if (Long.parseLong(e.get("succ").asText()) == ids.get(4)) {
                    // t4 writes rows 0..1 of h, t2 wrote all of h
                    assertThat(e.get("consumer_shape").toString()).isEqualTo("[2,8]");
                    assertThat(e.get("producer_shape").toString()).isEqualTo("[4,8]");
                    assertThat(e.get("producer_dtype").asText()).isEqualTo("fp32");
                    assertThat(e.get("consumer_start_offset").asText()).isEqualTo("0");
                }
            }

            // tensors: x and h are caller buffers; X and Y were created by t0 and t1; edges name their tensor
            JsonNode tensors = root.get("tensors");
            assertThat(tensors).hasSize(5); // x, X, Y, h, out
            int created = 0;
            for (JsonNode t : tensors) {
                assertThat(t.get("buffer_addr").isTextual()).isTrue();
                if (!t.get("creator").isNull()) {
                    created++;
                    assertThat(Long.parseLong(t.get("creator").asText())).isIn(ids.get(0), ids.get(1));
                }
                if (Long.parseLong(t.get("buffer_addr").asText()) == h.bufferAddress()) {
                    assertThat(t.get("buffer_numel").asText()).isEqualTo("32");
                }
            }
            assertThat(created).isEqualTo(2);
            for (JsonNode e : root.get("edges")) {
                long tid = Long.parseLong(e.get("tensor_id").asText());
                JsonNode tensor = tensors.get((int) tid);
                if (e.get("source").asText().equals("creator")) {
                    assertThat(tensor.get("creator").asText()).isEqualTo(e.get("pred").asText());
                } else {
                    assertThat(Long.parseLong(tensor.get("buffer_addr").asText())).isEqualTo(h.bufferAddress());
                }
            }
        }

        // deps.dot: a node per task labelled kernel + hex id, an arrow per edge labelled by arg and source
        String dot = Files.readString(dir.resolve("deps.dot"));
        assertThat(dot).startsWith("digraph deps {").endsWith("}\n");
        Matcher node = Pattern.compile("(t\\d+) \\[label=\"(\\w+)\\\\n(0x[0-9a-f]{16})\"\\];").matcher(dot);
        int nodes = 0;
        while (node.find()) {
            long id = Long.parseLong(node.group(1).substring(1));
            assertThat(ids.ids).contains(id);
            assertThat(node.group(3)).isEqualTo(String.format("0x%016x", id));
            nodes++;
        }
        assertThat(nodes).isEqualTo(5);
        Matcher arrow = Pattern.compile("t(\\d+) -> t(\\d+) \\[label=\"arg (\\d) (creator|tensormap)( \\((covered|partial)\\))?\"\\];")
                .matcher(dot);
        Set<Edge> dotEdges = new HashSet<>();
        while (arrow.find()) {
            dotEdges.add(new Edge(Long.parseLong(arrow.group(1)), Long.parseLong(arrow.group(2)),
                    Integer.parseInt(arrow.group(3)), arrow.group(4), arrow.group(6)));
        }
        assertThat(dotEdges).hasSize(4).allMatch(e -> e.pred() != e.succ());
        assertThat(dotEdges).extracting(Edge::pred, Edge::succ).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple(ids.get(0), ids.get(1)),
                org.assertj.core.groups.Tuple.tuple(ids.get(2), ids.get(3)),
                org.assertj.core.groups.Tuple.tuple(ids.get(1), ids.get(3)),
                org.assertj.core.groups.Tuple.tuple(ids.get(2), ids.get(4)));
    }

    @Test
    void aFailedRunStillWritesItsGraphAndTraceMarkedFatal(@TempDir Path dir) throws Exception {
        try (Chip chip = Chip.open(Platform.A2A3SIM, 0)) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> chip.run(orch -> {
                long a = orch.submit("ok", dev.jpto.runtime.CoreType.AIV, ctx -> { },
                        dev.jpto.runtime.Arg.output(DType.FP32, 8));
                orch.submit("boom", dev.jpto.runtime.CoreType.AIV, ctx -> {
                    throw new IllegalStateException("kernel bug");
                }, dev.jpto.runtime.Arg.input(orch.output(a, 0)));
            }, DfxPrograms.dfx(dir, 1, 0, 1, true, RuntimeEnv.defaults())))
                    .isInstanceOf(dev.jpto.runtime.ChipRuntimeException.class).hasMessageContaining("kernel bug");
            JsonNode root = JSON.readTree(dir.resolve("deps.json").toFile());
            assertThat(root.get("fatal").asBoolean()).isTrue();
            assertThat(root.get("tasks")).hasSize(2);
            assertThat(root.get("edges")).hasSize(1);
            // the task that threw has no slice; the one that ran has
            assertThat(Files.readAllLines(dir.resolve("pmu.csv"))).hasSize(2);
            assertThat(dir.resolve("chip_swimlane.json")).exists();
        }
    }

    @Test
    void crossScopeEdgesOnlyToLiveProducers(@TempDir Path dir) throws Exception {
        // Two scopes; in each, t(2k) writes h (INOUT) and t(2k+1) reads it. The second writer finds the first
        // only if it has not retired yet (timing); its COVERED INOUT then replaces the first writer's entry, so
        // the second reader can never see the first writer.
        try (Arena arena = Arena.ofShared(); Chip chip = Chip.open(Platform.A2A3SIM, 0)) {
            Tensor h = Tensor.allocate(arena, DType.FP32, 2, 8);
            Tensor o1 = Tensor.allocate(arena, DType.FP32, 2, 8);
            Tensor o2 = Tensor.allocate(arena, DType.FP32, 2, 8);
            List<Long> ids = new ArrayList<>();
            chip.run(orch -> {
                for (Tensor o : new Tensor[] {o1, o2}) {
                    try (dev.jpto.runtime.Scope _ = orch.scope()) {
                        ids.add(orch.submit("inc", dev.jpto.runtime.CoreType.AIV, DfxPrograms.INC,
                                dev.jpto.runtime.Arg.inout(h)));
                        ids.add(orch.submit("scale", dev.jpto.runtime.CoreType.AIV, DfxPrograms.axpb(1, 0),
                                dev.jpto.runtime.Arg.input(h), dev.jpto.runtime.Arg.outputExisting(o)));
                    }
                }
            }, DfxPrograms.dfx(dir, 0, 0, 0, true, RuntimeEnv.defaults()));
            JsonNode edges = JSON.readTree(dir.resolve("deps.json").toFile()).get("edges");
            Set<List<Long>> pairs = new HashSet<>();
            edges.forEach(e -> pairs.add(List.of(Long.parseLong(e.get("pred").asText()),
                    Long.parseLong(e.get("succ").asText()))));
            assertThat(pairs).contains(List.of(ids.get(0), ids.get(1)), List.of(ids.get(2), ids.get(3)));
            Set<List<Long>> allowed = Set.of(List.of(ids.get(0), ids.get(1)), List.of(ids.get(2), ids.get(3)),
                    List.of(ids.get(0), ids.get(2)));
            assertThat(allowed).containsAll(pairs);
        }
    }

    @Test
    void aFileThatCannotBeWrittenLeavesThePreviousRunsFileAndNoTemporaryFile(@TempDir Path dir) throws Exception {
        // the previous run's deps.json stays whole when this run cannot replace it (a directory took its name)
        Files.createDirectories(dir.resolve("deps.json").resolve("taken"));
        Path dot = Files.writeString(dir.resolve("deps.dot"), "digraph previous {}\n");
        try (Arena arena = Arena.ofShared(); Chip chip = Chip.open(Platform.A2A3SIM, 0)) {
            Tensor x = Tensor.allocate(arena, DType.FP32, 4, 8);
            Tensor h = Tensor.allocate(arena, DType.FP32, 4, 8);
            Tensor out = Tensor.allocate(arena, DType.FP32, 4, 8);
            assertThatThrownBy(() -> chip.run(DfxPrograms.fiveTasks(x, h, out, new DfxPrograms.Ids()),
                    DfxPrograms.dfx(dir, 0, 0, 0, true, RuntimeEnv.defaults())))
                    .hasMessageStartingWith("cannot write " + dir.resolve("deps.json"));
        }
        assertThat(Files.readString(dot)).isEqualTo("digraph previous {}\n");
        try (var names = Files.list(dir)) {
            assertThat(names.map(f -> f.getFileName().toString())).containsExactlyInAnyOrder("deps.json", "deps.dot");
        }
    }
}
