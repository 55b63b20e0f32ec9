package dev.jpto.lib.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.compiler.l3.L3Report;
import dev.jpto.compiler.plan.RingNeed;
import dev.jpto.compiler.plan.RingPlan;
import dev.jpto.compiler.plan.RingPlanner;
import dev.jpto.compiler.run.AutoRings;
import dev.jpto.compiler.run.CallConfigs;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.lib.Programs;
import dev.jpto.lib.runner.GoldenRunner;
import dev.jpto.lib.runner.RunResult;
import dev.jpto.lib.runner.RunSpec;
import dev.jpto.runtime.RunReport;
import dev.jpto.runtime.RuntimeEnv;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The static ring plan against the chip, for every registered program at its tiny presets: run with exactly
 * the recommended runtime_cfg, the program passes, and per ring the measured high-water marks lie between the
 * plan's live set and what the plan says is needed (the heap's need may exceed the live set by the space a
 * wrap can waste), with the live heap at least 1/1.25 of what was measured; live tasks may run ahead into the
 * slack of the power-of-two window.
 */
class RegistryPlanTest {
    static Stream<Arguments> tinyPresets() {
        return Programs.registry().all().stream().flatMap(p -> p.presets().stream()
                .filter(n -> n.startsWith("tiny")).map(n -> Arguments.of(p.name(), n)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("tinyPresets")
    void theRecommendedSizesRunAndBoundTheHighWaterMarks(String name, String preset) {
        ProgramSpec spec = Programs.registry().get(name).spec(preset);
        if (spec.l3().isPresent()) {
            l3(spec);
            return;
        }
        RingPlan plan = RingPlanner.plan(spec.program());
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        RunResult r = GoldenRunner.runJit(spec, RunSpec.defaults(new PrintStream(buf, true, StandardCharsets.UTF_8)),
                plan.runtimeCfg());
        assertThat(r.passed()).as(buf.toString(StandardCharsets.UTF_8)).isTrue();
        for (RunReport.Ring measured : r.report().rings()) {
            RingNeed need = plan.ring(measured.ring());
            String where = name + " " + preset + " ring " + measured.ring() + " " + plan.table();
            assertThat(measured.heapBytes()).as(where).isEqualTo(need.recommendedHeap());
            assertThat(measured.heapMax()).as(where + " heap").isBetween(need.liveHeapBytes(), need.heapBytes());
            assertThat(need.liveHeapBytes() * 1.25).as(where + " heap").isGreaterThanOrEqualTo(measured.heapMax());
            // The window is rounded up to a power of two, and the orchestrator may run ahead into that slack.
            assertThat(measured.taskWindowMax()).as(where + " tasks")
                    .isBetween(need.liveTasks(), need.recommendedTaskWindow() - 1);
        }
    }

    /**
     * An L3 program runs every chip call with one ring configuration: per ring the largest recommendation over its
     * chip programs' plans. Each call's high-water marks lie within its own chip program's plan.
     */
    private static void l3(ProgramSpec spec) {
        Map<String, RingPlan> plans = new LinkedHashMap<>();
        spec.chipPrograms().forEach(p -> plans.put(p.name(), RingPlanner.plan(p)));
        RunConfig merged = AutoRings.resolve(RunConfig.fromMap(Map.of("ring_task_window", "auto", "ring_heap", "auto",
                "ring_dep_pool", "auto")), plans.values().toArray(RingPlan[]::new));
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        RunResult r = GoldenRunner.runJit(spec, RunSpec.defaults(new PrintStream(buf, true, StandardCharsets.UTF_8)),
                merged.asMap());
        assertThat(r.passed()).as(buf.toString(StandardCharsets.UTF_8)).isTrue();
        L3Report l3 = r.l3().orElseThrow();
        RuntimeEnv env = CallConfigs.from(merged).runtimeEnv();
        for (L3Report.Call call : l3.calls()) {
            RingPlan plan = plans.get(call.chipProgram());
            for (RunReport.Ring measured : call.report().rings()) {
                RingNeed need = plan.ring(measured.ring());
                String where = spec.programName() + " call " + call.label() + " ring " + measured.ring() + " "
                        + plan.table();
                assertThat(measured.heapBytes()).as(where).isEqualTo(env.ringHeap()[measured.ring()]);
                assertThat(measured.heapMax()).as(where + " heap").isBetween(need.liveHeapBytes(), need.heapBytes());
                assertThat(measured.taskWindowMax()).as(where + " tasks")
                        .isBetween(need.liveTasks(), measured.taskWindow() - 1);
            }
        }
    }
}
