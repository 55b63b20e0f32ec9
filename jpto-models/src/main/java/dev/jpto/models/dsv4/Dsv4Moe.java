package dev.jpto.models.dsv4;

import dev.jpto.isa.DType;
import java.util.ArrayList;
import java.util.List;

/**
 * The MoE FFN sizes of one preset and expert-parallel world (the original's {@code moe.py} constants): the routed
 * experts are sharded over {@code ranks} chips, {@code nLocal} per chip, as {@code moe.py} specialises the
 * EP8 preset to its {@code --ep} world ({@code n_routed_experts // 8 * EP}).
 *
 * @param nLocal      N_LOCAL routed experts per rank
 * @param ranks       N_RANKS, the expert-parallel world (1: every expert on one chip)
 * @param topk        TOPK = num_experts_per_tok
 * @param inter       MOE_INTER = moe_intermediate_size
 * @param routeScale  ROUTE_SCALE = routed_scaling_factor
 * @param swigluLimit SWIGLU_LIMIT (0: no clamp)
 */
public record Dsv4Moe(int nLocal, int ranks, int topk, int inter, double routeScale, double swigluLimit) {
    public Dsv4Moe {
        if (nLocal <= 0 || ranks <= 0 || topk <= 0 || inter <= 0) {
            throw new IllegalArgumentException("MoE sizes must be positive: nLocal=" + nLocal + " ranks=" + ranks
                    + " topk=" + topk + " inter=" + inter);
        }
        if (topk > nLocal * ranks) {
            throw new IllegalArgumentException("TOPK=" + topk + " exceeds the " + nLocal * ranks + " routed experts");
        }
    }

    /**
     * The MoE of {@code preset} over {@code ranks} chips: {@code pro} is {@code config.PRO} (384 experts at EP8,
     * i.e. 48 per rank, top-6, MOE_INTER 3072, scale 2.5, SwiGLU limit 10); {@code demo} is {@code config.DEMO}
     * (16 at EP8: 2 per rank, top-2, MOE_INTER 4096, scale 1, no limit); {@code tiny} keeps Pro's routing (top-6,
     * scale 2.5, limit 10) with 8 experts per rank and MOE_INTER 128.
     */
    public static Dsv4Moe of(Dsv4Preset preset, int ranks) {
        return switch (preset.name()) {
            case "pro" -> new Dsv4Moe(48, ranks, 6, 3072, 2.5, 10.0);
            case "demo" -> new Dsv4Moe(2, ranks, Math.min(2, 2 * ranks), 4096, 1.0, 0.0);
            case "tiny" -> new Dsv4Moe(8, ranks, 6, 128, 2.5, 10.0);
            default -> throw new IllegalArgumentException("no MoE sizes for dsv4 preset '" + preset.name()
                    + "'; valid: tiny, demo, pro");
        };
    }

    /** N_EXPERTS_GLOBAL. */
    public int nExperts() {
        return nLocal * ranks;
    }

    /** Receive lanes of one local expert: one T-row lane per source rank (RECV_MAX = N_RANKS·T). */
    public int recvMax(int t) {
        return ranks * t;
    }

    /**
     * The original's score-routing fixture: bias 4.0 on the experts of slots 0..TOPK−1 spread over the ranks,
     * {@code (slot % N_RANKS)·N_LOCAL + slot / N_RANKS}, 0 elsewhere — away from a top-k boundary.
     */
    public double[] gateBiasFixture() {
        double[] b = new double[nExperts()];
        for (int s = 0; s < topk; s++) {
            b[(s % ranks) * nLocal + s / ranks] = 4.0;
        }
        return b;
    }

    // ---- heap plans of the MoE chip programs (every intermediate in the body scope, as Dsv4HeapPlan) ----

    /** hc_pre's allocations, as in {@link Dsv4HeapPlan} (the FFN hyper-connection reuses the same stage). */
    public static void hcPre(List<Dsv4HeapPlan.Alloc> l, String stage, long t, Dsv4Dims m) {
        hcPre(l, stage, t, m, true);
    }

