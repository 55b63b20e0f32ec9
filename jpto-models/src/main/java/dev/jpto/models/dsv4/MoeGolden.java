package dev.jpto.models.dsv4;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Plain-Java reference of the MoE FFN (the original's {@code golden_moe}), written from the math: hc_pre of the
 * FFN, the deferred RMSNorm and per-token int8 quantisation, the router (sqrt-softplus scores, biased top-k with
 * ties to the lower id, weights normalised over the top-k and scaled), every route's SwiGLU expert (exact int8
 * matmuls, dequantised after the reduction, int8 requantisation of the activation), the shared expert, the
 * reduction sh + Σ_k routed (fp32, k in order, then bf16) and hc_post. Expert parallelism only moves rows, so rank
 * r's output depends on every rank's shard only through its own routes: each route is computed with the shard of
 * the rank that owns its expert.
 */
public final class MoeGolden {
    private MoeGolden() {
    }

    /** Gate outputs of one rank, plus hc_pre's post/comb. */
    public record Gate(byte[] xI8, float[] xScale, int[] indices, float[] weights, float[] post, float[] comb) {
    }

    /**
     * x_next of every rank: {@code xHc.get(r)} is rank r's [T, HC, D] input, {@code params.get(r)} its parameters
     * (gate, shared and its own routed shard, by the names of {@link MoeSignature}).
     */
    public static List<float[]> run(Dsv4Preset p, Dsv4Moe moe, List<float[]> xHc, List<Map<String, Tensor>> params) {
        int ranks = moe.ranks();
        if (xHc.size() != ranks || params.size() != ranks) {
            throw new IllegalArgumentException("MoE golden needs one x_hc and one parameter set per rank: ranks="
                    + ranks + " x_hc=" + xHc.size() + " params=" + params.size());
        }
        List<Shard> shards = new ArrayList<>();
        for (Map<String, Tensor> prm : params) {
            shards.add(Shard.of(prm, moe));
        }
        List<Gate> gates = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            gates.add(gate(p, moe, xHc.get(r), params.get(r)));
        }
        List<float[]> routed = routed(p, moe, gates, shards);
        List<float[]> out = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            out.add(rank(p, moe, xHc.get(r), params.get(r), shards.get(0), gates.get(r), routed.get(r)));
        }
        return out;
    }

    /**
     * Every route of every rank, [T, topk, D] per rank: routes are grouped by expert across all ranks so each
     * expert's weights are read (and transposed) once; each row's result depends only on its own row, so the
     * grouping does not change a bit.
     */
    private static List<float[]> routed(Dsv4Preset p, Dsv4Moe moe, List<Gate> gates, List<Shard> shards) {
        int t = p.t();
        int d = p.dims().d();
        int k = moe.topk();
        List<float[]> routed = new ArrayList<>();
        for (int r = 0; r < gates.size(); r++) {
            routed.add(new float[t * k * d]);
        }
        int[] count = new int[moe.nExperts()];
        for (Gate g : gates) {
            for (int e : g.indices()) {
                count[e]++;
            }
        }
        for (int e = 0; e < moe.nExperts(); e++) {
            int n = count[e];
            if (n == 0) {
                continue;
            }
            byte[] x = new byte[n * d];
            float[] xs = new float[n];
            float[] w = new float[n];
            int[] rankOf = new int[n];
            int[] routeOf = new int[n];
            int i = 0;
            for (int r = 0; r < gates.size(); r++) {
                Gate g = gates.get(r);
                for (int route = 0; route < t * k; route++) {
                    if (g.indices()[route] == e) {
                        int row = route / k;
                        System.arraycopy(g.xI8(), row * d, x, i * d, d);
                        xs[i] = g.xScale()[row];
                        w[i] = g.weights()[route];
                        rankOf[i] = r;
                        routeOf[i] = route;
                        i++;
                    }
                }
            }
            float[] y = swiglu(x, xs, w, n, d, shards.get(e / moe.nLocal()), e % moe.nLocal(), moe, allRows(n));
            for (int j = 0; j < n; j++) {
                System.arraycopy(y, j * d, routed.get(rankOf[j]), routeOf[j] * d, d);
            }
        }
        return routed;
    }

    /** {@link #run} on tensors: rank r's x_next into {@code out.get(r)}. */
    public static void run(Dsv4Preset p, Dsv4Moe moe, List<Tensor> xHc, List<Map<String, Tensor>> params,
                           List<Tensor> out) {
        List<float[]> x = new ArrayList<>();
        for (Tensor t : xHc) {
            x.add(Arrays32.floats(t));
        }
        List<float[]> y = run(p, moe, x, params);
        for (int r = 0; r < y.size(); r++) {
            Arrays32.store(out.get(r), y.get(r));
        }
    }

    /** The one-chip MoE ({@code dsv4.moe}): x_next of {@link MoeSignature#standalone}'s inputs into {@code out}. */
    public static void standalone(Dsv4Preset p, Map<String, Tensor> in, Tensor out) {
        Dsv4Moe moe = Dsv4Moe.of(p, 1);
        Arrays32.store(out, run(p, moe, List.of(Arrays32.floats(in.get("x_hc"))), List.of(in)).getFirst());
    }

    private static float[] rank(Dsv4Preset p, Dsv4Moe moe, float[] x, Map<String, Tensor> prm, Shard any, Gate g,
                                float[] routed) {
        Dsv4Dims m = p.dims();
        int t = p.t();
        int d = m.d();
        int k = moe.topk();
        Shard own = any.shared(prm, moe);
        float[] sh = swiglu(g.xI8(), g.xScale(), null, t, d, own, 0, moe, allRows(t));
        float[] ffn = new float[t * d];
        for (int row = 0; row < t; row++) {
            for (int c = 0; c < d; c++) {
                float acc = sh[row * d + c];
                for (int j = 0; j < k; j++) {
                    acc += routed[(row * k + j) * d + c];
                }
                ffn[row * d + c] = Dsv4Numerics.bf16(acc);
            }
        }
        int hc = m.hcMult();
        float[] xNext = new float[t * hc * d];
        HcStages.post(ffn, x, g.post(), g.comb(), t, p.numTokens(), hc, d, xNext, new float[xNext.length],
                new float[xNext.length]);
        return xNext;
    }

    /** gate.py: hc_pre, Σx² in 8 partial sums, xg = x·gamma, int8 of xg, scores, biased top-k, weights. */
    public static Gate gate(Dsv4Preset p, Dsv4Moe moe, float[] x, Map<String, Tensor> prm) {
        Dsv4Dims m = p.dims();
        int t = p.t();
        int d = m.d();
        int e = moe.nExperts();
        int k = moe.topk();
        HcStages.Pre pre = HcStages.pre(x, Arrays32.floats(prm.get("hc_ffn_fn")),
                Arrays32.floats(prm.get("hc_ffn_scale")), Arrays32.floats(prm.get("hc_ffn_base")), m, t);
        float[] normW = Arrays32.floats(prm.get("norm_w"));
        float[] gateW = Arrays32.floats(prm.get("gate_w"));
        float[] bias = Arrays32.floats(prm.get("gate_bias"));
        byte[] xI8 = new byte[t * d];
        float[] xScale = new float[t];
        int[] indices = new int[t * k];
        float[] weights = new float[t * k];
        float[] xg = new float[d];
        for (int row = 0; row < t; row++) {
            double ss = 0;
            for (int c = 0; c < d; c++) {
                float v = pre.xMixed()[row * d + c];
                ss += (double) v * v;
                xg[c] = v * normW[c];
            }
            float inv = (float) (1.0 / Math.sqrt(ss / d + m.eps()));
            float amax = 0;
            for (int c = 0; c < d; c++) {
                amax = Math.max(amax, Math.abs(xg[c]));
            }
            float sq = Dsv4Numerics.quantMultiplier(amax);
            for (int c = 0; c < d; c++) {
                xI8[row * d + c] = (byte) Dsv4Numerics.i8q(xg[c] * sq);
            }
            xScale[row] = (1.0f / sq) * inv;
            float[] score = new float[e];
            Integer[] order = new Integer[e];
            float[] biased = new float[e];
            for (int j = 0; j < e; j++) {
                double acc = 0;
                for (int c = 0; c < d; c++) {
                    acc += (double) xg[c] * gateW[j * d + c];
                }
                double l = inv * (float) acc;
                double softplus = Math.max(l, 0) + Math.log1p(Math.exp(-Math.abs(l)));
                score[j] = (float) Math.sqrt(softplus);
                biased[j] = score[j] + bias[j];
                order[j] = j;
            }
            Arrays.sort(order, (a, b) -> Float.compare(biased[b], biased[a])); // stable: ties keep the lower id
            float den = 0;
            for (int j = 0; j < k; j++) {
                indices[row * k + j] = order[j];
                den += score[order[j]];
            }
            for (int j = 0; j < k; j++) {
                weights[row * k + j] = (float) (score[order[j]] / den * moe.routeScale());
            }
        }
        return new Gate(xI8, xScale, indices, weights, pre.post(), pre.comb());
    }

    /**
     * SwiGLU of {@code rows} of x through expert {@code e} of {@code s}: rows of int8 x (row index {@code rowIx[i]}),
     * gate/up dequantised after the exact int32 reduction, clamp, silu(gate)·up, int8 requantisation per row, W2,
     * y = float(y_int)·(h_sd·w)·w2_scale as bf16 values ({@code w} null: the shared expert, y_int·h_sd·w2_scale).
     */
    static float[] swiglu(byte[] xAll, float[] xScaleAll, float[] w, int n, int d, Shard s, int e, Dsv4Moe moe,
                          int[] rowIx) {
        int f = moe.inter();
        byte[] x = new byte[n * d];
        float[] xs = new float[n];
        for (int i = 0; i < n; i++) {
            System.arraycopy(xAll, rowIx[i] * d, x, i * d, d);
            xs[i] = xScaleAll[rowIx[i]];
        }
        int[] gi = Dsv4Matmul.i8(x, 0, d, n, s.w1T(e));
        int[] ui = Dsv4Matmul.i8(x, 0, d, n, s.w3T(e));
        double lim = moe.swigluLimit();
        byte[] h8 = new byte[n * f];
        float[] hsd = new float[n];
        float[] h = new float[f];
        for (int i = 0; i < n; i++) {
            float amax = 0;
            for (int o = 0; o < f; o++) {
                float g = gi[i * f + o] * xs[i] * s.w1s()[e * f + o];
                float u = ui[i * f + o] * xs[i] * s.w3s()[e * f + o];
                if (lim > 0) {
                    g = (float) Math.min(g, lim);
                    u = (float) Math.max(-lim, Math.min(u, lim));
                }
                h[o] = (float) (g / (1 + Math.exp(-g))) * u;
                amax = Math.max(amax, Math.abs(h[o]));
            }
            float sq = Dsv4Numerics.quantMultiplier(amax);
            for (int o = 0; o < f; o++) {
                h8[i * f + o] = (byte) Dsv4Numerics.i8q(h[o] * sq);
            }
            hsd[i] = 1.0f / sq;
        }
        int[] yi = Dsv4Matmul.i8(h8, 0, f, n, s.w2T(e));
        float[] y = new float[n * d];
        for (int i = 0; i < n; i++) {
            float rs = w == null ? hsd[i] : hsd[i] * w[i];
            for (int c = 0; c < d; c++) {
                y[i * d + c] = Dsv4Numerics.bf16(yi[i * d + c] * rs * s.w2s()[e * d + c]);
            }
        }
        return y;
    }

    private static int[] allRows(int t) {
        int[] r = new int[t];
        Arrays.setAll(r, i -> i);
        return r;
    }

    /** One rank's expert weights ([experts, out, in] int8 codes, [experts, out] scales), transposed per expert. */
    record Shard(Tensor w1, float[] w1s, Tensor w3, float[] w3s, Tensor w2, float[] w2s, int d, int f) {
        static Shard of(Map<String, Tensor> prm, Dsv4Moe moe) {
            Tensor w1 = prm.get("routed_w1");
            return new Shard(w1, Arrays32.floats(prm.get("routed_w1_scale")), prm.get("routed_w3"),
                    Arrays32.floats(prm.get("routed_w3_scale")), prm.get("routed_w2"),
                    Arrays32.floats(prm.get("routed_w2_scale")), (int) w1.shape(2), moe.inter());
        }

        /** The shared expert seen as a one-expert shard. */
        Shard shared(Map<String, Tensor> prm, Dsv4Moe moe) {
            return new Shard(prm.get("shared_w1"), Arrays32.floats(prm.get("shared_w1_scale")), prm.get("shared_w3"),
                    Arrays32.floats(prm.get("shared_w3_scale")), prm.get("shared_w2"),
                    Arrays32.floats(prm.get("shared_w2_scale")), d, moe.inter());
        }

        Dsv4Matmul.I8B w1T(int e) {
            return transposed(w1, e, f, d);
        }

        Dsv4Matmul.I8B w3T(int e) {
            return transposed(w3, e, f, d);
        }

        Dsv4Matmul.I8B w2T(int e) {
            return transposed(w2, e, d, f);
        }

        /** Expert e's [out, in] codes (one bulk copy) seen as the [in, out] operand of a matmul. */
        private static Dsv4Matmul.I8B transposed(Tensor w, int e, int out, int in) {
            long base = (long) e * out * in;
            byte[] r = new byte[Math.multiplyExact(out, in)];
            if (w.isContiguous() && w.dtype() == DType.INT8) {
                MemorySegment.copy(w.buffer(), ValueLayout.JAVA_BYTE, w.offset() + base, r, 0, r.length);
            } else {
                for (int i = 0; i < r.length; i++) {
                    r[i] = (byte) w.getDouble(base + i);
                }
            }
            return Dsv4Matmul.I8B.transposed(r, 0, out, in, in);
        }
    }
}
