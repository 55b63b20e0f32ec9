package dev.jpto.compiler.run;

import dev.jpto.runtime.ChipOptions;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What {@link RunConfig#osEnv()} can carry. A JVM cannot change its own environment, so instead of exporting
 * variables around the run (as pypto's {@code execute_on_device(runtime_env=...)} did), the variables the
 * simulated chip's host would read are applied to the chip's options when it is opened. Any other name is
 * rejected rather than silently ignored — in particular the retired {@code PTO2_RING_*} variables, which once
 * sized the rings: ring sizing is {@code ring_task_window}, {@code ring_heap} and {@code ring_dep_pool}.
 */
public final class OsEnv {
    /** Scheduler no-progress timeout in milliseconds, decimal, ≥ 1 (spec h.1). */
    public static final String SCHEDULER_TIMEOUT_MS = "SIMPLER_SCHEDULER_TIMEOUT_MS";
    /** Bound of an orchestration-time read's or write's wait in milliseconds, decimal, ≥ 1 (code 8). */
    public static final String TENSOR_DATA_TIMEOUT_MS = "PTO2_TENSOR_DATA_TIMEOUT_MS";

    /** Every accepted name. */
    public static final List<String> NAMES = List.of(SCHEDULER_TIMEOUT_MS, TENSOR_DATA_TIMEOUT_MS);

    private OsEnv() {
    }

    /** The chip options {@code env} asks for, over the defaults. */
    public static ChipOptions chipOptions(Map<String, String> env) {
        ChipOptions options = ChipOptions.defaults();
        for (Map.Entry<String, String> e : env.entrySet()) {
            String name = e.getKey();
            if (name.startsWith("PTO2_RING_")) {
                throw new IllegalArgumentException("os_env " + name + " is retired and would not size any ring: "
                        + "set ring sizes with ring_task_window, ring_heap or ring_dep_pool (e.g. ring_heap=512MiB)");
            }
            if (name.equals(SCHEDULER_TIMEOUT_MS)) {
                options = options.withSchedulerTimeout(millis(name, e.getValue(), options.schedulerTimeout()));
            } else if (name.equals(TENSOR_DATA_TIMEOUT_MS)) {
                options = options.withTensorDataTimeout(millis(name, e.getValue(), options.tensorDataTimeout()));
            } else {
                throw new IllegalArgumentException("os_env " + name + " is not read by the simulated chip; accepted "
                        + "names: " + String.join(", ", NAMES) + " (ring sizing is ring_task_window, ring_heap, "
                        + "ring_dep_pool)");
            }
        }
        return options;
    }

    private static Duration millis(String name, String text, Duration dflt) {
        try {
            long v = Long.parseLong(text.trim());
            if (v >= 1 && v <= Integer.MAX_VALUE) {
                return Duration.ofMillis(v);
            }
        } catch (NumberFormatException e) {
            // reported below with the rule
        }
        throw new IllegalArgumentException("os_env " + name + " must be a decimal number of milliseconds in [1, "
                + Integer.MAX_VALUE + "]: " + name + "=" + text + " (default " + dflt.toMillis() + ")");
    }
}
