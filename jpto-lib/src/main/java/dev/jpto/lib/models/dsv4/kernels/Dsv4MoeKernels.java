package dev.jpto.lib.models.dsv4.kernels;

import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.compiler.ir.Program;
import dev.jpto.lib.models.dsv4.Dsv4Faults;
import dev.jpto.lib.models.dsv4.Dsv4HeapPlan;
import dev.jpto.lib.models.dsv4.Dsv4Moe;
import dev.jpto.lib.models.dsv4.Dsv4Preset;
import dev.jpto.lib.models.dsv4.MoeSignature;
import dev.jpto.lib.models.dsv4.TensorSpec;
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
                MoeKernels.dispatch(b, moe, 0, List.of(own), recvW);
                TensorVar sh = b.alloc("sh");
                MoeKernels.shared(b, moe, own, v.get("shared_w1"), v.get("shared_w1_scale"), v.get("shared_w3"),
                        v.get("shared_w3_scale"), v.get("shared_w2"), v.get("shared_w2_scale"), sh);
                o.scope(() -> {
                    TensorVar recvY = b.alloc("recv_y");
                    MoeKernels.routed(b, moe, List.of(own), recvW, weights(v), recvY);
                    TensorVar ffn = b.alloc("ffn_out");
                    MoeKernels.combine(b, moe, 0, sh, List.of(recvY), ffn);
                    OutProjKernels.hcPost(b, ffn, v.get("x_hc"), pre.post(), pre.comb(), v.get("x_next"));
                });
            });
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
