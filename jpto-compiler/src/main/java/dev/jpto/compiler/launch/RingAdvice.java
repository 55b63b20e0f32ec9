package dev.jpto.compiler.launch;

import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.plan.RingPlanner;
import dev.jpto.runtime.CallConfig;
import dev.jpto.runtime.ChipRuntimeException;
import java.util.Optional;

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
        Optional<String> advice = switch (e.error()) {
            case HEAP_RING_DEADLOCK, FLOW_CONTROL_DEADLOCK, SCOPE_DEADLOCK, DEP_POOL_OVERFLOW ->
                    RingPlanner.plan(program).advice(call.runtimeEnv());
            default -> Optional.empty();
        };
        if (advice.isEmpty()) {
            return e;
        }
        return new ChipRuntimeException(e.error(), detail(e) + "; " + advice.get(), e);
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
