package dev.jpto.compiler.plan;

import dev.jpto.runtime.Sizes;
import java.util.ArrayList;
import java.util.List;

/** Plain-text rendering of a {@link RingPlan}: aligned columns, sizes in binary units where exact. */
final class PlanTable {
    private static final String[] HEADER = {"ring", "tasks", "live", "task_window", "heap_live", "heap_needed",
            "ring_heap", "deps_needed", "ring_dep_pool"};

    private PlanTable() {
    }

    static String render(RingPlan plan) {
        List<String[]> rows = new ArrayList<>();
        rows.add(HEADER);
        for (RingNeed n : plan.rings()) {
            rows.add(new String[] {Integer.toString(n.ring()), Long.toString(n.tasks()), Long.toString(n.liveTasks()),
                    Long.toString(n.recommendedTaskWindow()), bytes(n.liveHeapBytes()), bytes(n.heapBytes()),
                    Sizes.format(n.recommendedHeap()), Long.toString(n.depEntries()),
                    Long.toString(n.recommendedDepPool())});
        }
        int[] width = new int[HEADER.length];
        for (String[] row : rows) {
            for (int c = 0; c < row.length; c++) {
                width[c] = Math.max(width[c], row[c].length());
            }
        }
        StringBuilder sb = new StringBuilder("ring plan for '").append(plan.program()).append("'\n");
        for (String[] row : rows) {
            for (int c = 0; c < row.length; c++) {
                String cell = row[c];
                sb.append(c == 0 ? "" : "  ").append(" ".repeat(width[c] - cell.length())).append(cell);
            }
            sb.append('\n');
        }
        sb.append("live = tasks the ring must hold at once; heap_needed = smallest heap that passes (wrap loss "
                + "included); deps_needed = upper bound\n");
        sb.append("runtime_cfg: ");
        List<String> kv = new ArrayList<>();
        plan.runtimeCfg().forEach((k, v) -> kv.add(k + "=" + v));
        sb.append(String.join(" ", kv)).append('\n');
        return sb.toString();
    }

    /** {@code 16KiB (16384)} when a unit is exact, else plain bytes. */
    private static String bytes(long b) {
        String f = Sizes.format(b);
        return f.equals(Long.toString(b)) ? f : f + " (" + b + ")";
    }
}
