package dev.jpto.compiler.plan;

import dev.jpto.runtime.RingField;
import dev.jpto.runtime.RingShortfall;
import dev.jpto.runtime.RunReport;
import dev.jpto.runtime.RuntimeEnv;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * A program's ring plan: one {@link RingNeed} per ring (0..3), from {@link RingPlanner#plan}.
 *
 * @param program the program's name
 * @param rings   ring 0..3, in order
 */
public record RingPlan(String program, List<RingNeed> rings) {
    public RingPlan {
        rings = List.copyOf(rings);
        if (rings.size() != RingField.RINGS) {
            throw new IllegalArgumentException("a ring plan has " + RingField.RINGS + " rings, got " + rings.size());
        }
    }

    /**
     * One plan covering several programs that run with one ring configuration (the chip programs of an L3
     * program): per ring, the largest of every figure. Its recommendations are what {@code auto} resolves to.
     */
    public static RingPlan covering(String name, List<RingPlan> plans) {
        if (plans.isEmpty()) {
            throw new IllegalArgumentException("a covering ring plan needs at least one plan");
        }
        List<RingNeed> rings = new ArrayList<>();
        for (int r = 0; r < RingField.RINGS; r++) {
            long tasks = 0;
            long live = 0;
            long liveHeap = 0;
            long heap = 0;
            long deps = 0;
            long window = 0;
            long recHeap = 0;
            long recDeps = 0;
            for (RingPlan p : plans) {
                RingNeed n = p.ring(r);
                tasks = Math.max(tasks, n.tasks());
                live = Math.max(live, n.liveTasks());
                liveHeap = Math.max(liveHeap, n.liveHeapBytes());
                heap = Math.max(heap, n.heapBytes());
                deps = Math.max(deps, n.depEntries());
                window = Math.max(window, n.recommendedTaskWindow());
                recHeap = Math.max(recHeap, n.recommendedHeap());
                recDeps = Math.max(recDeps, n.recommendedDepPool());
            }
            rings.add(new RingNeed(r, tasks, live, liveHeap, heap, deps, window, recHeap, recDeps));
        }
        return new RingPlan(name, rings);
    }

    public RingNeed ring(int r) {
        return rings.get(r);
    }

    /** Recommended {@code ring_task_window} per ring. */
    public long[] taskWindows() {
        return recommended(RingField.TASK_WINDOW);
    }

    /** Recommended {@code ring_heap} per ring, in bytes. */
    public long[] heaps() {
        return recommended(RingField.HEAP);
    }

    /** Recommended {@code ring_dep_pool} per ring. */
    public long[] depPools() {
        return recommended(RingField.DEP_POOL);
    }

    private long[] each(ToLongFunction<RingNeed> f) {
        long[] v = new long[RingField.RINGS];
        for (int r = 0; r < v.length; r++) {
            v[r] = f.applyAsLong(rings.get(r));
        }
        return v;
    }

    /** The recommended values of {@code field}, one per ring. */
    public long[] recommended(RingField field) {
        return each(n -> n.recommended(field));
    }

    /**
     * This plan with the recommendation for the shortfall's field and ring raised to at least what the
     * shortfall advises, so that a message quoting both gives one size for that ring.
     */
    public RingPlan covering(RingShortfall shortfall) {
        List<RingNeed> raised = new ArrayList<>(rings);
        RingNeed n = rings.get(shortfall.ring());
        raised.set(shortfall.ring(), n.recommending(shortfall.field(), Math.max(n.recommended(shortfall.field()),
                shortfall.advised())));
        return new RingPlan(program, raised);
    }

    /**
     * The recommendation in RunConfig's key vocabulary, e.g. {@code ring_task_window=4,16,4,4},
     * {@code ring_heap=1MiB}, {@code ring_dep_pool=4}: one value when all rings agree, else four. Each value is
     * accepted by {@code RunConfig.fromMap}/{@code --runtime-cfg}.
     */
    public Map<String, String> runtimeCfg() {
        Map<String, String> m = new LinkedHashMap<>();
        for (RingField f : RingField.values()) {
            m.put(f.key(), join(f, recommended(f)));
        }
        return m;
    }

    private static String join(RingField field, long[] v) {
        boolean same = true;
        for (long x : v) {
            same &= x == v[0];
        }
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < (same ? 1 : v.length); r++) {
            sb.append(r == 0 ? "" : ",").append(field.format(v[r]));
        }
        return sb.toString();
    }

    /**
     * What the ring sizes in force ({@code env}, defaults applied) lack for this plan, as a sentence with the
     * runtime_cfg to use instead; empty when every ring holds its recommended task window and heap. Each ring is
     * named with the recommended value, the one size to set. Dep pools are mentioned only as "may need" (the
     * planned entries are an upper bound). A heap at or above the planned minimum is taken to pass (true in all
     * but rare wrap corners; the recommendation itself is checked).
     */
    public Optional<String> advice(RuntimeEnv env) {
        List<String> shortOf = new ArrayList<>();
        Set<RingField> use = EnumSet.noneOf(RingField.class);
        for (RingNeed n : rings) {
            int r = n.ring();
            if (env.taskWindow(r) <= n.liveTasks()) {
                shortOf.add(needs(RingField.TASK_WINDOW, n, env));
                use.add(RingField.TASK_WINDOW);
            }
            if (env.heap(r) < n.heapBytes()) {
                shortOf.add(needs(RingField.HEAP, n, env));
                use.add(RingField.HEAP);
            }
        }
        if (shortOf.isEmpty()) {
            return Optional.empty();
        }
        for (RingNeed n : rings) {
            if (env.depPool(n.ring()) < n.depEntries()) {
                shortOf.add("may need " + needs(RingField.DEP_POOL, n, env));
                use.add(RingField.DEP_POOL);
            }
        }
        Map<String, String> cfg = runtimeCfg();
        return Optional.of("the static ring plan of '" + program + "' needs " + String.join(", ", shortOf)
                + "; use runtime_cfg " + String.join(" ", use.stream().map(f -> f.key() + "=" + cfg.get(f.key()))
                .toList()) + " (or " + String.join(" ", use.stream().map(f -> f.key() + "=auto").toList()) + ")");
    }

    private static String needs(RingField field, RingNeed n, RuntimeEnv env) {
        return field.key() + " " + field.format(n.recommended(field)) + " on ring " + n.ring() + " (in force "
                + field.format(env.inForce(field, n.ring())) + ")";
    }

    /** {@link #runtimeCfg()} as {@code --runtime-cfg} arguments on one line. */
    public String runtimeCfgLine() {
        StringBuilder sb = new StringBuilder();
        runtimeCfg().forEach((k, v) -> sb.append(sb.isEmpty() ? "" : " ").append("--runtime-cfg ").append(k)
                .append('=').append(v));
        return sb.toString();
    }

    /** The table {@code jpto plan} prints: one row per ring, then the runtime_cfg line. */
    public String table() {
        return PlanTable.render(this);
    }

    /**
     * This plan next to a run's measured high-water marks (e.g. a {@code DryRun}'s), one row per ring: the
     * capacities in force, the plan's need and the measured mark for task slots, heap bytes and dep-pool entries.
     */
    public String measuredTable(RunReport report) {
        return PlanTable.measured(this, report);
    }

    @Override
    public String toString() {
        return table();
    }
}
