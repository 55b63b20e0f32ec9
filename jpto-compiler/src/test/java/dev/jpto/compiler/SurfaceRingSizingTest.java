package dev.jpto.compiler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.launch.Benchmark;
import dev.jpto.compiler.run.BenchmarkResult;
import dev.jpto.compiler.launch.ChipWorker;
import dev.jpto.compiler.launch.DependencyCapture;
import dev.jpto.compiler.launch.DistributedRunner;
import dev.jpto.compiler.launch.Runner;
import dev.jpto.compiler.run.CallConfigs;
import dev.jpto.compiler.run.RingSize;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.ErrorCode;
import dev.jpto.runtime.RunReport;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Seed 000, as a contract every dispatch surface must meet: the ring sizes of the RunConfig are the ring sizes
 * on the chip, and a program that needs more heap than configured fails with HEAP_RING_DEADLOCK and passes
 * once the ring is large enough.
 */
@Timeout(120)
class SurfaceRingSizingTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The L2 dispatch surfaces, each used the way a caller would. */
    enum Surface {
        COMPILED_RUN {
            @Override
            RunReport run(Program p, Map<String, Tensor> args, RunConfig c, Path tmp) {
                return Runner.run(Compiler.compileInMemory(p), args, c);
            }
        },
        EXECUTE_COMPILED {
            @Override
            RunReport run(Program p, Map<String, Tensor> args, RunConfig c, Path tmp) {
                Path wd = tmp.resolve("wd-" + p.name());
                Compiler.compile(p, wd);
                return Runner.executeCompiled(wd, args, c);
            }
        },
        CHIP_WORKER {
            @Override
            RunReport run(Program p, Map<String, Tensor> args, RunConfig c, Path tmp) {
                try (ChipWorker w = ChipWorker.open(c)) {
                    return w.run(Compiler.compileInMemory(p), args, c);
                }
            }
        },
        BENCHMARK {
            @Override
            RunReport run(Program p, Map<String, Tensor> args, RunConfig c, Path tmp) {
                BenchmarkResult r = Benchmark.run(Compiler.compileInMemory(p), args, c, 2);
                assertThat(r.rounds()).isEqualTo(2);
                assertThat(r.minUs()).isPositive().isLessThanOrEqualTo(r.medianUs());
                assertThat(r.maxUs()).isGreaterThanOrEqualTo(r.meanUs());
                return r.last();
            }
        },

        /** enable_dep_gen on (DependencyCapture); the graph must be written next to the other DFX output. */
        DEPENDENCY_CAPTURE {
            @Override
            RunReport run(Program p, Map<String, Tensor> args, RunConfig c, Path tmp) {
                Path wd = tmp.resolve("cap-" + p.name());
                CompiledProgram compiled = Compiler.compile(p, wd);
                RunReport r = DependencyCapture.capture(compiled, args, c);
                RunConfig used = DependencyCapture.captureConfig(compiled, c);
                Path deps = Path.of(used.outputPrefix()).resolve("deps.json");
                assertThat(r.dfxFiles()).contains(deps);
                try {
                    JsonNode graph = JSON.readTree(deps.toFile());
                    assertThat(graph.get("tasks").size()).isEqualTo((int) r.tasksExecuted());
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                return r;
            }
        },

        DISTRIBUTED {
            /** Two chips: the caller's tensors on the first, a copy on the second; both must agree. */
            @Override
            RunReport run(Program p, Map<String, Tensor> args, RunConfig c, Path tmp) {
                CompiledProgram compiled = Compiler.compileInMemory(p);
                try (Arena arena = Arena.ofShared()) {
                    Map<String, Tensor> copy = new HashMap<>();
                    for (Map.Entry<String, Tensor> e : args.entrySet()) {
                        Tensor t = Tensor.allocate(arena, e.getValue().dtype(), e.getValue().shape());
                        t.copyFrom(e.getValue());
                        copy.put(e.getKey(), t);
                    }
                    List<RunReport> reports = DistributedRunner.run(List.of(new DistributedRunner.Job(compiled, args),
                            new DistributedRunner.Job(compiled, copy)), c);
                    assertThat(reports).hasSize(2);
                    for (int r = 0; r < 4; r++) {
                        assertThat(reports.get(1).ring(r).heapBytes()).isEqualTo(reports.get(0).ring(r).heapBytes());
                        assertThat(reports.get(1).ring(r).taskWindow()).isEqualTo(reports.get(0).ring(r).taskWindow());
                        assertThat(reports.get(1).ring(r).depPool()).isEqualTo(reports.get(0).ring(r).depPool());
                    }
                    for (var out : p.outputs()) {
                        assertThat(copy.get(out.name()).toDoubleArray())
                                .containsExactly(args.get(out.name()).toDoubleArray());
                    }
                    return reports.get(0);
                }
            }
        };

        abstract RunReport run(Program p, Map<String, Tensor> args, RunConfig c, Path tmp);
    }

    @TempDir
    Path tmp;

    private static Map<String, Tensor> args(Arena arena, Program p) {
        Map<String, Tensor> m = new HashMap<>();
        long seed = 1;
        for (var d : p.inputs()) {
            m.put(d.name(), Tensors.random(arena, seed++, d.shape()[0], d.shape()[1]));
        }
        for (var d : p.outputs()) {
            m.put(d.name(), Tensor.allocate(arena, DType.FP32, d.shape()));
        }
        return m;
    }

    private static JsonNode scopeStatsHeader(RunReport report, Path prefix) throws IOException {
        Path file = prefix.resolve("scope_stats/scope_stats.jsonl");
        assertThat(report.scopeStatsFile()).contains(file);
        return JSON.readTree(Files.readAllLines(file).getFirst());
    }

    private static long[] longs(JsonNode array) {
        long[] out = new long[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = array.get(i).asLong();
        }
        return out;
    }

    private void assertCapacities(Surface surface, RunConfig sizing, long[] window, long[] heap, long[] deps)
            throws IOException {
        Path prefix = tmp.resolve("dfx-" + surface);
        RunConfig c = sizing.withEnableScopeStats(true).withOutputPrefix(prefix.toString());
        Program p = TestPrograms.vectorAdd(128);
        try (Arena arena = Arena.ofShared()) {
            RunReport report = surface.run(p, args(arena, p), c, tmp);
            JsonNode header = scopeStatsHeader(report, prefix);
            assertThat(longs(header.get("task_window"))).containsExactly(window);
            assertThat(longs(header.get("heap"))).containsExactly(heap);
            assertThat(longs(header.get("dep_pool"))).containsExactly(deps);
            for (int r = 0; r < 4; r++) {
                assertThat(report.ring(r).taskWindow()).isEqualTo(window[r]);
                assertThat(report.ring(r).heapBytes()).isEqualTo(heap[r]);
                assertThat(report.ring(r).depPool()).isEqualTo(deps[r]);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Surface.class)
    void scalarRingSizesReachTheChip(Surface surface) throws IOException {
        RunConfig c = RunConfig.fromMap(Map.of("ring_heap", "3MiB", "ring_task_window", "256", "ring_dep_pool", "512"));
        long mib3 = 3L << 20;
        assertCapacities(surface, c, new long[] {256, 256, 256, 256}, new long[] {mib3, mib3, mib3, mib3},
                new long[] {512, 512, 512, 512});
    }

    @ParameterizedTest
    @EnumSource(Surface.class)
    void fourDistinctRingSizesReachTheChip(Surface surface) throws IOException {
        RunConfig c = RunConfig.fromMap(Map.of("ring_heap", "1MiB,2MiB,3MiB,5MiB",
                "ring_task_window", "64,128,256,512", "ring_dep_pool", "100,200,300,400"));
        assertCapacities(surface, c, new long[] {64, 128, 256, 512},
                new long[] {1L << 20, 2L << 20, 3L << 20, 5L << 20}, new long[] {100, 200, 300, 400});
    }

    @ParameterizedTest
    @EnumSource(Surface.class)
    void absentRingFieldsLeaveTheRuntimeDefaults(Surface surface) throws IOException {
        long d = 256L << 20;
        assertCapacities(surface, RunConfig.defaults(), new long[] {16384, 16384, 16384, 16384},
                new long[] {d, d, d, d}, new long[] {16384, 16384, 16384, 16384});
    }

    @ParameterizedTest
    @EnumSource(Surface.class)
    void aProgramNeedingMoreHeapThanConfiguredDeadlocksAndPassesWithALargerRing(Surface surface) {
        Program hog = TestPrograms.heapHog(8);
        try (Arena arena = Arena.ofShared()) {
            Map<String, Tensor> small = args(arena, hog);
            RunConfig tooSmall = RunConfig.fromMap(Map.of("ring_heap", "64KiB"));
            assertThatThrownBy(() -> surface.run(hog, small, tooSmall, tmp))
                    .isInstanceOfSatisfying(ChipRuntimeException.class, e -> {
                        assertThat(e.error()).isEqualTo(ErrorCode.HEAP_RING_DEADLOCK);
                        assertThat(e.orchErrorCode()).isEqualTo(2);
                        assertThat(e.getMessage()).startsWith("orch_error_code=2 HEAP_RING_DEADLOCK - ")
                                .contains("set ring_heap for ring 0 to at least 1MiB (runtime_cfg "
                                        + "ring_heap=1MiB,64KiB,64KiB,64KiB); the static ring plan of 'heap_hog' needs ring_heap 1MiB on ring 0 (in force "
                                        + "64KiB); use runtime_cfg ring_heap=1MiB (or ring_heap=auto)")
                                .endsWith("[runtime_status=-2]");
                    });

            // The advice in the message is a working runtime_cfg.
            String message = org.assertj.core.api.Assertions.catchThrowable(
                    () -> surface.run(hog, args(arena, hog), tooSmall, tmp)).getMessage();
            java.util.regex.Matcher advice = java.util.regex.Pattern.compile("use runtime_cfg (ring_heap)=(\\S+)")
                    .matcher(message);
            assertThat(advice.find()).as(message).isTrue();
            Map<String, Tensor> advised = args(arena, hog);
            surface.run(hog, advised, RunConfig.fromMap(Map.of(advice.group(1), advice.group(2))), tmp);
            assertThat(advised.get("y").toDoubleArray()).containsExactly(advised.get("x").toDoubleArray());

            Map<String, Tensor> big = args(arena, hog);
            RunReport ok = surface.run(hog, big, RunConfig.fromMap(Map.of("ring_heap", "1MiB")), tmp);
            assertThat(ok.ring(0).heapBytes()).isEqualTo(1L << 20);
            assertThat(ok.ring(0).heapMax()).as("all eight 16 KiB intermediates live at once")
                    .isGreaterThanOrEqualTo(8 * 16384);
            assertThat(big.get("y").toDoubleArray()).containsExactly(big.get("x").toDoubleArray());
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
    void aChipWorkerRunsWithTheConfigItWasOpenedWith() throws IOException {
        Path prefix = tmp.resolve("worker-dfx");
        RunConfig opened = RunConfig.fromMap(Map.of("ring_heap", "2MiB", "enable_scope_stats", "true",
                "output_prefix", prefix.toString(), "os_env", "SIMPLER_SCHEDULER_TIMEOUT_MS=20000"));
        Program p = TestPrograms.vectorAdd(128);
        try (ChipWorker w = ChipWorker.open(opened); Arena arena = Arena.ofShared()) {
            RunReport rep = w.run(Compiler.compileInMemory(p), args(arena, p));
            assertThat(longs(scopeStatsHeader(rep, prefix).get("heap"))).containsOnly(2L << 20);
            assertThatThrownBy(() -> w.run(Compiler.compileInMemory(p), args(arena, p), RunConfig.defaults()))
                    .hasMessageContaining("this worker's chip was opened with options");
        }
    }
}
