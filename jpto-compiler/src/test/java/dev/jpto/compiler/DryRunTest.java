package dev.jpto.compiler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.launch.DryRun;
import dev.jpto.compiler.launch.Runner;
import dev.jpto.compiler.plan.PlanPrograms;
import dev.jpto.compiler.plan.RingNeed;
import dev.jpto.compiler.plan.RingPlan;
import dev.jpto.compiler.plan.RingPlanner;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.ErrorCode;
import dev.jpto.runtime.RingField;
import dev.jpto.runtime.RunReport;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link DryRun} against a real run of the same program with the same (planned) ring sizes: the same tasks, the
 * same heap high-water mark per ring (it is fixed by what open scopes pin, not by kernel speed), a task high-water
 * mark between the planned live set and the window; kernel bodies really skipped (no work in the PMU counters);
 * ring deadlocks exactly as in a real run. Dep-pool high-water marks are not compared: they count edges to
 * producers that had not completed when the edge was wired, so they depend on kernel speed (a dry run's are
 * lower: 2347–4515 against 5146–5518 for dsv4 HCA tiny ring 1).
 */
class DryRunTest {
    static Stream<Program> programs() {
        return Stream.of(TestPrograms.heapHog(8), TestPrograms.matmul(128, 192, 128), PlanPrograms.scopedChain(6),
                PlanPrograms.mixedSizes(3), PlanPrograms.accumulate(3, 5), PlanPrograms.nested(3),
                PlanPrograms.heapHogAt(2, 6));
    }

    private static RunReport realRun(Program p, RunConfig config) {
        try (Arena arena = Arena.ofShared()) {
            Map<String, Tensor> args = new HashMap<>();
            long seed = 3;
            for (var d : p.inputs()) {
                args.put(d.name(), Tensors.random(arena, seed++, d.shape()[0], d.shape()[1]));
            }
            for (var d : p.outputs()) {
                args.put(d.name(), Tensor.allocate(arena, DType.FP32, d.shape()));
            }
            return Runner.run(Compiler.compileInMemory(p), args, config);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("programs")
    void highWaterMarksMatchARealRunWithThePlannedSizes(Program p) {
        RingPlan plan = RingPlanner.plan(p);
        RunConfig config = RunConfig.fromMap(plan.runtimeCfg());
        RunReport real = realRun(p, config);
        RunReport dry = DryRun.run(Compiler.compileInMemory(p), config);
        assertThat(dry.tasksExecuted()).as("%s tasks", p.name()).isEqualTo(real.tasksExecuted());
        for (int r = 0; r < RingField.RINGS; r++) {
            RingNeed n = plan.ring(r);
            RunReport.Ring d = dry.ring(r);
            assertThat(d.heapBytes()).isEqualTo(real.ring(r).heapBytes());
            assertThat(d.heapMax()).as("%s ring %d heap_max", p.name(), r).isEqualTo(real.ring(r).heapMax());
            assertThat(d.taskWindowMax()).as("%s ring %d task_window_max", p.name(), r)
                    .isBetween(n.liveTasks(), n.recommendedTaskWindow() - 1);
        }
    }

    @Test
    void kernelBodiesAreSkipped(@TempDir Path dir) throws IOException {
        Program p = TestPrograms.matmul(128, 192, 128);
        RunConfig pmu = RunConfig.defaults().withEnablePmu(1);
        List<String> real = pmuRows(realRun(p, pmu.withOutputPrefix(dir.resolve("real").toString())));
        List<String> dry = pmuRows(DryRun.run(Compiler.compileInMemory(p),
                pmu.withOutputPrefix(dir.resolve("dry").toString())));
        assertThat(dry).hasSameSizeAs(real).isNotEmpty();
        // bytes_read, bytes_written, flops: the tile executor's counts in a real run, nothing in a dry run
        assertThat(real).anySatisfy(row -> assertThat(work(row)).isNotEqualTo("0,0,0"));
        assertThat(dry).allSatisfy(row -> assertThat(work(row)).isEqualTo("0,0,0"));
    }

    private static List<String> pmuRows(RunReport report) throws IOException {
        Path csv = report.dfxFiles().stream().filter(f -> f.getFileName().toString().equals("pmu.csv")).findFirst()
                .orElseThrow();
        List<String> lines = Files.readAllLines(csv);
        assertThat(lines.getFirst()).endsWith("bytes_read,bytes_written,flops,event_type");
        return lines.subList(1, lines.size());
    }

    private static String work(String row) {
        String[] f = row.split(",");
        return f[8] + "," + f[9] + "," + f[10];
    }

    @Test
    void anArgumentDumpIsRefusedBeforeAnythingRuns() {
        CompiledProgram p = Compiler.compileInMemory(TestPrograms.heapHog(2));
        assertThatThrownBy(() -> DryRun.run(p, RunConfig.defaults().withEnableDumpArgs(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("enable_dump_args=1 is not allowed");
    }

    @Test
    void aHeapBelowThePlanDeadlocksAsInARealRun() {
        Program p = PlanPrograms.heapHogAt(1, 6);
        RingPlan plan = RingPlanner.plan(p);
        long half = plan.ring(1).heapBytes() / 2;
        RunConfig small = RunConfig.fromMap(plan.runtimeCfg()).withRingHeap(plan.ring(0).recommendedHeap(), half,
                plan.ring(2).recommendedHeap(), plan.ring(3).recommendedHeap());
        ChipRuntimeException dry = catchThrowableOfType(ChipRuntimeException.class,
                () -> DryRun.run(Compiler.compileInMemory(p), small));
        ChipRuntimeException real = catchThrowableOfType(ChipRuntimeException.class, () -> realRun(p, small));
        assertThat(dry.error()).isEqualTo(ErrorCode.HEAP_RING_DEADLOCK).isEqualTo(real.error());
        assertThat(dry.getMessage()).contains("heap bytes on ring 1", "(scope-gated)",
                "the static ring plan of 'heap_hog_d1'");
    }
}
