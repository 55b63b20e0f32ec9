package dev.jpto.lib.fuzz;

import dev.jpto.compiler.plan.RingNeed;
import dev.jpto.compiler.plan.RingPlan;
import dev.jpto.runtime.ErrorCode;
import dev.jpto.runtime.RuntimeEnv;

/**
 * Whether a ring error is explained by ring sizes the static plan ({@code RingPlanner}) finds too small. The plan's
 * task window and heap are what the program needs in the runtime's deadlock state, and its dep-pool entries an
 * upper bound, so a ring that holds them can only wait, never fail: an error on such sizes is a finding.
 */
final class RingShortage {
    private RingShortage() {
    }

    static boolean explains(ErrorCode code, RingPlan plan, RuntimeEnv env) {
        for (RingNeed n : plan.rings()) {
            int r = n.ring();
            boolean window = env.taskWindow(r) <= n.liveTasks();
            boolean heap = env.heap(r) < n.heapBytes();
            boolean deps = env.depPool(r) < n.depEntries();
            boolean explained = switch (code) {
                case SCOPE_DEADLOCK, FLOW_CONTROL_DEADLOCK -> window;
                case HEAP_RING_DEADLOCK -> heap;
                case DEP_POOL_OVERFLOW -> deps;
                // the scope task buffer holds the sum of the windows; the TensorMap pool is not configurable
                case SCOPE_TASKS_OVERFLOW, TENSORMAP_OVERFLOW -> window || heap || deps;
                default -> false;
            };
            if (explained) {
                return true;
            }
        }
        return false;
    }
}
