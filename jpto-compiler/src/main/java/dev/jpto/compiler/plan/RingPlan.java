package dev.jpto.compiler.plan;

import dev.jpto.runtime.RuntimeEnv;
import dev.jpto.runtime.Sizes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
        if (rings.size() != RuntimeEnv.RINGS) {
            throw new IllegalArgumentException("a ring plan has " + RuntimeEnv.RINGS + " rings, got " + rings.size());
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
        for (int r = 0; r < RuntimeEnv.RINGS; r++) {
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
        return each(RingNeed::recommendedTaskWindow);
    }

    /** Recommended {@code ring_heap} per ring, in bytes. */
    public long[] heaps() {
        return each(RingNeed::recommendedHeap);
    }

    /** Recommended {@code ring_dep_pool} per ring. */
    public long[] depPools() {
        return each(RingNeed::recommendedDepPool);
    }

    private long[] each(ToLongFunction<RingNeed> f) {
        long[] v = new long[RuntimeEnv.RINGS];
        for (int r = 0; r < v.length; r++) {
            v[r] = f.applyAsLong(rings.get(r));
        }
        return v;
    }

    /**
     * The recommendation in RunConfig's key vocabulary, e.g. {@code ring_task_window=4,16,4,4},
     * {@code ring_heap=1MiB}, {@code ring_dep_pool=4}: one value when all rings agree, else four. Each value is
     * accepted by {@code RunConfig.fromMap}/{@code --runtime-cfg}.
     */
    public Map<String, String> runtimeCfg() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("ring_task_window", join(taskWindows(), false));
        m.put("ring_heap", join(heaps(), true));
        m.put("ring_dep_pool", join(depPools(), false));
        return m;
    }

    private static String join(long[] v, boolean bytes) {
        boolean same = true;
        for (long x : v) {
            same &= x == v[0];
        }
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < (same ? 1 : v.length); r++) {
            if (r > 0) {
                sb.append(',');
            }
            sb.append(bytes ? Sizes.format(v[r]) : Long.toString(v[r]));
        }
        return sb.toString();
    }

    /**
     * What the ring sizes in force ({@code env}, defaults applied) lack for this plan, as a sentence with the
     * runtime_cfg to use instead; empty when every ring holds its planned task window and heap. Dep pools are
     * mentioned only as "may need" (the planned entries are an upper bound). A heap at or above the planned
     * minimum is taken to pass (true in all but rare wrap corners; the recommendation itself is checked).
     */
    public Optional<String> advice(RuntimeEnv env) {
        List<String> shortOf = new ArrayList<>();
        Map<String, String> cfg = runtimeCfg();
        Map<String, String> use = new LinkedHashMap<>();
        for (RingNeed n : rings) {
            int r = n.ring();
            if (env.taskWindow(r) <= n.liveTasks()) {
                shortOf.add("ring " + r + " task window > " + n.liveTasks() + " (in force " + env.taskWindow(r) + ")");
                use.put("ring_task_window", cfg.get("ring_task_window"));
            }
            if (env.heap(r) < n.heapBytes()) {
                shortOf.add("ring " + r + " heap " + Sizes.format(n.heapBytes()) + " (in force "
                        + Sizes.format(env.heap(r)) + ")");
                use.put("ring_heap", cfg.get("ring_heap"));
            }
        }
        if (shortOf.isEmpty()) {
            return Optional.empty();
        }
        for (RingNeed n : rings) {
            if (env.depPool(n.ring()) < n.depEntries()) {
                shortOf.add("ring " + n.ring() + " may need up to " + n.depEntries() + " dep pool entries (in force "
                        + env.depPool(n.ring()) + ")");
                use.put("ring_dep_pool", cfg.get("ring_dep_pool"));
            }
        }
        List<String> kv = new ArrayList<>();
        use.forEach((k, v) -> kv.add(k + "=" + v));
        return Optional.of("the static ring plan of '" + program + "' needs " + String.join(", ", shortOf)
                + "; use runtime_cfg " + String.join(" ", kv) + " (or " + String.join(" ", use.keySet().stream()
                .map(k -> k + "=auto").toList()) + ")");
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

    @Override
    public String toString() {
        return table();
    }
}
