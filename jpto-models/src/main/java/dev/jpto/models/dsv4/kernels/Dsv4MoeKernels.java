package dev.jpto.models.dsv4.kernels;

import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.compiler.ir.Program;
import dev.jpto.isa.DType;
import dev.jpto.models.dsv4.Dsv4Faults;
import dev.jpto.models.dsv4.Dsv4HeapPlan;
import dev.jpto.models.dsv4.Dsv4Moe;
import dev.jpto.models.dsv4.Dsv4Preset;
import dev.jpto.models.dsv4.MoeSignature;
import dev.jpto.models.dsv4.TensorSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The MoE FFN as chip programs. {@link #standalone} is the one-chip {@code moe} (every expert local: gate, shared
 * expert, dispatch, routed experts, combine, hc_post in one body scope, the routed part in the original's inner
 * {@code pl.scope()}).
 */
public final class Dsv4MoeKernels {
    private Dsv4MoeKernels() {
    }

    /** The heap plan of {@link #standalone}, in allocation order. */
    public static List<Dsv4HeapPlan.Alloc> standalonePlan(Dsv4Preset p) {
        Dsv4Moe moe = Dsv4Moe.of(p, 1);
        List<Dsv4HeapPlan.Alloc> l = Dsv4Moe.plan();
        Dsv4Moe.hcPre(l, "hc_pre", p.t(), p.dims());
        moe.gateOutputs(l, p.t(), p.dims());
        moe.gate(l, p.t(), p.dims());
        moe.dispatch(l, p.t(), 1);
        moe.shared(l, p.t(), p.dims(), 1);
        moe.routed(l, p.t(), p.dims(), 2);
        moe.ffnOut(l, p.t(), p.dims(), 2);
        return l;
    }

    /** The one-chip MoE program ({@code dsv4.moe}): parameters of {@link MoeSignature#standalone}, output x_next. */
    public static Program standalone(Dsv4Preset p) {
        requireFullChunk(p);
        Dsv4Moe moe = Dsv4Moe.of(p, 1);
        Dsv4Build b = new Dsv4Build("moe", null, p, Dsv4Faults.NONE, standalonePlan(p));
        Map<String, TensorVar> v = declare(b, MoeSignature.standalone(p));
        int t = p.t();
        int d = p.dims().d();
        int hc = p.dims().hcMult();
        b.p.orchestrate(o -> {
            b.o = o;
            o.scope(() -> {
                TensorVar xHc = v.get("x_hc").reshape(t, (long) hc * d);
                HcPreStage.Out pre = HcPreStage.run(b, xHc, v.get("hc_ffn_fn"), v.get("hc_ffn_scale"),
                        v.get("hc_ffn_base"));
                MoeKernels.GateOut g = new MoeKernels.GateOut(b.alloc("x_norm_i8"), b.alloc("x_norm_scale"),
                        b.alloc("indices"), b.alloc("weights"));
                MoeKernels.gate(b, moe, pre.xMixed(), v.get("norm_w"), v.get("gate_w"), v.get("gate_bias"), g);
                MoeKernels.Source own = new MoeKernels.Source(g.xNormI8(), g.xNormScale(), g.indices(),
                        g.weights());
                TensorVar recvW = b.alloc("recv_w");
                TensorVar active = b.alloc("recv_active");
                MoeKernels.dispatch(b, moe, 0, List.of(own), recvW, active);
                TensorVar sh = b.alloc("sh");
                MoeKernels.shared(b, moe, own, v.get("shared_w1"), v.get("shared_w1_scale"), v.get("shared_w3"),
                        v.get("shared_w3_scale"), v.get("shared_w2"), v.get("shared_w2_scale"), sh);
                o.scope(() -> {
                    TensorVar recvY = b.alloc("recv_y");
                    MoeKernels.routed(b, moe, List.of(own), recvW, active, weights(v), recvY);
                    TensorVar ffn = b.alloc("ffn_out");
                    MoeKernels.combine(b, moe, 0, sh, List.of(recvY), ffn);
                    OutProjKernels.hcPost(b, ffn, v.get("x_hc"), pre.post(), pre.comb(), v.get("x_next"));
                });
            });
        });
        return b.p.build();
    }

    // ---- the expert-parallel stages (one chip program each, per rank), for the L3 programs ----

