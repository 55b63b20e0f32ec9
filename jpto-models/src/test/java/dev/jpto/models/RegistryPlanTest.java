package dev.jpto.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.jpto.compiler.Compiler;
import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.l3.L3Report;
import dev.jpto.compiler.launch.DryRun;
import dev.jpto.compiler.plan.RingNeed;
import dev.jpto.compiler.plan.RingPlan;
import dev.jpto.compiler.plan.RingPlanner;
import dev.jpto.compiler.run.AutoRings;
import dev.jpto.compiler.run.CallConfigs;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.lib.registry.ProgramDef;
import dev.jpto.lib.registry.ProgramSpec;
import dev.jpto.lib.registry.Programs;
import dev.jpto.lib.runner.GoldenRunner;
import dev.jpto.lib.runner.RunResult;
import dev.jpto.lib.runner.RunSpec;
import dev.jpto.lib.runner.RuntimeCfg;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.ErrorCode;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.RingField;
import dev.jpto.runtime.RunReport;
import dev.jpto.runtime.RuntimeEnv;
import dev.jpto.runtime.Sizes;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 8's acceptance: the static ring plan against the chip's measured high-water marks, for every registered
 * program at every preset. Each case runs with exactly the plan's recommended runtime_cfg as a {@link DryRun} (the
 * real runtime with empty kernel bodies: real submits, heap reservations, dependency tracking, scheduling and
 * reclamation, no tile math), which takes well under a second even at dsv4 pro, so the whole registry fits in
 * the suite. The tiny presets also run for real (golden-checked), and their heap high-water marks are those of
 * the dry run.
 *
 * <p>Bounds per ring, with the run passing (no ring deadlock or dep-pool overflow at the recommended sizes):
 * <ul>
 * <li>Heap: the rule as stated. The plan's heap need (heap_needed, wrap loss included) is at least the
 * measured heap_max and at most 1.25× it (a ring that reserves nothing must be planned at 0). The recommended
 * ring_heap is that need rounded up to a MiB (at least 1 MiB): the rounding, not the plan, is what can exceed
 * 1.25× on a small ring. The planned live set (heap_live) is at most heap_max: those bytes are pinned in every
 * run.</li>
 * <li>Tasks: relaxed to live ≤ task_window_max ≤ window − 1. The planned live set is pinned in every run, but
 * the orchestrator may run ahead of the cores into the slack of the power-of-two window (e.g. dsv4 SWA demo
 * ring 2: 128 live, 255 measured), so the measured mark can exceed the plan's live count; it can never exceed
 * the window minus the slot the ring keeps free.</li>
 * <li>Dep pool: not compared with the plan's number, which is an upper bound for the blocked state only: it counts
 * every edge, while the runtime takes an entry only for an edge whose producer has not completed when it is
 * wired, which depends on kernel speed (dsv4 pro ring 2: plan 26208, dry run ~1900, real run 20704); run-ahead
 * can also take more entries than the pinned set needs. The passing run is the check of the recommended
 * pool.</li>
 * </ul>
 */
class RegistryPlanTest {
    private static final long MIB_256 = 256L << 20;

    static Stream<Arguments> everyPreset() {
        return Programs.registry().all().stream().flatMap(p -> p.presets().stream().map(n -> Arguments.of(p.name(), n)));
    }

    static Stream<Arguments> tinyPresets() {
        return everyPreset().filter(a -> ((String) a.get()[1]).startsWith("tiny"));
    }

    /** The DSv4 Pro prefill attention programs (the seeds' programs), whichever the registry holds. */
    static Stream<String> proPrograms() {
        return Programs.registry().all().stream().map(ProgramDef::name)
                .filter(n -> n.startsWith("dsv4.prefill_attention_"));
    }

    private static RunConfig config(ProgramSpec spec, Map<String, String> runtimeCfg) {
        return RuntimeCfg.resolve(spec.runtimeCfg(), runtimeCfg, Platform.A2A3SIM, 0);
    }

