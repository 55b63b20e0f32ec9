package dev.jpto.compiler.plan;

import dev.jpto.runtime.RunReport;
import dev.jpto.runtime.Sizes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Plain-text rendering of a {@link RingPlan}: aligned columns, sizes in binary units where exact. */
final class PlanTable {
    private static final String[] HEADER = {"ring", "tasks", "live", "task_window", "heap_live", "heap_needed",
            "ring_heap", "deps_needed", "ring_dep_pool"};

    private PlanTable() {
    }

    private static final String[] MEASURED_HEADER = {"ring", "task_window", "live", "task_window_max", "ring_heap",
            "heap_needed", "heap_max", "needed/max", "ring_dep_pool", "deps_needed", "dep_pool_max"};

    static String render(RingPlan plan) {
        List<String[]> rows = new ArrayList<>();
        rows.add(HEADER);
        for (RingNeed n : plan.rings()) {
            rows.add(new String[] {Integer.toString(n.ring()), Long.toString(n.tasks()), Long.toString(n.liveTasks()),
                    Long.toString(n.recommendedTaskWindow()), bytes(n.liveHeapBytes()), bytes(n.heapBytes()),
                    Sizes.format(n.recommendedHeap()), Long.toString(n.depEntries()),
                    Long.toString(n.recommendedDepPool())});
        }
        StringBuilder sb = new StringBuilder("ring plan for '").append(plan.program()).append("'\n");
        columns(sb, rows);
        sb.append("live = tasks the ring must hold at once; heap_needed = smallest heap that passes (wrap loss "
                + "included); deps_needed = upper bound\n");
        sb.append("runtime_cfg: ");
        List<String> kv = new ArrayList<>();
        plan.runtimeCfg().forEach((k, v) -> kv.add(k + "=" + v));
        sb.append(String.join(" ", kv)).append('\n');
        return sb.toString();
    }

    /**
     * The plan next to what a run measured: per ring, the capacity in force, the plan's need and the run's
     * high-water mark, for task slots, heap bytes and dep-pool entries.
     */
    static String measured(RingPlan plan, RunReport report) {
        List<String[]> rows = new ArrayList<>();
        rows.add(MEASURED_HEADER);
        for (RunReport.Ring m : report.rings()) {
            RingNeed n = plan.ring(m.ring());
            String ratio = m.heapMax() == 0 ? (n.heapBytes() == 0 ? "-" : "inf")
                    : String.format(Locale.ROOT, "%.3f", (double) n.heapBytes() / m.heapMax());
            rows.add(new String[] {Integer.toString(m.ring()), Long.toString(m.taskWindow()),
                    Long.toString(n.liveTasks()), Long.toString(m.taskWindowMax()), Sizes.format(m.heapBytes()),
                    bytes(n.heapBytes()), bytes(m.heapMax()), ratio, Long.toString(m.depPool()),
                    Long.toString(n.depEntries()), Long.toString(m.depPoolMax())});
        }
        StringBuilder sb = new StringBuilder();
        columns(sb, rows);
        return sb.toString();
    }

    /** Right-aligned columns, two spaces apart, one line per row. */
    private static void columns(StringBuilder sb, List<String[]> rows) {
        int[] width = new int[rows.getFirst().length];
        for (String[] row : rows) {
            for (int c = 0; c < row.length; c++) {
                width[c] = Math.max(width[c], row[c].length());
            }
        }
        for (String[] row : rows) {
            for (int c = 0; c < row.length; c++) {
                String cell = row[c];
                sb.append(c == 0 ? "" : "  ").append(" ".repeat(width[c] - cell.length())).append(cell);
            }
            sb.append('\n');
        }
    }

    /** {@code 16KiB (16384)} when a unit is exact, else plain bytes. */
    private static String bytes(long b) {
        String f = Sizes.format(b);
        return f.equals(Long.toString(b)) ? f : f + " (" + b + ")";
    }
}
