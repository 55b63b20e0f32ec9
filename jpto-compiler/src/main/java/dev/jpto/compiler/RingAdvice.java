package dev.jpto.compiler;

import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.RingPlan;
import dev.jpto.compiler.ir.RingPlanner;
import dev.jpto.runtime.CallConfig;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.RuntimeEnv;
import dev.jpto.runtime.Sizes;

/**
 * Adds the whole program's ring requirement to a ring deadlock. The chip only sees the allocation that got
 * stuck, so its advice is one step; the static plan ({@link RingPlanner}) knows what every scope holds, so the
 * user can size all rings in one go.
 */
final class RingAdvice {
    private static final String STATUS = " [runtime_status=";
    private static final String SEPARATOR = " - ";

    private RingAdvice() {
    }

    static ChipRuntimeException explain(ChipRuntimeException e, Program program, CallConfig call) {
        String advice = switch (e.error()) {
            case HEAP_RING_DEADLOCK -> heap(RingPlanner.plan(program), call.runtimeEnv());
            case FLOW_CONTROL_DEADLOCK, SCOPE_DEADLOCK -> taskWindow(RingPlanner.plan(program), call.runtimeEnv());
            default -> null;
        };
        if (advice == null) {
            return e;
        }
        // The runtime formats "<code field> NAME - detail [runtime_status=N]"; keep its detail, add ours.
        String m = e.getMessage();
        int from = m.indexOf(SEPARATOR);
        int to = m.lastIndexOf(STATUS);
        String detail = from >= 0 && to > from ? m.substring(from + SEPARATOR.length(), to) : m;
        return new ChipRuntimeException(e.error(), detail + "; " + advice, e);
    }

    private static String heap(RingPlan plan, RuntimeEnv env) {
        long[] want = new long[RuntimeEnv.RINGS];
        boolean shortOf = false;
        for (int r = 0; r < want.length; r++) {
            long need = plan.heapBytes(r);
            if (need > env.heap(r)) {
                want[r] = need;
                shortOf = true;
            }
        }
        if (!shortOf) {
            return null;
        }
        return "program static ring plan: the heap the open scopes hold at once per ring is "
                + list(plan.heap()) + " bytes; runtime_cfg ring_heap=" + sizes(want) + " covers it";
    }

    private static String taskWindow(RingPlan plan, RuntimeEnv env) {
        long[] want = new long[RuntimeEnv.RINGS];
        boolean shortOf = false;
        for (int r = 0; r < want.length; r++) {
            long need = plan.taskWindow(r);
            if (need > env.taskWindow(r)) {
                want[r] = need;
                shortOf = true;
            }
        }
        if (!shortOf) {
            return null;
        }
        return "program static ring plan: the tasks the open scopes hold at once per ring are " + list(plan.tasks())
                + "; runtime_cfg ring_task_window=" + list(want) + " covers it";
    }

    private static String list(long[] v) {
        StringBuilder sb = new StringBuilder();
        for (long x : v) {
            sb.append(sb.isEmpty() ? "" : ",").append(x);
        }
        return sb.toString();
    }

    private static String sizes(long[] v) {
        StringBuilder sb = new StringBuilder();
        for (long x : v) {
            sb.append(sb.isEmpty() ? "" : ",").append(Sizes.format(x));
        }
        return sb.toString();
    }
}
