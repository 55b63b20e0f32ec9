package dev.jpto.compiler.launch;

import dev.jpto.compiler.CompiledL3Program;
import dev.jpto.compiler.CompiledProgram;
import dev.jpto.compiler.Compiler;
import dev.jpto.compiler.Tensors;
import dev.jpto.compiler.TestPrograms;
import dev.jpto.compiler.WorkDirException;
import static dev.jpto.isa.DType.FP32;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.l3.ChipCall;
import dev.jpto.compiler.l3.HostTensor;
import dev.jpto.compiler.l3.HostView;
import dev.jpto.compiler.l3.L3Program;
import dev.jpto.compiler.l3.L3Report;
import dev.jpto.compiler.l3.Placement;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.ErrorCode;
import dev.jpto.runtime.RunReport;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * L3 runs on several simulated chips against a sequential host executor (each call run in program order on one
 * chip through {@code CompiledProgram.run}): same outputs, dependencies honoured, ring sizing on every chip.
 */
class DistributedL3Test {
    private static final int M = 256;
    private static final int K = 256;
    private static final int N = 128;
    private static final int ROW_SHARDS = 2;
    private static final int K_SPLIT = 2;

    /**
     * C = A·B: per row shard r and K half h, a chip matmul of A[r rows, h cols] (a strided view) by B[h rows]
     * into scratch part[h] rows r; then per row shard a chip add of the two partials into C rows r.
     */
    private static L3Program splitMatmul(int chips) {
        int mr = M / ROW_SHARDS;
        int kh = K / K_SPLIT;
        Program mm = TestPrograms.matmul(mr, kh, N);
        Program add = TestPrograms.vectorAdd(mr);
        L3Program.Builder l3 = L3Program.builder("split_matmul").chips(chips);
        HostTensor a = l3.input("a", FP32, M, K);
        HostTensor b = l3.input("b", FP32, K, N);
        HostTensor c = l3.output("c", FP32, M, N);
        HostTensor part = l3.scratch("part", FP32, K_SPLIT, M, N);
        for (int r = 0; r < ROW_SHARDS; r++) {
            for (int h = 0; h < K_SPLIT; h++) {
                l3.call("mm_r" + r + "_k" + h, mm, Map.of("a", a.rows(r * mr, mr).cols(h * kh, kh),
                        "b", b.rows(h * kh, kh), "c", part.at(h).rows(r * mr, mr)));
            }
        }
        for (int r = 0; r < ROW_SHARDS; r++) {
            l3.call("sum_r" + r, add, Map.of("x", part.at(0).rows(r * mr, mr), "y", part.at(1).rows(r * mr, mr),
                    "z", c.rows(r * mr, mr)));
        }
        return l3.build();
    }

    /** The reference: every call in program order on one chip, views made the same way. */
    private static void sequential(L3Program p, Map<String, Tensor> args, Arena arena) {
        Map<String, Tensor> host = HostViews.bind(p, args, arena);
        for (ChipCall call : p.calls()) {
            Map<String, Tensor> a = new HashMap<>();
            for (Map.Entry<String, HostView> e : call.bindings().entrySet()) {
                a.put(e.getKey(), HostViews.view(host.get(e.getValue().tensor().name()), e.getValue()));
            }
            Runner.run(Compiler.compileInMemory(call.program()), a);
        }
    }

    private static Map<String, Tensor> args(Arena arena) {
        return new HashMap<>(Map.of("a", Tensors.random(arena, 1, M, K), "b", Tensors.random(arena, 2, K, N),
                "c", Tensor.allocate(arena, FP32, M, N)));
    }

    @Test
    void dependenciesComeFromTheHostTensors() {
        L3Program p = splitMatmul(2);
        // the four matmuls write disjoint boxes of part and only read a and b: no order among them
        for (int i = 0; i < 4; i++) {
            assertThat(p.predecessors(i)).isEmpty();
        }
        // each sum reads the two partials of its own rows, written by mm_r*_k0 and mm_r*_k1
        assertThat(p.predecessors(4)).containsExactly(0, 1);
        assertThat(p.predecessors(5)).containsExactly(2, 3);
        assertThat(p.placement(2)).containsExactly(0, 1, 0, 1, 0, 1);
        assertThat(p.placement(1)).containsExactly(0, 0, 0, 0, 0, 0);
    }

