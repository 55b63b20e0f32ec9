package dev.jpto.models.dsv4.kernels;

import dev.jpto.lib.registry.MemoryExemption;
import dev.jpto.models.dsv4.Dsv4Program;
import java.util.HashSet;
import java.util.Set;

/**
 * The DSv4 kernels whose tiles do not fit a2a3sim's on-chip buffers yet (at one preset at least), exempt from the
 * compile-time memory check; each program's spec carries its own ({@code ProgramSpec#withMemoryExemption}). They
 * keep whole rows or whole heads in one tile where the original kernels loop over smaller tiles, and are to be
 * re-tiled as those are. {@code MemoryExemptionTest} fails when one of them fits, so the sets only shrink.
 */
final class Dsv4MemoryExemptions {
    private static final String REASON = "keeps whole rows or heads in one tile where the device kernel loops over "
            + "smaller tiles; not re-tiled yet";
    private static final Set<String> ATTENTION = Set.of("gather_kv", "gather_kv_cmp", "hc_post_prefill", "qk_pv",
            "qproj_matmul");
    private static final Set<String> SWA = Set.of("prefill_swa_empty_cmp_meta");

    static final MemoryExemption MOE_ONLY = exempt(Set.of("hc_post_prefill"));
    static final MemoryExemption LAYER = exempt(ATTENTION);
    static final MemoryExemption MTP = exempt(ATTENTION, SWA);

    private Dsv4MemoryExemptions() {
    }

    /** The exemption of one prefill attention program. */
    static MemoryExemption attention(Dsv4Program program) {
        return switch (program) {
            case CSA, HCA -> exempt(ATTENTION);
            case SWA -> exempt(ATTENTION, SWA);
        };
    }

    @SafeVarargs
    private static MemoryExemption exempt(Set<String>... groups) {
        Set<String> all = new HashSet<>();
        for (Set<String> g : groups) {
            all.addAll(g);
        }
        return MemoryExemption.of(REASON, all);
    }
}
