package dev.jpto.compiler.launch;

import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.plan.RingPlan;
import dev.jpto.compiler.plan.RingPlanner;
import dev.jpto.runtime.CallConfig;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.RingShortfall;
import java.util.Optional;

/**
 * Adds the whole program's ring requirement to a ring deadlock. The chip only sees the allocation that got
 * stuck, so its advice is one step; the static plan ({@link RingPlanner}) knows what every scope holds, so the
 * user can size all rings in one go. The stuck ring gets one size: the larger of the chip's need and the
 * plan's recommendation, in the message's advice and in the plan's runtime_cfg alike.
 */
final class RingAdvice {
    private static final String STATUS = " [runtime_status=";
    private static final String SEPARATOR = " - ";

    private RingAdvice() {
    }

    static ChipRuntimeException explain(ChipRuntimeException e, Program program, CallConfig call) {
        Optional<RingShortfall> chip = e.shortfall();
        if (chip.isEmpty()) {
            return e;
        }
        RingPlan plan = RingPlanner.plan(program);
        RingShortfall stuck = chip.get();
        RingShortfall advice = stuck.atLeast(plan.ring(stuck.ring()).recommended(stuck.field()));
        Optional<String> more = plan.covering(advice).advice(call.runtimeEnv());
        if (more.isEmpty() && advice.equals(stuck)) {
            return e;
        }
        return e.advising(advice, more.map(m -> "; " + m).orElse(""));
    }

    /**
     * The detail of a chip error: the runtime formats "<code field> NAME - detail [runtime_status=N]", and a new
     * exception with the same code adds the prefix and suffix again.
     */
    static String detail(ChipRuntimeException e) {
        String m = e.getMessage();
        int from = m.indexOf(SEPARATOR);
        int to = m.lastIndexOf(STATUS);
        return from >= 0 && to > from ? m.substring(from + SEPARATOR.length(), to) : m;
    }
}