    /** Parameter names of source rank {@code s}'s dispatch inputs to the experts program. */
    public static List<String> sourceNames(int s) {
        return List.of("x_norm_i8_s" + s, "x_norm_scale_s" + s, "indices_s" + s, "weights_s" + s);
    }

    /**
     * {@code moe_gate}: hc_pre of the FFN and the router for one rank's T tokens. In: x_hc [T, HC, D] and
     * {@link MoeSignature#gateParams}; out: x_norm_i8, x_norm_scale, indices, weights, post, comb.
     */
    public static Program gateProgram(Dsv4Preset p, Dsv4Moe moe) {
        requireFullChunk(p);
        int t = p.t();
        int d = p.dims().d();
        int hc = p.dims().hcMult();
        List<Dsv4HeapPlan.Alloc> plan = Dsv4Moe.plan();
        Dsv4Moe.hcPre(plan, "hc_pre", t, p.dims(), false);
        moe.gate(plan, t, p.dims());
        Dsv4Build b = new Dsv4Build("moe_gate", null, p, Dsv4Faults.NONE, plan);
        Map<String, TensorVar> v = new HashMap<>();
        v.put("x_hc", b.p.input("x_hc", DType.FP32, t, hc, d));
        for (TensorSpec s : MoeSignature.gateParams(p, moe)) {
            v.put(s.name(), b.p.input(s.name(), s.dtype(), s.shape()));
        }
        MoeKernels.GateOut g = new MoeKernels.GateOut(b.p.output("x_norm_i8", DType.INT8, t, d),
                b.p.output("x_norm_scale", DType.FP32, t, 1),
                b.p.output("indices", DType.INT32, t, moe.topk()),
                b.p.output("weights", DType.FP32, t, moe.topk()));
        TensorVar post = b.p.output("post", DType.FP32, t, hc);
        TensorVar comb = b.p.output("comb", DType.FP32, t, (long) hc * hc);
        b.p.orchestrate(o -> {
            b.o = o;
            o.scope(() -> {
                HcPreStage.Out pre = HcPreStage.run(b, v.get("x_hc").reshape(t, (long) hc * d), v.get("hc_ffn_fn"),
                        v.get("hc_ffn_scale"), v.get("hc_ffn_base"), post, comb);
                MoeKernels.gate(b, moe, pre.xMixed(), v.get("norm_w"), v.get("gate_w"), v.get("gate_bias"), g);
            });
        });
        return b.p.build();
    }

    /**
     * {@code moe_experts_r<rank>}: dispatch weights of this rank's experts from every source rank's routes, the
     * routed experts over all receive lanes, and the shared expert on this rank's own tokens. In: the
     * {@link #sourceNames} of every rank, this rank's routed shard, the shared expert; out: recv_y
     * [N_LOCAL·RECV_MAX, D] and sh [T, D] (bf16).
     */
    public static Program expertsProgram(Dsv4Preset p, Dsv4Moe moe, int rank) {
        requireFullChunk(p);
        int t = p.t();
        int d = p.dims().d();
        List<Dsv4HeapPlan.Alloc> plan = Dsv4Moe.plan();
        moe.dispatch(plan, t, 1);
        List<Dsv4HeapPlan.Alloc> shared = Dsv4Moe.plan();
        moe.shared(shared, t, p.dims(), 1);
        plan.addAll(shared.subList(1, shared.size())); // sh is an output here
        List<Dsv4HeapPlan.Alloc> routed = Dsv4Moe.plan();
        moe.routed(routed, t, p.dims(), 2);
        plan.addAll(routed.subList(1, routed.size())); // recv_y is an output here
        Dsv4Build b = new Dsv4Build("moe_experts_r" + rank, null, p, Dsv4Faults.NONE, plan);
        List<MoeKernels.Source> sources = new ArrayList<>();
        for (int s = 0; s < moe.ranks(); s++) {
            List<String> n = sourceNames(s);
            sources.add(new MoeKernels.Source(b.p.input(n.get(0), DType.INT8, t, d),
                    b.p.input(n.get(1), DType.FP32, t, 1),
                    b.p.input(n.get(2), DType.INT32, t, moe.topk()),
                    b.p.input(n.get(3), DType.FP32, t, moe.topk())));
        }
        Map<String, TensorVar> v = new HashMap<>();
        for (TensorSpec s : MoeSignature.routedParams(p, moe, rank)) {
            v.put(s.name(), b.p.input(s.name(), s.dtype(), s.shape()));
        }
        for (TensorSpec s : MoeSignature.sharedParams(p, moe)) {
            v.put(s.name(), b.p.input(s.name(), s.dtype(), s.shape()));
        }
        TensorVar recvY = b.p.output("recv_y", DType.BF16, (long) moe.nLocal() * moe.recvMax(t), d);
        TensorVar sh = b.p.output("sh", DType.BF16, t, d);
        b.p.orchestrate(o -> {
            b.o = o;
            o.scope(() -> {
                TensorVar recvW = b.alloc("recv_w");
                TensorVar active = b.alloc("recv_active");
                MoeKernels.dispatch(b, moe, rank, sources, recvW, active);
                MoeKernels.shared(b, moe, sources.get(rank), v.get("shared_w1"), v.get("shared_w1_scale"),
                        v.get("shared_w3"), v.get("shared_w3_scale"), v.get("shared_w2"), v.get("shared_w2_scale"),
                        sh);
                o.scope(() -> MoeKernels.routed(b, moe, sources, recvW, active, weights(v), recvY));
            });
        });
        return b.p.build();
    }

