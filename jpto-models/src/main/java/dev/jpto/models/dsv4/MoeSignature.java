package dev.jpto.models.dsv4;

import dev.jpto.isa.DType;
import java.util.ArrayList;
import java.util.List;

/**
 * The MoE FFN's parameters (the original's {@code moe.build_tensor_specs}, per rank): the FFN hyper-connection,
 * the router, the shared expert (replicated on every rank) and one rank's routed-expert shard.
 */
public final class MoeSignature {
    /** hc_ffn_scale of the original's fixture (real layer-0 values). */
    static final double[] HC_FFN_SCALE = {0.11334, 0.035901, 0.058183};
    /** hc_ffn_base of the original's fixture (real layer-0 values, MIX_HC = 24). */
    static final double[] HC_FFN_BASE = {2.4153, -2.0252, -2.0019, -2.1947, -1.5430, -3.0228, -6.8248, 0.5894,
        2.1916, -7.2132, -3.0938, -2.1119, -3.0161, 3.3293, -3.2224, -4.0226, -2.0428, -3.3478, 3.0893, -3.4166,
        -1.8144, -3.8147, -3.1307, 1.7862};

    private MoeSignature() {
    }

    /** The names of one rank's routed-expert shard, in parameter order. */
    public static final List<String> ROUTED = List.of("routed_w1", "routed_w1_scale", "routed_w3", "routed_w3_scale",
            "routed_w2", "routed_w2_scale");

    /** FFN hyper-connection and router: hc_ffn_fn/scale/base, norm_w, gate_w, gate_bias. */
    public static List<TensorSpec> gateParams(Dsv4Preset p, Dsv4Moe moe) {
        Dsv4Dims m = p.dims();
        List<TensorSpec> l = new ArrayList<>();
        int e = moe.nExperts();
        in(l, "hc_ffn_fn", DType.FP32, Init.normal(0, 0.0635), m.mixHc(), m.hcDim());
        in(l, "hc_ffn_scale", DType.FP32, new Init.Values(HC_FFN_SCALE), 3);
        in(l, "hc_ffn_base", DType.FP32, new Init.Values(HC_FFN_BASE), m.mixHc());
        in(l, "norm_w", DType.BF16, Init.constant(1), m.d());
        in(l, "gate_w", DType.FP32, Init.normal(0, 1 / Math.sqrt(m.d())), e, m.d());
        in(l, "gate_bias", DType.FP32, new Init.Values(moe.gateBiasFixture()), e);
        return l;
    }

    /** The shared expert: int8 [MOE_INTER, D] / [D, MOE_INTER] with per-output-row fp32 scales. */
    public static List<TensorSpec> sharedParams(Dsv4Preset p, Dsv4Moe moe) {
        int d = p.dims().d();
        int f = moe.inter();
        List<TensorSpec> l = new ArrayList<>();
        shared(l, "shared_w1", f, d, 7.65e-3, 0.50);
        shared(l, "shared_w3", f, d, 7.39e-3, 0.50);
        shared(l, "shared_w2", d, f, 2.39e-2, 0.33);
        return l;
    }

    /** Rank {@code rank}'s routed experts; each rank draws its shard from its own streams ({@code name@r<rank>}). */
    public static List<TensorSpec> routedParams(Dsv4Preset p, Dsv4Moe moe, int rank) {
        int d = p.dims().d();
        int f = moe.inter();
        int nl = moe.nLocal();
        List<TensorSpec> l = new ArrayList<>();
        routed(l, "routed_w1", rank, nl, f, d, 1.08e-2);
        routed(l, "routed_w3", rank, nl, f, d, 1.10e-2);
        routed(l, "routed_w2", rank, nl, d, f, 2.54e-2);
        List<TensorSpec> ordered = new ArrayList<>();
        for (String n : ROUTED) {
            ordered.add(l.stream().filter(s -> s.name().equals(n)).findFirst().orElseThrow());
        }
        return ordered;
    }

    /** The one-chip MoE program ({@code dsv4.moe}): x_hc, every parameter above for one rank, and x_next. */
    public static List<TensorSpec> standalone(Dsv4Preset p) {
        Dsv4Moe moe = Dsv4Moe.of(p, 1);
        Dsv4Dims m = p.dims();
        List<TensorSpec> l = new ArrayList<>();
        in(l, "x_hc", DType.FP32, Init.normal(0, 1), p.t(), m.hcMult(), m.d());
        l.addAll(gateParams(p, moe));
        l.addAll(routedParams(p, moe, 0));
        l.addAll(sharedParams(p, moe));
        l.add(new TensorSpec("x_next", DType.FP32, new long[] {p.t(), m.hcMult(), m.d()}, TensorSpec.Direction.OUT,
                Init.zeros(), true));
        return l;
    }

    private static void shared(List<TensorSpec> l, String name, int out, int in, double std, double cv) {
        Dsv4Fills.SharedWeight w = Dsv4Fills.sharedWeight(name, out, in, std, cv, false); // one pass for both
        in(l, name, DType.INT8, w.codes(), out, in);
        in(l, name + "_scale", DType.FP32, w.scales(), out);
    }

    private static void routed(List<TensorSpec> l, String name, int rank, int nl, int out, int in, double std) {
        String stream = name + "@r" + rank;
        MoeFills.RoutedWeight w = MoeFills.routedWeight(stream, nl, out, in, std); // one pass for codes and scales
        in(l, name, DType.INT8, w.codes(), nl, out, in);
        in(l, name + "_scale", DType.FP32, w.scales(), nl, out);
    }

    private static void in(List<TensorSpec> l, String name, DType dtype, Init init, long... shape) {
        l.add(new TensorSpec(name, dtype, shape, TensorSpec.Direction.IN, init, false));
    }
}