    @Test
    void writeAfterReadAndExplicitOrderAreDependencies() {
        Program add = TestPrograms.vectorAdd(64);
        L3Program.Builder l3 = L3Program.builder("war");
        HostTensor x = l3.input("x", FP32, 64, 128);
        HostTensor t = l3.scratch("t", FP32, 64, 128);
        HostTensor u = l3.output("u", FP32, 64, 128);
        HostTensor v = l3.output("v", FP32, 64, 128);
        ChipCall first = l3.call("first", add, Map.of("x", x, "y", x, "z", t));
        l3.call("read_t", add, Map.of("x", t, "y", x, "z", u));
        l3.call("overwrite_t", add, Map.of("x", x, "y", x, "z", t)); // must wait for read_t (and first)
        l3.call("unrelated", add, Map.of("x", x, "y", x, "z", v), Placement.chip(1), first);
        L3Program p = l3.build();
        assertThat(p.predecessors(1)).containsExactly(0);
        assertThat(p.predecessors(2)).containsExactly(0, 1);
        assertThat(p.predecessors(3)).containsExactly(0);
        assertThatThrownBy(() -> p.placement(1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'unrelated'").hasMessageContaining("--chips 2");
    }

    @Test
    void bindingsAreCheckedAgainstTheChipProgram() {
        Program add = TestPrograms.vectorAdd(64);
        L3Program.Builder l3 = L3Program.builder("bad");
        HostTensor x = l3.input("x", FP32, 128, 128);
        HostTensor z = l3.output("z", FP32, 64, 128);
        assertThatThrownBy(() -> l3.call("wrong_shape", add, Map.of("x", x, "y", x.rows(0, 64), "z", z)))
                .hasMessageContaining("parameter 'x'").hasMessageContaining("fp32[64, 128]")
                .hasMessageContaining("fp32[128, 128]");
        assertThatThrownBy(() -> l3.call("missing", add, Map.of("x", x.rows(0, 64), "z", z)))
                .hasMessageContaining("parameter 'y'").hasMessageContaining("not bound");
        assertThatThrownBy(() -> l3.call("writes_input", add, Map.of("x", z, "y", z, "z", x.rows(0, 64))))
                .hasMessageContaining("writes host input 'x'");
    }

    @Test
    void twoChipsGiveTheSequentialExecutorsOutputsAndEveryChipGetsTheRingHeap() {
        long heap = 3L << 20;
        RunConfig config = RunConfig.defaults().withDeviceId(4).withRingHeap(heap);
        try (Arena arena = Arena.ofShared()) {
            Map<String, Tensor> expected = args(arena);
            sequential(splitMatmul(2), expected, arena);
            Map<String, Tensor> actual = args(arena);
            L3Report report = DistributedRunner.run(splitMatmul(2), actual, config);

            assertThat(actual.get("c").toDoubleArray()).containsExactly(expected.get("c").toDoubleArray());
            double[] ref = Tensors.matmul(actual.get("a"), actual.get("b"));
            double[] got = actual.get("c").toDoubleArray();
            for (int i = 0; i < ref.length; i++) {
                assertThat(got[i]).isCloseTo(ref[i], org.assertj.core.data.Offset.offset(1e-4));
            }
            assertThat(report.devices()).extracting(L3Report.Device::deviceId).containsExactly(4, 5);
            assertThat(report.devices()).extracting(L3Report.Device::calls).containsExactly(3, 3);
            assertThat(report.calls()).hasSize(6);
            for (L3Report.Call call : report.calls()) {
                for (RunReport.Ring ring : call.report().rings()) {
                    assertThat(ring.heapBytes()).as("%s ring %d", call.label(), ring.ring()).isEqualTo(heap);
                }
            }
            // a sum starts only after both of its partials are done
            Map<String, L3Report.Call> byLabel = new HashMap<>();
            report.calls().forEach(c -> byLabel.put(c.label(), c));
            for (int r = 0; r < ROW_SHARDS; r++) {
                L3Report.Call sum = byLabel.get("sum_r" + r);
                for (int h = 0; h < K_SPLIT; h++) {
                    L3Report.Call mm = byLabel.get("mm_r" + r + "_k" + h);
                    assertThat(sum.startNanos()).isGreaterThanOrEqualTo(mm.startNanos() + mm.wallNanos());
                }
            }
            assertThat(report.lines()).hasSize(2).allMatch(l -> l.startsWith("[L3] device "));
        }
    }

    @Test
    void aFailureOnChipOneNamesDeviceOneAndKeepsTheCode() {
        // call 0 on chip 0 fits the heap; call 1 on chip 1 needs 32 × 16 KiB at once and deadlocks the heap ring
        Program small = TestPrograms.heapHog(2);
        Program hog32 = TestPrograms.heapHog(32);
        Program big = new Program("heap_hog_32", hog32.inputs(), hog32.outputs(), hog32.kernels(), hog32.body());
        L3Program.Builder l3 = L3Program.builder("fails_on_one").chips(2);
        HostTensor x1 = l3.input("x1", FP32, 128, 64);
        HostTensor y1 = l3.output("y1", FP32, 128, 64);
        HostTensor x2 = l3.input("x2", FP32, 2048, 64);
        HostTensor y2 = l3.output("y2", FP32, 2048, 64);
        l3.call("fits", small, Map.of("x", x1, "y", y1));
        ChipCall hog = l3.call("hog", big, Map.of("x", x2, "y", y2));
        l3.call("never", small, Map.of("x", y2.rows(0, 128), "y", y1), Placement.chip(0), hog);
        L3Program p = l3.build();
        RunConfig config = RunConfig.defaults().withRingHeap(64L << 10);
        try (Arena arena = Arena.ofShared()) {
            Map<String, Tensor> args = Map.of("x1", Tensor.allocate(arena, FP32, 128, 64),
                    "y1", Tensor.allocate(arena, FP32, 128, 64), "x2", Tensor.allocate(arena, FP32, 2048, 64),
                    "y2", Tensor.allocate(arena, FP32, 2048, 64));
            assertThatThrownBy(() -> DistributedRunner.run(p, args, config))
                    .isInstanceOfSatisfying(ChipRuntimeException.class, e -> {
                        assertThat(e.error()).isEqualTo(ErrorCode.HEAP_RING_DEADLOCK);
                        assertThat(e.orchErrorCode()).isEqualTo(2);
                    })
                    .hasMessageStartingWith("orch_error_code=2 HEAP_RING_DEADLOCK")
                    .hasMessageContaining("device 1").hasMessageContaining("'hog'");
        }
    }

    @Test
    void anL3WorkDirRoundTripsAndIsCheckedLikeAChipWorkDir(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("wd");
        CompiledL3Program.compile(splitMatmul(2), dir);
        assertThat(CompiledL3Program.isL3WorkDir(dir)).isTrue();
        assertThat(dir.resolve("chips/matmul/manifest.json")).exists();
        CompiledL3Program loaded = CompiledL3Program.load(dir);
        L3Program p = loaded.program();
        assertThat(p.calls()).hasSize(6);
        assertThat(p.chips()).isEqualTo(2);
        assertThat(p.predecessors(5)).containsExactly(2, 3);
        assertThat(p.calls().get(0).bindings().get("a").text()).isEqualTo("a[0:128, 0:128]");
        assertThat(p.calls().get(0).bindings().get("c").text()).isEqualTo("part[0, 0:128, 0:128]");
        try (Arena arena = Arena.ofShared()) {
            Map<String, Tensor> expected = args(arena);
            sequential(splitMatmul(2), expected, arena);
            Map<String, Tensor> actual = args(arena);
            DistributedRunner.run(loaded, actual, RunConfig.defaults(), 1);
            assertThat(actual.get("c").toDoubleArray()).containsExactly(expected.get("c").toDoubleArray());
        }
        assertThatThrownBy(() -> Runner.executeCompiled(dir, Map.of())).isInstanceOf(WorkDirException.class)
                .hasMessageContaining("is an L3 work dir");

        Path l3 = dir.resolve("l3.json");
        Files.writeString(l3, Files.readString(l3).replace("\"chips/matmul\"", "\"../matmul\""));
        assertThatThrownBy(() -> CompiledL3Program.load(dir)).isInstanceOf(WorkDirException.class)
                .hasMessageContaining("outside the work dir");
        Files.writeString(l3, Files.readString(l3).replace("\"../matmul\"", "\"chips/matmul\"")
                .replace("\"extents\" : [ 128, 128 ]", "\"extents\" : [ 128, 64 ]"));
        assertThatThrownBy(() -> CompiledL3Program.load(dir)).isInstanceOf(WorkDirException.class)
                .hasMessageContaining("l3.json").hasMessageContaining("is bound to");
    }

    @Test
    void aWorkerRunsRepeatedlyAndRefusesAConfigForOtherChips() {
        CompiledL3Program p = CompiledL3Program.compile(splitMatmul(2));
        RunConfig config = RunConfig.defaults().withDeviceId(1);
        try (DistributedWorker w = DistributedWorker.open(config, 2); Arena arena = Arena.ofShared()) {
            Map<String, Tensor> first = args(arena);
            w.run(p, first);
            Map<String, Tensor> second = args(arena);
            L3Report r = w.run(p, second, config.withRingHeap(2L << 20));
            assertThat(second.get("c").toDoubleArray()).containsExactly(first.get("c").toDoubleArray());
            assertThat(r.calls()).allSatisfy(c -> assertThat(c.report().ring(0).heapBytes()).isEqualTo(2L << 20));
            assertThatThrownBy(() -> w.run(p, args(arena), RunConfig.defaults()))
                    .hasMessageContaining("device 1").hasMessageContaining("device_id=0");
        }
    }

    @Test
    void theSimpleJobFormStillRuns() {
        try (Arena arena = Arena.ofShared()) {
            CompiledProgram add = Compiler.compileInMemory(TestPrograms.vectorAdd(64));
            Tensor x = Tensors.random(arena, 3, 64, 128);
            Tensor z0 = Tensor.allocate(arena, FP32, 64, 128);
            Tensor z1 = Tensor.allocate(arena, FP32, 64, 128);
            List<RunReport> r = DistributedRunner.run(List.of(new DistributedRunner.Job(add, Map.of("x", x, "y", x,
                    "z", z0)), new DistributedRunner.Job(add, Map.of("x", x, "y", x, "z", z1))), RunConfig.defaults());
            assertThat(r).hasSize(2);
            assertThat(z1.toDoubleArray()).containsExactly(z0.toDoubleArray());
            assertThat(z0.getDouble(5)).isEqualTo(2 * x.getDouble(5));
        }
    }
}
