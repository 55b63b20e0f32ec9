package dev.jpto.compiler.ir;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The kernels of a mixed submit (the original's {@code MixedKernels}): one cube (AIC) kernel and up to two vector
 * (AIV) kernels that run on one cluster per block and share the submit's arguments. A null name is an inactive
 * lane. The task's name is the active lanes' kernel names joined by {@code +}, so DFX artefacts show every lane.
 */
public record MixedLanes(String aic, String aiv0, String aiv1) {
    /** The lane names in lane order (AIC, AIV0, AIV1) as the work dir spells them. */
    public static final List<String> LANE_NAMES = List.of("aic", "aiv0", "aiv1");

    /** The kernel of lane {@code lane} (0 AIC, 1 AIV0, 2 AIV1), or null when that lane is inactive. */
    public String lane(int lane) {
        return switch (lane) {
            case 0 -> aic;
            case 1 -> aiv0;
            case 2 -> aiv1;
            default -> throw new IllegalArgumentException("lane " + lane + " is not 0 (aic), 1 (aiv0) or 2 (aiv1)");
        };
    }

    /** Bit 0 AIC, bit 1 AIV0, bit 2 AIV1: the active lanes, as the runtime's {@code active_mask}. */
    public int activeMask() {
        return (aic == null ? 0 : 1) | (aiv0 == null ? 0 : 2) | (aiv1 == null ? 0 : 4);
    }

    /** The active lanes' kernel names, in lane order. */
    public List<String> kernels() {
        List<String> out = new ArrayList<>(3);
        for (int lane = 0; lane < 3; lane++) {
            if (lane(lane) != null) {
                out.add(lane(lane));
            }
        }
        return Collections.unmodifiableList(out);
    }

    /** The task's kernel name: the active lanes' kernels joined by {@code +} ({@code "mm+post0+post1"}). */
    public String taskName() {
        return String.join("+", kernels());
    }
}