    /**
     * {@code moe_combine_r<rank>}: ffn_out = sh + this rank's lanes of every rank's recv_y, then hc_post. In:
     * x_hc, post, comb, sh, recv_y_d0..; out: x_next [T, HC, D].
     */
    public static Program combineProgram(Dsv4Preset p, Dsv4Moe moe, int rank) {
        requireFullChunk(p);
        int t = p.t();
        int d = p.dims().d();
        int hc = p.dims().hcMult();
        List<Dsv4HeapPlan.Alloc> plan = Dsv4Moe.plan();
        moe.ffnOut(plan, t, p.dims(), 2);
        Dsv4Build b = new Dsv4Build("moe_combine_r" + rank, null, p, Dsv4Faults.NONE, plan);
        TensorVar xHc = b.p.input("x_hc", DType.FP32, t, hc, d);
        TensorVar post = b.p.input("post", DType.FP32, t, hc);
        TensorVar comb = b.p.input("comb", DType.FP32, t, (long) hc * hc);
        TensorVar sh = b.p.input("sh", DType.BF16, t, d);
        List<TensorVar> recvY = new ArrayList<>();
        for (int r = 0; r < moe.ranks(); r++) {
            recvY.add(b.p.input("recv_y_d" + r, DType.BF16, (long) moe.nLocal() * moe.recvMax(t), d));
        }
        TensorVar xNext = b.p.output("x_next", DType.FP32, t, hc, d);
        b.p.orchestrate(o -> {
            b.o = o;
            o.scope(() -> o.scope(() -> {
                TensorVar ffn = b.alloc("ffn_out");
                MoeKernels.combine(b, moe, rank, sh, recvY, ffn);
                OutProjKernels.hcPost(b, ffn, xHc, post, comb, xNext);
            }));
        });
        return b.p.build();
    }

    static MoeKernels.ExpertWeights weights(Map<String, TensorVar> v) {
        return new MoeKernels.ExpertWeights(v.get("routed_w1"), v.get("routed_w1_scale"), v.get("routed_w3"),
                v.get("routed_w3_scale"), v.get("routed_w2"), v.get("routed_w2_scale"));
    }

    /** Declares the signature's inputs then its outputs, in order. */
    static Map<String, TensorVar> declare(Dsv4Build b, List<TensorSpec> sig) {
        Map<String, TensorVar> v = new HashMap<>();
        for (TensorSpec s : sig) {
            if (s.direction() == TensorSpec.Direction.IN) {
                v.put(s.name(), b.p.input(s.name(), s.dtype(), s.shape()));
            }
        }
        for (TensorSpec s : sig) {
            if (s.direction() != TensorSpec.Direction.IN) {
                v.put(s.name(), b.p.output(s.name(), s.dtype(), s.shape()));
            }
        }
        return v;
    }

    private static void requireFullChunk(Dsv4Preset p) {
        if (p.numTokens() != p.t()) {
            throw new IllegalArgumentException("dsv4 MoE: num_tokens=" + p.numTokens() + " must equal T=" + p.t()
                    + " (the MoE kernels route every row of the chunk; partial chunks are not supported)");
        }
    }
}
