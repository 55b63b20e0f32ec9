package dev.jpto.compiler.run;

import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.plan.RingPlan;
import dev.jpto.compiler.plan.RingPlanner;
import java.util.ArrayList;
import java.util.List;

/**
 * Resolves {@code ring_task_window=auto}, {@code ring_heap=auto} and {@code ring_dep_pool=auto} against the
 * program's {@link RingPlan}: each becomes the plan's recommended values (one per ring, or one when all agree).
 * Fields that are not auto are left exactly as given, so an explicit size always wins.
 */
public final class AutoRings {
    private AutoRings() {
    }

    /** Whether any ring field of {@code config} is auto. */
    public static boolean any(RunConfig config) {
        return !autoKeys(config).isEmpty();
    }

    /** The keys whose value is auto, e.g. {@code [ring_heap]}. */
    public static List<String> autoKeys(RunConfig config) {
        List<String> keys = new ArrayList<>();
        if (config.ringTaskWindow().isAuto()) {
            keys.add("ring_task_window");
        }
        if (config.ringHeap().isAuto()) {
            keys.add("ring_heap");
        }
        if (config.ringDepPool().isAuto()) {
            keys.add("ring_dep_pool");
        }
        return keys;
    }

    /** {@code config} with its auto fields replaced by {@code program}'s plan (planned only if one is auto). */
    public static RunConfig resolve(RunConfig config, Program program) {
        return any(config) ? resolve(config, RingPlanner.plan(program)) : config;
    }

    /**
     * For one CallConfig shared by several programs (L3, one program per chip): auto fields become, per ring, the
     * largest recommendation over the programs' plans.
     */
    public static RunConfig resolve(RunConfig config, List<Program> programs) {
        if (!any(config)) {
            return config;
        }
        if (programs.isEmpty()) {
            throw new IllegalArgumentException(String.join(", ", autoKeys(config)) + "=auto needs at least one program "
                    + "to plan");
        }
        List<RingPlan> plans = new ArrayList<>();
        for (Program p : programs) {
            plans.add(RingPlanner.plan(p));
        }
        return resolve(config, plans.toArray(RingPlan[]::new));
    }

    /** {@code config} with its auto fields replaced by the plans' recommendations (per ring, the largest). */
    public static RunConfig resolve(RunConfig config, RingPlan... plans) {
        RingPlan plan = plans.length == 1 ? plans[0] : RingPlan.covering("", List.of(plans));
        RunConfig c = config;
        if (c.ringTaskWindow().isAuto()) {
            c = c.withRingTaskWindow(size(plan.taskWindows()));
        }
        if (c.ringHeap().isAuto()) {
            c = c.withRingHeap(size(plan.heaps()));
        }
        if (c.ringDepPool().isAuto()) {
            c = c.withRingDepPool(size(plan.depPools()));
        }
        return c;
    }

    /** For checks that need no program: auto fields read as absent (auto is always a valid value). */
    static RunConfig withoutAuto(RunConfig config) {
        RunConfig c = config;
        if (c.ringTaskWindow().isAuto()) {
            c = c.withRingTaskWindow(RingSize.absent());
        }
        if (c.ringHeap().isAuto()) {
            c = c.withRingHeap(RingSize.absent());
        }
        if (c.ringDepPool().isAuto()) {
            c = c.withRingDepPool(RingSize.absent());
        }
        return c;
    }

    private static RingSize size(long[] v) {
        boolean same = v[0] == v[1] && v[1] == v[2] && v[2] == v[3];
        return same ? RingSize.of(v[0]) : RingSize.of(v[0], v[1], v[2], v[3]);
    }
}
