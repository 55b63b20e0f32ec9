package dev.jpto.compiler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.launch.Runner;
import dev.jpto.compiler.plan.RingPlan;
import dev.jpto.compiler.plan.RingPlanner;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.ErrorCode;
import dev.jpto.runtime.RingField;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.statistics.Statistics;

/**
 * The ring advice of a failed run, taken literally: random programs ({@link RingPlanPropertiesTest#randomProgram})
 * run with one ring field too small on every ring; while a run fails on a ring, its message must give exactly one
 * size ("set KEY for ring R to at least SIZE (runtime_cfg KEY=…)", the plan's part quoting the same size for that
 * ring), and the rerun with exactly that runtime_cfg must not fail on that ring for that reason again. Following
 * the advice step by step then ends in a pass. The runtime is the judge; nothing here knows the planner's numbers.
 */
class AdviceTakenLiterallyProperties {
    private static final Pattern ADVICE = Pattern.compile(
            "set (ring_\\w+) for ring (\\d) to at least (\\S+) \\(runtime_cfg (ring_\\w+)=(\\S+)\\)");
    private static final Pattern PLAN_SIZE = Pattern.compile("(ring_\\w+) (\\S+) on ring (\\d) \\(in force");
    /** At most one fix per field and ring, and then the pass. */
    private static final int MAX_STEPS = RingField.values().length * RingField.RINGS + 1;

    @Property(tries = 12, seed = "20261205")
    void followingTheAdviceLiterallyNeverRepeatsAFailureAndEndsInAPass(@ForAll long seed) {
        Program p = RingPlanPropertiesTest.randomProgram(seed);
        CompiledProgram compiled = Compiler.compileInMemory(p);
        RingPlan plan = RingPlanner.plan(p);
        SplittableRandom rnd = new SplittableRandom(seed);
        RingField tight = RingField.values()[rnd.nextInt(RingField.values().length)];
        RunConfig config = RunConfig.defaults().with(tight.key(), Long.toString(tooSmall(tight, plan, rnd)));
        List<String> failures = new ArrayList<>();
        for (int step = 0; step < MAX_STEPS; step++) {
            ChipRuntimeException e = run(compiled, config);
            if (e == null) {
                Statistics.label("fixes before the pass").collect(failures.size());
                Statistics.label("first failure").collect(failures.isEmpty() ? "none" : failures.getFirst());
                Statistics.label("failed first").collect(!failures.isEmpty());
                // not vacuous: most random programs must fail at the tight size and be fixed by the advice
                Statistics.label("failed first").coverage(c -> c.check(true)
                        .percentage((Predicate<Double>) pct -> pct > 50));
                return;
            }
            String m = e.getMessage();
            String where = "seed " + seed + " step " + step + " config " + config.asMap() + "\n" + m + "\n"
                    + plan.table();
            assertThat(e.error()).as(where).isIn(ErrorCode.SCOPE_DEADLOCK, ErrorCode.HEAP_RING_DEADLOCK,
                    ErrorCode.FLOW_CONTROL_DEADLOCK, ErrorCode.DEP_POOL_OVERFLOW);
            Matcher a = ADVICE.matcher(m);
            assertThat(a.find()).as("one advice in " + where).isTrue();
            assertThat(a.find()).as("a second advice in " + where).isFalse();
            a.reset().find();
            String key = a.group(1);
            String ring = a.group(2);
            String size = a.group(3);
            assertThat(a.group(4)).isEqualTo(key);
            assertThat(a.group(5).split(",")[Integer.parseInt(ring)]).as(where).isEqualTo(size);
            Matcher planSize = PLAN_SIZE.matcher(m);
            while (planSize.find()) {
                if (planSize.group(1).equals(key) && planSize.group(3).equals(ring)) {
                    assertThat(planSize.group(2)).as("the plan's size for that ring in " + where).isEqualTo(size);
                }
            }
            String failure = e.error() + " " + key + " ring " + ring;
            assertThat(failures).as("advice taken literally failed again for the same reason: " + where)
                    .doesNotContain(failure);
            failures.add(failure);
            config = config.with(key, a.group(5));
        }
        throw new AssertionError("seed " + seed + ": no pass after " + MAX_STEPS + " steps: " + failures);
    }

    /** A size for all rings below what the plan needs on its hungriest ring (at the field's minimum at worst). */
    private static long tooSmall(RingField f, RingPlan plan, SplittableRandom rnd) {
        long window = 0;
        long heap = 0;
        for (int r = 0; r < RingField.RINGS; r++) {
            window = Math.max(window, plan.ring(r).recommendedTaskWindow());
            heap = Math.max(heap, plan.ring(r).heapBytes());
        }
        return switch (f) {
            case TASK_WINDOW -> Math.max(f.min(), window >> (1 + rnd.nextInt(2)));
            case HEAP -> Math.max(f.min(), rnd.nextLong(Math.max(2, heap / 1024)) * 1024);
            case DEP_POOL -> f.min() + rnd.nextInt(4);
        };
    }

    /**
     * The run's failure, or null when it passes. A failure that is not scope-gated (the allocator's wall-clock
     * backstop on a loaded host, or the race RingPlanRuntimeTest describes) is retried: a real one repeats.
     */
    private static ChipRuntimeException run(CompiledProgram p, RunConfig c) {
        ChipRuntimeException last = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            try (Arena arena = Arena.ofShared()) {
                Runner.run(p, Map.of("x", Tensors.random(arena, 5, 64, 192),
                        "y", Tensor.allocate(arena, DType.FP32, 64, 192)), c);
                return null;
            } catch (ChipRuntimeException e) {
                last = e;
                if (e.error() == ErrorCode.SCOPE_DEADLOCK || e.getMessage().contains("scope-gated")) {
                    return e;
                }
            }
        }
        return last;
    }
}