    private static RunReport dryRun(Program program, RunConfig config) {
        return DryRun.run(Compiler.compileInMemory(program), config);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyPreset")
    void thePlanBoundsTheDryRunHighWaterMarks(String name, String preset) {
        ProgramSpec spec = Programs.registry().get(name).spec(preset);
        for (Program program : spec.chipPrograms()) { // an L3 program: each of its chip programs on its own
            boundsHold(name + " " + preset + " " + program.name(), program, spec);
        }
    }

    private static void boundsHold(String name, Program program, ProgramSpec spec) {
        RingPlan plan = RingPlanner.plan(program);
        RunReport r = dryRun(program, config(spec, plan.runtimeCfg()));
        assertThat(r.tasksExecuted()).isEqualTo(plan.rings().stream().mapToLong(RingNeed::tasks).sum());
        for (RunReport.Ring measured : r.rings()) {
            RingNeed need = plan.ring(measured.ring());
            String where = name + " ring " + measured.ring() + " measured " + measured + "\n"
                    + plan.table();
            assertThat(measured.heapBytes()).as(where).isEqualTo(need.recommendedHeap());
            assertThat(measured.heapMax()).as(where + " heap_max").isBetween(need.liveHeapBytes(), need.heapBytes());
            assertThat((double) need.heapBytes()).as(where + " heap_needed ≤ 1.25 × heap_max")
                    .isLessThanOrEqualTo(1.25 * measured.heapMax());
            assertThat(need.recommendedHeap()).as(where + " ring_heap is heap_needed rounded up to a MiB")
                    .isLessThan(Math.max(need.heapBytes(), RingField.HEAP.min()) + (1L << 20));
            assertThat(measured.taskWindowMax()).as(where + " task_window_max")
                    .isBetween(need.liveTasks(), need.recommendedTaskWindow() - 1);
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("tinyPresets")
    void theRecommendationRunsForRealWithTheDryRunsHeapHighWaterMarks(String name, String preset) {
        ProgramSpec spec = Programs.registry().get(name).spec(preset);
        if (spec.l3().isPresent()) {
            l3(spec);
            return;
        }
        RingPlan plan = RingPlanner.plan(spec.program());
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        RunResult real = GoldenRunner.runJit(spec, RunSpec.defaults(new PrintStream(buf, true,
                StandardCharsets.UTF_8)), plan.runtimeCfg());
        assertThat(real.passed()).as(buf.toString(StandardCharsets.UTF_8)).isTrue();
        RunReport dry = dryRun(spec.program(), config(spec, plan.runtimeCfg()));
        // a dry run takes every orchestration-time read at its bound, as the plan does; a real run may do less
        boolean reads = spec.program().hasReads();
        if (reads) {
            assertThat(real.report().tasksExecuted()).isLessThanOrEqualTo(dry.tasksExecuted());
        } else {
            assertThat(dry.tasksExecuted()).isEqualTo(real.report().tasksExecuted());
        }
        for (RunReport.Ring measured : real.report().rings()) {
            RingNeed need = plan.ring(measured.ring());
            String where = name + " " + preset + " ring " + measured.ring() + " " + plan.table();
            assertThat(measured.heapBytes()).as(where).isEqualTo(need.recommendedHeap());
            assertThat(measured.heapMax()).as(where + " heap, real and dry")
                    .isEqualTo(dry.ring(measured.ring()).heapMax())
                    .isBetween(need.liveHeapBytes(), need.heapBytes());
            assertThat(measured.taskWindowMax()).as(where + " tasks")
                    .isBetween(reads ? 0 : need.liveTasks(), need.recommendedTaskWindow() - 1);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("proPrograms")
    void atProThePlanRejects256MiBOnTheRingThatDeadlocksAndItsRecommendationPasses(String name) {
        ProgramSpec spec = Programs.registry().get(name).spec("pro");
        RingPlan plan = RingPlanner.plan(spec.program());
        List<Integer> shortRings = IntStream.range(0, RingField.RINGS)
                .filter(r -> plan.ring(r).heapBytes() > MIB_256).boxed().toList();
        assertThat(shortRings).as(plan.table()).isNotEmpty();

        RunConfig at256 = config(spec, Map.of("ring_heap", "256MiB"));
        Optional<String> advice = plan.advice(CallConfigs.from(at256).runtimeEnv());
        assertThat(advice).as("the plan rejects ring_heap=256MiB").isPresent();
        for (int r : shortRings) {
            assertThat(advice.get()).contains("ring_heap " + Sizes.format(plan.ring(r).recommendedHeap()) + " on ring "
                    + r + " (in force 256MiB)");
        }
        assertThat(advice.get()).contains("ring_heap=" + plan.runtimeCfg().get("ring_heap"));

        ChipRuntimeException e = catchThrowableOfType(ChipRuntimeException.class,
                () -> dryRun(spec.program(), at256));
        assertThat(e).as("a dry run with ring_heap=256MiB").isNotNull();
        assertThat(e.error()).isEqualTo(ErrorCode.HEAP_RING_DEADLOCK);
        assertThat(e.orchErrorCode()).isEqualTo(2);
        assertThat(shortRings).as(e.getMessage()).anySatisfy(r -> assertThat(e.getMessage())
                .contains("heap bytes on ring " + r + " (capacity " + MIB_256));
        assertThat(e.getMessage()).as("the deadlock quotes the plan").contains(advice.get());

        RunReport ok = dryRun(spec.program(), config(spec, plan.runtimeCfg()));
        for (int r : shortRings) {
            assertThat(ok.ring(r).heapMax()).isGreaterThan(MIB_256).isLessThanOrEqualTo(plan.ring(r).recommendedHeap());
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
        Map<String, Boolean> reads = new LinkedHashMap<>();
        spec.chipPrograms().forEach(p -> reads.put(p.name(), p.hasReads()));
        for (L3Report.Call call : l3.calls()) {
            RingPlan plan = plans.get(call.chipProgram());
            for (RunReport.Ring measured : call.report().rings()) {
                RingNeed need = plan.ring(measured.ring());
                String where = spec.programName() + " call " + call.label() + " ring " + measured.ring() + " "
                        + plan.table();
                assertThat(measured.heapBytes()).as(where).isEqualTo(env.ringHeap()[measured.ring()]);
                assertThat(measured.heapMax()).as(where + " heap").isBetween(need.liveHeapBytes(), need.heapBytes());
                assertThat(measured.taskWindowMax()).as(where + " tasks (the plan takes reads at their bounds)")
                        .isBetween(reads.get(call.chipProgram()) ? 0 : need.liveTasks(), measured.taskWindow() - 1);
            }
        }
    }
}
