package dev.jpto.compiler.launch;

import static dev.jpto.isa.DType.FP32;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jpto.compiler.CompiledProgram;
import dev.jpto.compiler.Compiler;
import dev.jpto.compiler.Tensors;
import dev.jpto.compiler.TestPrograms;
import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.compiler.plan.PlanPrograms;
import dev.jpto.compiler.plan.RingPlan;
import dev.jpto.compiler.plan.RingPlanner;
import dev.jpto.compiler.run.CallConfigs;
import dev.jpto.compiler.run.RingSize;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.ErrorCode;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.RunReport;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract every run surface meets ({@link RunSurface}: run, exec of a work dir, chip worker, benchmark, dry
 * run, dependency capture, distributed jobs, L3 on one chip and on two): the one RunConfig reaches every chip as
 * its CallConfig — explicit ring sizes, runtime defaults, {@code auto} — and the seeds' ring table holds on each:
 * ring_heap 256 MiB fails with HEAP_RING_DEADLOCK (code 2) on ring 1, 512 MiB and 1 GiB pass, on both simulated
 * platforms.
 */
@Timeout(180)
class RunSurfaceContractTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long MIB = 1L << 20;

    @TempDir
    Path tmp;

    /**
     * The seeds' program, scaled to a test: like the DeepSeek-V4 prefill attention kernels, ring 1 must hold more
     * than the runtime's 256 MiB default heap and less than 512 MiB: 68 intermediates of 1024 × 1024 fp32 (4 MiB
     * each, 272 MiB) live at once in one depth-1 scope; y = x, block by block, through them.
     */
    static Program seedProgram() {
        return PlanPrograms.heapHogAt(1, 68, 1024);
    }

    static Stream<Arguments> seedTable() {
        List<Arguments> rows = new ArrayList<>();
        for (RunSurface s : RunSurface.values()) {
            for (Platform platform : List.of(Platform.A2A3SIM, Platform.A5SIM)) {
                for (long heapMib : new long[] {256, 512, 1024}) {
                    rows.add(Arguments.of(s, platform, heapMib));
                }
            }
        }
        return rows.stream();
    }

    private static Map<String, Tensor> args(Arena arena, Program p) {
        Map<String, Tensor> m = new HashMap<>();
        long seed = 1;
        for (TensorDecl d : p.inputs()) {
            m.put(d.name(), Tensors.random(arena, seed++, d.shape()[0], d.shape()[1]));
        }
        for (TensorDecl d : p.outputs()) {
            m.put(d.name(), Tensor.allocate(arena, d.dtype(), d.shape()));
        }
        return m;
    }

    @ParameterizedTest(name = "{0} {1} ring_heap={2}MiB")
    @MethodSource("seedTable")
    void theSeedsRingTableHoldsOnEverySurface(RunSurface surface, Platform platform, long heapMib) {
        Program seed = seedProgram();
        RunConfig c = RunConfig.defaults().withPlatform(platform).withRingHeap(RingSize.of(heapMib * MIB));
        try (Arena arena = Arena.ofShared()) {
            Map<String, Tensor> a = args(arena, seed);
            if (heapMib == 256) {
                assertThatThrownBy(() -> surface.run(seed, a, c, tmp))
                        .isInstanceOfSatisfying(ChipRuntimeException.class, e -> {
                            assertThat(e.error()).isEqualTo(ErrorCode.HEAP_RING_DEADLOCK);
                            assertThat(e.orchErrorCode()).isEqualTo(2);
                            assertThat(e.getMessage()).contains("HEAP_RING_DEADLOCK", "ring_heap for ring 1",
                                    "the static ring plan of 'heap_hog_d1' needs ring_heap 272MiB on ring 1");
                        });
                return;
            }
            List<RunReport> reports = surface.run(seed, a, c, tmp);
            assertThat(reports).isNotEmpty();
            for (RunReport r : reports) {
                assertThat(r.platform()).isEqualTo(platform);
                for (int ring = 0; ring < 4; ring++) {
                    assertThat(r.ring(ring).heapBytes()).as("ring %d heap", ring).isEqualTo(heapMib * MIB);
                }
                assertThat(r.ring(1).heapMax()).as("ring 1 holds every intermediate")
                        .isGreaterThan(256 * MIB).isLessThanOrEqualTo(512 * MIB);
            }
            if (surface.computes()) {
                assertEqualElements(a.get("y"), a.get("x"));
            }
        }
    }

    /** y == x element by element; the first difference is named (a full diff of 10^5 elements is quadratic). */
    private static void assertEqualElements(Tensor y, Tensor x) {
        double[] got = y.toDoubleArray();
        double[] want = x.toDoubleArray();
        int at = Arrays.mismatch(got, want);
        assertThat(at).as("first element where y differs from x: %s", at < 0 ? "none"
                : "y[" + at + "]=" + got[at] + " x[" + at + "]=" + want[at]).isEqualTo(-1);
    }

    /** The deadlock's advice is a working runtime_cfg, on every surface. */
    @ParameterizedTest
    @EnumSource(RunSurface.class)
    void theDeadlockAdviceIsAWorkingConfig(RunSurface surface) {
        Program hog = TestPrograms.heapHog(8);
        try (Arena arena = Arena.ofShared()) {
            RunConfig tooSmall = RunConfig.fromMap(Map.of("ring_heap", "64KiB"));
            String message = catchThrowable(() -> surface.run(hog, args(arena, hog), tooSmall, tmp)).getMessage();
            assertThat(message).startsWith("orch_error_code=2 HEAP_RING_DEADLOCK - ")
                    .contains("the static ring plan of 'heap_hog' needs ring_heap 1MiB on ring 0 (in force 64KiB);")
                    .endsWith("[runtime_status=-2]");
            Matcher advice = Pattern.compile("use runtime_cfg (ring_heap)=(\\S+)").matcher(message);
            assertThat(advice.find()).as(message).isTrue();
            Map<String, Tensor> advised = args(arena, hog);
            surface.run(hog, advised, RunConfig.fromMap(Map.of(advice.group(1), advice.group(2))), tmp);
            if (surface.computes()) {
                assertEqualElements(advised.get("y"), advised.get("x"));
            }
        }
    }

    /** Explicit per-ring sizes, a small task window among them, reach every chip's rings unchanged. */
    @ParameterizedTest
    @EnumSource(RunSurface.class)
    void explicitRingSizesAndASmallTaskWindowReachEveryChip(RunSurface surface) throws IOException {
        RunConfig c = RunConfig.fromMap(Map.of("ring_heap", "1MiB,2MiB,3MiB,5MiB",
                "ring_task_window", "16,128,256,512", "ring_dep_pool", "100,200,300,400"));
        assertCapacities(surface, c, new long[] {16, 128, 256, 512},
                new long[] {1L << 20, 2L << 20, 3L << 20, 5L << 20}, new long[] {100, 200, 300, 400});
    }

    @ParameterizedTest
    @EnumSource(RunSurface.class)
    void absentRingFieldsLeaveTheRuntimeDefaults(RunSurface surface) throws IOException {
        long d = 256L << 20;
        assertCapacities(surface, RunConfig.defaults(), new long[] {16384, 16384, 16384, 16384},
                new long[] {d, d, d, d}, new long[] {16384, 16384, 16384, 16384});
    }

    /** The capacities in each chip's report and in the scope statistics the chip wrote (its own record). */
    private void assertCapacities(RunSurface surface, RunConfig sizing, long[] window, long[] heap, long[] deps)
            throws IOException {
        RunConfig c = sizing.withEnableScopeStats(true).withOutputPrefix(tmp.resolve("dfx-" + surface).toString());
        Program p = TestPrograms.vectorAdd(128);
        try (Arena arena = Arena.ofShared()) {
            List<RunReport> reports = surface.run(p, args(arena, p), c, tmp);
            assertThat(reports).isNotEmpty();
            for (RunReport report : reports) {
                for (int r = 0; r < 4; r++) {
                    assertThat(new long[] {report.ring(r).taskWindow(), report.ring(r).heapBytes(),
                            report.ring(r).depPool()}).as("%s ring %d", surface, r)
                            .containsExactly(window[r], heap[r], deps[r]);
                }
                Path stats = report.scopeStatsFile().orElseThrow();
                JsonNode header = JSON.readTree(Files.readAllLines(stats).getFirst());
                assertThat(longs(header.get("task_window"))).as(stats.toString()).containsExactly(window);
                assertThat(longs(header.get("heap"))).as(stats.toString()).containsExactly(heap);
                assertThat(longs(header.get("dep_pool"))).as(stats.toString()).containsExactly(deps);
            }
        }
    }

    private static long[] longs(JsonNode array) {
        long[] out = new long[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = array.get(i).asLong();
        }
        return out;
    }

    /** {@code ring_*=auto} is the plan's recommendation on every chip of every surface. */
    @ParameterizedTest
    @EnumSource(RunSurface.class)
    void autoIsThePlanOnEverySurface(RunSurface surface) {
        Program p = PlanPrograms.accumulate(2, 5);
        RingPlan plan = RingPlanner.plan(p);
        RunConfig auto = RunConfig.fromMap(Map.of("ring_heap", "auto", "ring_task_window", "auto", "ring_dep_pool",
                "auto"));
        try (Arena arena = Arena.ofShared()) {
            Tensor x = Tensors.random(arena, 3, p.inputs().getFirst().shape()[0], 64);
            double[] want = PlanPrograms.reference(p, x.toDoubleArray());
            Tensor y = Tensor.allocate(arena, FP32, p.outputs().getFirst().shape());
            for (RunReport r : surface.run(p, Map.of("x", x, "y", y), auto, tmp)) {
                for (int ring = 0; ring < 4; ring++) {
                    assertThat(new long[] {r.ring(ring).taskWindow(), r.ring(ring).heapBytes(),
                            r.ring(ring).depPool()}).as("%s ring %d", surface, ring)
                            .containsExactly(plan.ring(ring).recommendedTaskWindow(),
                                    plan.ring(ring).recommendedHeap(), plan.ring(ring).recommendedDepPool());
                }
                assertThat(r.ring(1).taskWindow()).isEqualTo(8);
                assertThat(r.ring(1).depPool()).isEqualTo(16);
            }
            if (surface.computes()) {
                assertThat(y.toDoubleArray()).isEqualTo(want);
            }
        }
    }

    /** The capture run's CallConfig differs from the plain run's only in enable_dep_gen (and a default prefix). */
    @Test
    void dependencyCaptureKeepsTheRingFields() {
        RunConfig c = RunConfig.fromMap(Map.of("ring_heap", "1MiB,2MiB,3MiB,5MiB", "ring_task_window", "64",
                "ring_dep_pool", "0,0,0,4096"));
        Path wd = tmp.resolve("cap");
        CompiledProgram p = Compiler.compile(TestPrograms.vectorAdd(128), wd);
        RunConfig capture = DependencyCapture.captureConfig(p, c);
        assertThat(capture.enableDepGen()).isTrue();
        assertThat(capture.outputPrefix()).isEqualTo(wd.toAbsolutePath().normalize().resolve("dfx_outputs").toString());
        assertThat(CallConfigs.from(capture).runtimeEnv()).isEqualTo(CallConfigs.from(c).runtimeEnv());
        assertThat(capture.withEnableDepGen(false).withOutputPrefix("")).isEqualTo(c);
        assertThatThrownBy(() -> DependencyCapture.captureConfig(Compiler.compileInMemory(TestPrograms.vectorAdd(128)),
                c)).hasMessageContaining("dependency capture needs output_prefix");
    }

    @Test
    void aChipWorkerRefusesAConfigForAnotherChip() {
        try (ChipWorker w = ChipWorker.open(RunConfig.defaults()); Arena arena = Arena.ofShared()) {
            Program p = TestPrograms.vectorAdd(128);
            assertThatThrownBy(() -> w.run(Compiler.compileInMemory(p), args(arena, p),
                    RunConfig.defaults().withRingHeap(RingSize.of(1 << 20)).withDeviceId(1)))
                    .hasMessageContaining("this worker holds chip a2a3sim device 0 but the run config asks for "
                            + "platform=a2a3sim device_id=1");
        }
    }

    @Test
    void aChipWorkerRunsWithTheConfigItWasOpenedWith() {
        RunConfig opened = RunConfig.fromMap(Map.of("ring_heap", "2MiB", "os_env",
                "SIMPLER_SCHEDULER_TIMEOUT_MS=20000"));
        Program p = TestPrograms.vectorAdd(128);
        try (ChipWorker w = ChipWorker.open(opened); Arena arena = Arena.ofShared()) {
            RunReport rep = w.run(Compiler.compileInMemory(p), args(arena, p));
            assertThat(rep.ring(0).heapBytes()).isEqualTo(2L << 20);
            assertThatThrownBy(() -> w.run(Compiler.compileInMemory(p), args(arena, p), RunConfig.defaults()))
                    .hasMessageContaining("this worker's chip was opened with options");
        }
    }
}
