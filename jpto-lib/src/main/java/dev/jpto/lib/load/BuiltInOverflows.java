package dev.jpto.lib.load;

import dev.jpto.lib.registry.ProgramSpec;
import dev.jpto.compiler.CompileOptions;
import dev.jpto.runtime.Platform;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The registered programs' kernels whose tiles do not fit the on-chip buffers of a2a3sim yet (at one of their
 * presets, at least), and so are exempt from the compile-time memory check. Every other kernel, and every kernel
 * of a user's program, is checked. These kernels keep whole rows or whole heads in one tile where the device
 * kernel loops over smaller tiles; they are to be re-tiled as the original kernels are. The list can only shrink:
 * {@code BuiltInOverflowsTest} fails when a kernel outside it overflows, and when one in it fits.
 */
public final class BuiltInOverflows {
    private static final Set<String> ATTENTION = Set.of("gather_kv", "gather_kv_cmp", "hc_post_prefill", "qk_pv",
            "qproj_matmul");
    private static final Set<String> MOE = Set.of("ffn_norm_quant", "routed_w13", "routed_w2", "shared_w13",
            "shared_w2");

    private static final Map<String, Set<String>> KERNELS = Map.ofEntries(
            Map.entry("dsv4.moe", union(MOE, Set.of("hc_post_prefill"))),
            Map.entry("dsv4.prefill_attention_csa", union(ATTENTION, Set.of("prefill_c4_cache_write",
                    "prefill_c4_softmax_pool", "prefill_c4_state_update", "prefill_csa_cache_write",
                    "prefill_idx_c4_cache_write", "prefill_idx_c4_state_update"))),
            Map.entry("dsv4.prefill_attention_hca", union(ATTENTION, hca())),
            Map.entry("dsv4.prefill_attention_swa", union(ATTENTION, swa())),
            Map.entry("dsv4.prefill_layer", union(union(ATTENTION, MOE), hca())),
            Map.entry("dsv4.prefill_mtp", union(union(ATTENTION, MOE), union(swa(), Set.of("hc_head",
                    "mtp_projection_norm_bf16", "mtp_projection_norm_fp32", "mtp_projection_output",
                    "mtp_rms_norm")))));

    private BuiltInOverflows() {
    }

    /** The exempt kernels of the registered program {@code programName}; empty for any other program. */
    public static Set<String> kernels(String programName) {
        return KERNELS.getOrDefault(programName, Set.of());
    }

    /** The options to compile {@code spec} for {@code platform} with: its exempt kernels, if any. */
    public static CompileOptions compileOptions(ProgramSpec spec, Platform platform) {
        return CompileOptions.defaults().withPlatform(platform).withMemoryExempt(kernels(spec.programName()));
    }

    /** The registered programs that have exempt kernels. */
    public static Set<String> programs() {
        return KERNELS.keySet();
    }

    private static Set<String> hca() {
        return Set.of("prefill_hca_c128_kv_finalize", "prefill_hca_c128_softmax_pool",
                "prefill_hca_c128_state_scatter_pre", "prefill_hca_cache_write");
    }

    private static Set<String> swa() {
        return Set.of("prefill_swa_cache_write", "prefill_swa_empty_cmp_meta");
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new HashSet<>(a);
        all.addAll(b);
        return Set.copyOf(all);
    }
}
