package dev.jpto.models.dsv4;

import dev.jpto.isa.DType;
import java.util.ArrayList;
import java.util.List;

/** The MTP block's own parameters (the original's {@code prefill_mtp} projection and head fixtures). */
public final class MtpSignature {
    /** mtp_hc_head_base of the original's fixture. */
    static final double[] HEAD_BASE = {5.9166, -3.6223, -2.9324, -3.3124};

    private MtpSignature() {
    }

    /** Per-rank token inputs: hidden_states [T, D] bf16 (N(0,1)), prev_hidden_states [T, HC, D] (bf16 N(0,1)). */
    public static List<TensorSpec> tokens(Dsv4Preset p) {
        Dsv4Dims m = p.dims();
        List<TensorSpec> l = new ArrayList<>();
        in(l, "hidden_states", DType.BF16, Init.normal(0, 1), p.t(), m.d());
        in(l, "prev_hidden_states", DType.FP32, new Init.Custom("bf16(N(0,1)) stored fp32", (t, c) -> {
            Init.RandomSource r = c.stream("prev_hidden_states");
            for (long i = 0; i < t.numel(); i++) {
                t.setDouble(i, Dsv4Numerics.bf16((float) r.normal()));
            }
        }), p.t(), m.hcMult(), m.d());
        return l;
    }

    /** enorm/hnorm (ones, fp32), e_proj/h_proj int8 [D, D] with per-output scales, smooth vectors (ones). */
    public static List<TensorSpec> projection(Dsv4Preset p) {
        int d = p.dims().d();
        List<TensorSpec> l = new ArrayList<>();
        in(l, "enorm_w", DType.FP32, Init.constant(1), d);
        in(l, "hnorm_w", DType.FP32, Init.constant(1), d);
        in(l, "e_proj_w", DType.INT8, MoeFills.projWeight("e_proj_w", d, d, false), d, d);
        in(l, "e_proj_w_scale", DType.FP32, MoeFills.projWeight("e_proj_w", d, d, true), d);
        in(l, "e_proj_smooth", DType.FP32, Init.constant(1), d);
        in(l, "h_proj_w", DType.INT8, MoeFills.projWeight("h_proj_w", d, d, false), d, d);
        in(l, "h_proj_w_scale", DType.FP32, MoeFills.projWeight("h_proj_w", d, d, true), d);
        in(l, "h_proj_smooth", DType.FP32, Init.constant(1), d);
        return l;
    }

    /** The MTP hc_head and its RMSNorm: mtp_hc_head_fn/scale/base, mtp_norm_w. */
    public static List<TensorSpec> head(Dsv4Preset p) {
        Dsv4Dims m = p.dims();
        List<TensorSpec> l = new ArrayList<>();
        in(l, "mtp_hc_head_fn", DType.FP32, Init.normal(0, 0.0519), m.hcMult(), m.hcDim());
        in(l, "mtp_hc_head_scale", DType.FP32, Init.constant(0.076099), 1);
        in(l, "mtp_hc_head_base", DType.FP32, new Init.Values(HEAD_BASE), m.hcMult());
        in(l, "mtp_norm_w", DType.BF16, Init.normal(1.0, 0.1), m.d());
        return l;
    }

    private static void in(List<TensorSpec> l, String name, DType dtype, Init init, long... shape) {
        l.add(new TensorSpec(name, dtype, shape, TensorSpec.Direction.IN, init, false));
    }
}
