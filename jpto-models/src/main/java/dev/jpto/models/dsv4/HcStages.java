package dev.jpto.models.dsv4;

import java.util.stream.IntStream;

/** hc_pre (spec §3.1) and hc_post_prefill (§3.12): the hyper-connection mix around the attention. */
final class HcStages {
    private HcStages() {
    }

    /** hc_pre outputs: {@code xMixed [T,D]} (bf16 values), {@code post [T,4]}, {@code comb [T,16]} (fp32). */
    record Pre(float[] xMixed, float[] post, float[] comb) {
    }

    static Pre pre(float[] x, float[] fn, float[] scale, float[] base, Dsv4Dims m, int t) {
        int d = m.d();
        int hc = m.hcMult();
        int k = m.hcDim();
        int mix = m.mixHc();
        float[] xMixed = new float[t * d];
        float[] post = new float[t * hc];
        float[] comb = new float[t * hc * hc];
        IntStream.range(0, t).parallel().forEach(row -> {
            int xo = row * k;
            double ss = 0;
            for (int i = 0; i < k; i++) {
                ss += (double) x[xo + i] * x[xo + i];
            }
            float inv = (float) (1.0 / Math.sqrt(ss / k + m.eps()));
            float[] mixes = new float[mix];
            for (int j = 0; j < mix; j++) {
                double acc = 0;
                int fo = j * k;
                for (int i = 0; i < k; i++) {
                    acc += (double) x[xo + i] * fn[fo + i];
                }
                mixes[j] = (float) acc;
            }
            float[] pre = new float[hc];
            for (int h = 0; h < hc; h++) {
                pre[h] = (float) (sigmoid(mixes[h] * inv * scale[0] + base[h]) + m.hcEps());
                post[row * hc + h] = (float) (2 * sigmoid(mixes[hc + h] * inv * scale[1] + base[hc + h]));
            }
            float[] c = sinkhorn(mixes, inv, scale[2], base, hc, m.sinkhornIters(), (float) m.hcEps());
            System.arraycopy(c, 0, comb, row * hc * hc, hc * hc);
            for (int dd = 0; dd < d; dd++) {
                float a = pre[0] * x[xo + dd] + pre[1] * x[xo + d + dd];
                float b = pre[2] * x[xo + 2 * d + dd] + pre[3] * x[xo + 3 * d + dd];
                xMixed[row * d + dd] = Dsv4Numerics.bf16(a + b);
            }
        });
        return new Pre(xMixed, post, comb);
    }

    /** comb[i][j]: softmax over j of the logits, + eps, column-normalised, then (iters−1)× row then column. */
    static float[] sinkhorn(float[] mixes, float inv, float scale2, float[] base, int hc, int iters, float eps) {
        float[] c = new float[hc * hc];
        int off = 2 * hc;
        for (int i = 0; i < hc; i++) {
            float mx = Float.NEGATIVE_INFINITY;
            float[] l = new float[hc];
            for (int j = 0; j < hc; j++) {
                l[j] = mixes[off + hc * i + j] * inv * scale2 + base[off + hc * i + j];
                mx = Math.max(mx, l[j]);
            }
            float sum = 0;
            for (int j = 0; j < hc; j++) {
                l[j] = (float) Math.exp(l[j] - mx);
                sum += l[j];
            }
            for (int j = 0; j < hc; j++) {
                c[i * hc + j] = l[j] / sum + eps;
            }
        }
        normaliseColumns(c, hc, eps);
        for (int it = 1; it < iters; it++) {
            for (int i = 0; i < hc; i++) {
                float s = 0;
                for (int j = 0; j < hc; j++) {
                    s += c[i * hc + j];
                }
                for (int j = 0; j < hc; j++) {
                    c[i * hc + j] /= s + eps;
                }
            }
            normaliseColumns(c, hc, eps);
        }
        return c;
    }

    private static void normaliseColumns(float[] c, int hc, float eps) {
        for (int j = 0; j < hc; j++) {
            float s = 0;
            for (int i = 0; i < hc; i++) {
                s += c[i * hc + j];
            }
            for (int i = 0; i < hc; i++) {
                c[i * hc + j] /= s + eps;
            }
        }
    }

    static double sigmoid(double z) {
        return 1.0 / (1.0 + Math.exp(-z));
    }

    /**
     * hc_post_prefill split in its two terms: {@code share[t,o,:] = attn_out·post[t,o]} and
     * {@code residual[t,o,:] = Σ_i x[t,i,:]·comb[t,4i+o]}; {@code xOut} adds them in the kernel's order
     * (share first, then i = 0..3). Padding rows stay exactly 0.
     */
    static void post(float[] attnOut, float[] x, float[] post, float[] comb, int t, int numTokens, int hc, int d,
                     float[] xOut, float[] share, float[] residual) {
        IntStream.range(0, numTokens).parallel().forEach(row -> {
            for (int o = 0; o < hc; o++) {
                int oo = (row * hc + o) * d;
                float p = post[row * hc + o];
                for (int dd = 0; dd < d; dd++) {
                    float a = attnOut[row * d + dd] * p;
                    float acc = a;
                    float res = 0;
                    for (int i = 0; i < hc; i++) {
                        float term = x[(row * hc + i) * d + dd] * comb[row * hc * hc + hc * i + o];
                        acc += term;
                        res += term;
                    }
                    xOut[oo + dd] = acc;
                    share[oo + dd] = a;
                    residual[oo + dd] = res;
                }
            }
        });
    }
}
