package dev.jpto.models.dsv4;

import dev.jpto.isa.Tensor;
import java.util.Map;

/**
 * Plain-Java reference of the MTP block's own stages (the original's {@code golden_mtp_projection} and
 * {@code _golden_hc_head_prefill} + {@code golden_rms_norm}): fp32 with fp64 reductions, exact int8 matmuls.
 */
public final class MtpGolden {
    private MtpGolden() {
    }

    /**
     * projected[t, h, :] = e_proj(q(rms(hidden[t])·enorm·smooth)) + h_proj(q(rms(prev[t, h])·hnorm·smooth)), each
     * int8 per row, int32 matmul dequantised by row scale × output-channel scale.
     */
    public static void projection(Dsv4Preset p, Map<String, Tensor> in, Tensor hidden, Tensor prev, Tensor out) {
        int t = p.t();
        int d = p.dims().d();
        int hc = p.dims().hcMult();
        float[] e = linear(Arrays32.floats(hidden), t, d, Arrays32.floats(in.get("enorm_w")),
                Arrays32.floats(in.get("e_proj_smooth")), in.get("e_proj_w"),
                Arrays32.floats(in.get("e_proj_w_scale")), p.dims().eps());
        float[] h = linear(Arrays32.floats(prev), t * hc, d, Arrays32.floats(in.get("hnorm_w")),
                Arrays32.floats(in.get("h_proj_smooth")), in.get("h_proj_w"),
                Arrays32.floats(in.get("h_proj_w_scale")), p.dims().eps());
        float[] o = new float[t * hc * d];
        for (int row = 0; row < t; row++) {
            for (int j = 0; j < hc; j++) {
                for (int c = 0; c < d; c++) {
                    o[(row * hc + j) * d + c] = e[row * d + c] + h[(row * hc + j) * d + c];
                }
            }
        }
        Arrays32.store(out, o);
    }

    private static float[] linear(float[] x, int rows, int d, float[] normW, float[] smooth, Tensor w, float[] ws,
                                  double eps) {
        byte[] q = new byte[rows * d];
        float[] sd = new float[rows];
        for (int r = 0; r < rows; r++) {
            double ss = 0;
            for (int c = 0; c < d; c++) {
                ss += (double) x[r * d + c] * x[r * d + c];
            }
            float inv = (float) (1 / Math.sqrt(ss / d + eps));
            float[] n = new float[d];
            float amax = 0;
            for (int c = 0; c < d; c++) {
                n[c] = x[r * d + c] * inv * normW[c] * smooth[c];
                amax = Math.max(amax, Math.abs(n[c]));
            }
            float sq = Dsv4Numerics.quantMultiplier(amax);
            for (int c = 0; c < d; c++) {
                q[r * d + c] = (byte) Dsv4Numerics.i8q(n[c] * sq);
            }
            sd[r] = 1.0f / sq;
        }
        int[] acc = Dsv4Matmul.i8(q, 0, d, rows, Dsv4Matmul.I8B.transposed(Arrays32.bytes(w), 0, d, d, d));
        float[] y = new float[rows * d];
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < d; c++) {
                y[r * d + c] = acc[r * d + c] * sd[r] * ws[c];
            }
        }
        return y;
    }

    /**
     * hc_head + RMSNorm: inv = rsqrt(mean over HC·D of x² + eps), mix_h = (Σ x·fn_h)·inv, pre_h = σ(mix_h·scale +
     * base_h) + hc_eps, y = bf16((x0·p0 + x1·p1) + (x2·p2 + x3·p3)); hidden_out = bf16(y·rsqrt(mean y² + eps)·w).
     */
    public static void head(Dsv4Preset p, Map<String, Tensor> in, Tensor preHc, Tensor hiddenOut) {
        Dsv4Dims m = p.dims();
        int t = p.t();
        int d = m.d();
        int hc = m.hcMult();
        int k = m.hcDim();
        float[] x = Arrays32.floats(preHc);
        float[] fn = Arrays32.floats(in.get("mtp_hc_head_fn"));
        float scale = Arrays32.floats(in.get("mtp_hc_head_scale"))[0];
        float[] base = Arrays32.floats(in.get("mtp_hc_head_base"));
        float[] w = Arrays32.floats(in.get("mtp_norm_w"));
        float[] out = new float[t * d];
        float[] y = new float[d];
        for (int row = 0; row < t; row++) {
            int xo = row * k;
            double ss = 0;
            for (int i = 0; i < k; i++) {
                ss += (double) x[xo + i] * x[xo + i];
            }
            float inv = (float) (1 / Math.sqrt(ss / k + m.eps()));
            float[] pre = new float[hc];
            for (int h = 0; h < hc; h++) {
                double acc = 0;
                for (int i = 0; i < k; i++) {
                    acc += (double) x[xo + i] * fn[h * k + i];
                }
                pre[h] = (float) (HcStages.sigmoid((float) acc * inv * scale + base[h]) + m.hcEps());
            }
            double ys = 0;
            for (int c = 0; c < d; c++) {
                float a = x[xo + c] * pre[0] + x[xo + d + c] * pre[1];
                float b = x[xo + 2 * d + c] * pre[2] + x[xo + 3 * d + c] * pre[3];
                y[c] = Dsv4Numerics.bf16(a + b);
                ys += (double) y[c] * y[c];
            }
            float yi = (float) (1 / Math.sqrt(ys / d + m.eps()));
            for (int c = 0; c < d; c++) {
                out[row * d + c] = Dsv4Numerics.bf16(y[c] * yi * w[c]);
            }
        }
        Arrays32.store(hiddenOut, out);
    }
}
