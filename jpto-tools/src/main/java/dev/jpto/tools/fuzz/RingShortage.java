package dev.jpto.tools.fuzz;

import dev.jpto.compiler.plan.RingNeed;
import dev.jpto.compiler.plan.RingPlan;
import dev.jpto.runtime.ErrorCode;
import dev.jpto.runtime.RuntimeEnv;

/**
 * Whether a ring error is explained by ring sizes the static plan ({@code RingPlanner}) finds too small. The plan's
 * task window is what the program needs in the runtime's deadlock state and its dep-pool entries an upper bound, so
 * a ring that holds them can only wait, never fail: a code 1, 3 or 4 on such sizes is a finding. The plan's
 * {@code heapBytes} is not such a bound (RingPlan.advice says so: a heap ring's layout depends on when the
 * scheduler retires tasks, and a request that wraps early can strand the bytes before the ring's end; the fuzzer
 * sees it, e.g. seed 20279443), so a heap error is a finding only on a heap of at least the plan's checked
 * recommendation.
 */
final class RingShortage {
    private RingShortage() {
    }

    static boolean explains(ErrorCode code, RingPlan plan, RuntimeEnv env) {
        for (RingNeed n : plan.rings()) {
            int r = n.ring();
            boolean window = env.taskWindow(r) <= n.liveTasks();
            boolean heap = env.heap(r) < n.recommendedHeap();
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
