package dev.jpto.compiler.plan;

import dev.jpto.runtime.RuntimeEnv;
import dev.jpto.runtime.Sizes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
