package dev.jpto.runtime;

import java.util.Objects;

/**
 * The kernels of a mixed task (the original's {@code MixedKernels}): up to one cube (AIC) kernel and two vector
 * (AIV) kernels that run on one cluster, one block at a time. A null body is an inactive lane; the
 * {@link #activeMask} (bit 0 AIC, bit 1 AIV0, bit 2 AIV1) names the active ones. Each block runs every active lane
 * as one subtask, so the task completes after {@code blockNum × popcount(activeMask)} subtasks.
 *
 * @param name the task's kernel name (DFX, diagnostics)
 */
public record MixedKernels(String name, TaskBody aic, TaskBody aiv0, TaskBody aiv1) {
    public static final int AIC_LANE = 1;
    public static final int AIV0_LANE = 2;
    public static final int AIV1_LANE = 4;

    public MixedKernels {
        Objects.requireNonNull(name, "name");
        if (aic == null && aiv0 == null && aiv1 == null) {
            throw new IllegalArgumentException("mixed task '" + name + "' has no kernel: give an AIC kernel and/or "
                    + "one or two AIV kernels");
        }
    }

    public int activeMask() {
        return (aic == null ? 0 : AIC_LANE) | (aiv0 == null ? 0 : AIV0_LANE) | (aiv1 == null ? 0 : AIV1_LANE);
    }

    /** Subtasks one block runs: the number of active lanes. */
    public int lanes() {
        return Integer.bitCount(activeMask());
    }
}