    /** hc_pre's allocations; {@code withPostComb} false when post and comb are program outputs. */
    public static void hcPre(List<Dsv4HeapPlan.Alloc> l, String stage, long t, Dsv4Dims m, boolean withPostComb) {
        long tl = (t + 15) / 16 * 16;
        add(l, stage, "x_mixed", DType.BF16, 1, t, m.d());
        if (withPostComb) {
            add(l, stage, "post", DType.FP32, 1, t, m.hcMult());
            add(l, stage, "comb", DType.FP32, 1, t, (long) m.hcMult() * m.hcMult());
        }
        add(l, stage, "inv_rms", DType.FP32, 1, tl, 1);
        add(l, stage, "mixes_raw", DType.FP32, 1, tl, 32);
        add(l, stage, "mixes_partials", DType.FP32, 1, 4 * tl, 32);
        add(l, stage, "pre_raw_store", DType.FP32, 1, tl, 8);
        add(l, stage, "post_raw_store", DType.FP32, 1, tl, 8);
        add(l, stage, "pre_val_store", DType.FP32, 1, tl, 8);
    }

    /** The gate stage's own intermediates (after hc_pre): ffn inv_rms, x·gamma, logits and scores. */
    public void gate(List<Dsv4HeapPlan.Alloc> l, long t, Dsv4Dims m) {
        add(l, "gate", "ffn_inv_rms", DType.FP32, 1, t, 1);
        add(l, "gate", "xg", DType.FP32, 1, t, m.d());
        add(l, "gate", "gate_logits", DType.FP32, 1, t, nExperts());
        add(l, "gate", "gate_scores", DType.FP32, 1, t, nExperts());
    }

    /** Gate outputs, when they are intermediates (the one-chip program). */
    public void gateOutputs(List<Dsv4HeapPlan.Alloc> l, long t, Dsv4Dims m) {
        add(l, "moe", "x_norm_i8", DType.INT8, 1, t, m.d());
        add(l, "moe", "x_norm_scale", DType.FP32, 1, t, 1);
        add(l, "moe", "indices", DType.INT32, 1, t, topk);
        add(l, "moe", "weights", DType.FP32, 1, t, topk);
    }

    /** Dispatch weights per receive lane and the active flag of each 16-lane tile (depth 1). */
    public void dispatch(List<Dsv4HeapPlan.Alloc> l, long t, int depth) {
        add(l, "dispatch", "recv_w", DType.FP32, depth, nLocal, recvMax((int) t));
        add(l, "dispatch", "recv_active", DType.INT32, depth, nLocal, recvMax((int) t) / 16);
    }

    /** The shared expert's output and its int8 activation with scales. */
    public void shared(List<Dsv4HeapPlan.Alloc> l, long t, Dsv4Dims m, int depth) {
        add(l, "moe", "sh", DType.BF16, depth, t, m.d());
        add(l, "expert_shared", "shared_h_i8", DType.INT8, depth, t, inter);
        add(l, "expert_shared", "shared_h_sd", DType.FP32, depth, t, 1);
    }

    /** The routed experts' output lanes and their int8 activations with scales. */
    public void routed(List<Dsv4HeapPlan.Alloc> l, long t, Dsv4Dims m, int depth) {
        long lanes = (long) nLocal * recvMax((int) t);
        add(l, "moe", "recv_y", DType.BF16, depth, lanes, m.d());
        add(l, "expert_routed", "routed_h_i8", DType.INT8, depth, lanes, inter);
        add(l, "expert_routed", "routed_h_sd", DType.FP32, depth, lanes, 1);
    }

    /** The reduction sh + routed, before hc_post. */
    public void ffnOut(List<Dsv4HeapPlan.Alloc> l, long t, Dsv4Dims m, int depth) {
        add(l, "moe", "ffn_out", DType.BF16, depth, t, m.d());
    }

    private static void add(List<Dsv4HeapPlan.Alloc> l, String stage, String name, DType dtype, int depth,
                            long... shape) {
        l.add(new Dsv4HeapPlan.Alloc(stage, name, dtype, shape, depth));
    }

    /** A fresh list, for callers assembling a plan. */
    public static List<Dsv4HeapPlan.Alloc> plan() {
        return new ArrayList<>();
    }
}
