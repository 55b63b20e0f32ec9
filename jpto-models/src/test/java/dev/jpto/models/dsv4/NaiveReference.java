package dev.jpto.models.dsv4;

import dev.jpto.isa.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A deliberately naive, direct double-precision evaluation of single output elements from the spec's formulas,
 * reading tensors element by element with {@link Tensor#getDouble}. It shares no code with the golden except the
 * bf16 rounding of {@link dev.jpto.isa.DType}, which is part of the definition of the math (spec §3.13).
 */
final class NaiveReference {
    private final Dsv4Preset p;
    private final Map<String, Tensor> in;
    private final Dsv4Dims m;

    NaiveReference(Dsv4Preset p, Map<String, Tensor> in) {
        this.p = p;
        this.in = in;
        this.m = p.dims();
    }

    double in(String name, long i) {
        return in.get(name).getDouble(i);
    }

    static double bf16(double x) {
        return Dsv4Numerics.bf16((float) x);
    }

    /** hc_pre of one row in double: {pre[4], post[4], comb[16]}. */
    double[][] hcPre(int t) {
        int k = m.hcDim();
        double ss = 0;
        for (int i = 0; i < k; i++) {
            double x = in("x_hc", (long) t * k + i);
            ss += x * x;
        }
        double inv = 1 / Math.sqrt(ss / k + m.eps());
        double[] mix = new double[24];
        for (int j = 0; j < 24; j++) {
            for (int i = 0; i < k; i++) {
                mix[j] += in("x_hc", (long) t * k + i) * in("hc_attn_fn", (long) j * k + i);
            }
        }
        double[] pre = new double[4];
        double[] post = new double[4];
        for (int h = 0; h < 4; h++) {
            pre[h] = 1 / (1 + Math.exp(-(mix[h] * inv * in("hc_attn_scale", 0) + in("hc_attn_base", h)))) + m.hcEps();
            post[h] = 2 / (1 + Math.exp(-(mix[4 + h] * inv * in("hc_attn_scale", 1) + in("hc_attn_base", 4 + h))));
        }
        double[][] c = new double[4][4];
        for (int i = 0; i < 4; i++) {
            double sum = 0;
            for (int j = 0; j < 4; j++) {
                c[i][j] = Math.exp(mix[8 + 4 * i + j] * inv * in("hc_attn_scale", 2) + in("hc_attn_base", 8 + 4 * i + j));
                sum += c[i][j];
            }
            for (int j = 0; j < 4; j++) {
                c[i][j] = c[i][j] / sum + m.hcEps();
            }
        }
        colNorm(c);
        for (int it = 1; it < m.sinkhornIters(); it++) {
            for (int i = 0; i < 4; i++) {
                double s = c[i][0] + c[i][1] + c[i][2] + c[i][3];
                for (int j = 0; j < 4; j++) {
                    c[i][j] /= s + m.hcEps();
                }
            }
            colNorm(c);
        }
        double[] comb = new double[16];
        for (int i = 0; i < 16; i++) {
            comb[i] = c[i / 4][i % 4];
        }
        return new double[][] {pre, post, comb};
    }

    private void colNorm(double[][] c) {
        for (int j = 0; j < 4; j++) {
            double s = c[0][j] + c[1][j] + c[2][j] + c[3][j];
            for (int i = 0; i < 4; i++) {
                c[i][j] /= s + m.hcEps();
            }
        }
    }

    /** x_normed row t (bf16 values at x_mixed and x_normed, as the math defines). */
    double[] xNormed(int t) {
        int d = m.d();
        double[] pre = hcPre(t)[0];
        double[] x = new double[d];
        double ss = 0;
        for (int i = 0; i < d; i++) {
            double v = 0;
            for (int h = 0; h < 4; h++) {
                v += pre[h] * in("x_hc", ((long) t * 4 + h) * d + i);
            }
            x[i] = bf16(v);
            ss += x[i] * x[i];
        }
        double inv = 1 / Math.sqrt(ss / d + m.eps());
        for (int i = 0; i < d; i++) {
            x[i] = bf16(x[i] * inv * in("attn_norm_w", i));
        }
        return x;
    }

    /** kv row of token t: x_normed·wkv, RMS·gamma, forward RoPE at pos, (unrounded). */
    double[] kv(int t) {
        double[] x = xNormed(t);
        int hd = m.headDim();
        double[] kv = new double[hd];
        for (int j = 0; j < hd; j++) {
            for (int i = 0; i < m.d(); i++) {
                kv[j] += x[i] * in("wkv", (long) i * hd + j);
            }
        }
        double ss = 0;
        for (double v : kv) {
            ss += v * v;
        }
        double inv = 1 / Math.sqrt(ss / hd + m.eps());
        for (int j = 0; j < hd; j++) {
            kv[j] *= inv * in("gamma_ckv", j);
        }
        rope(kv, m.nopeDim(), p.position(t), false);
        return kv;
    }

    void rope(double[] v, int off, int pos, boolean inverse) {
        int r = m.ropeDim();
        for (int i = 0; i < r / 2; i++) {
            double c = in("freqs_cos", (long) pos * r + i);
            double s = in("freqs_sin", (long) pos * r + i);
            double a = v[off + 2 * i];
            double b = v[off + 2 * i + 1];
            v[off + 2 * i] = inverse ? a * c + b * s : a * c - b * s;
            v[off + 2 * i + 1] = inverse ? b * c - a * s : a * s + b * c;
        }
    }

    /**
     * The ratio-4 compressed row closing at absolute position {@code w} (spec §3.7.1), before rounding: slots
     * w−7..w−4 from the first half of the projections, w−3..w from the second half; a position inside the chunk
     * uses the fresh projections (+ape), an earlier one the input state row.
     */
    double[] csaCompressed(int w, String prefix, String stateName, String tableName, int head) {
        int d = m.d();
        int out = 2 * head;
        double[] pooled = new double[head];
        double[][] xs = new double[8][];
        for (int slot = 0; slot < 8; slot++) {
            int a = w - 7 + slot;
            int t = a - p.startPos();
            xs[slot] = a >= 0 && t >= 0 && t < p.numTokens() ? xNormed(t) : null;
        }
        for (int ch = 0; ch < head; ch++) {
            double mx = Double.NEGATIVE_INFINITY;
            double[] kv = new double[8];
            double[] sc = new double[8];
            boolean[] used = new boolean[8];
            for (int slot = (w < 7 ? 4 : 0); slot < 8; slot++) {
                int a = w - 7 + slot;
                int lane = slot < 4 ? ch : head + ch;
                if (xs[slot] != null) {
                    for (int i = 0; i < d; i++) {
                        kv[slot] += xs[slot][i] * in(prefix + "_wkv", (long) lane * d + i);
                        sc[slot] += xs[slot][i] * in(prefix + "_wgate", (long) lane * d + i);
                    }
                    sc[slot] += in(prefix + "_ape", (long) (a % 4) * out + lane);
                } else {
                    long row = (long) in(tableName, a / 4) * 4 + a % 4;
                    kv[slot] = in(stateName, row * 2 * out + lane);
                    sc[slot] = in(stateName, row * 2 * out + out + lane);
                }
                used[slot] = true;
                mx = Math.max(mx, sc[slot]);
            }
            double l = 0;
            double o = 0;
            for (int slot = 0; slot < 8; slot++) {
                if (used[slot]) {
                    double e = Math.exp(sc[slot] - mx);
                    l += e;
                    o += e * kv[slot];
                }
            }
            pooled[ch] = o / l;
        }
        double ss = 0;
        for (double v : pooled) {
            ss += v * v;
        }
        double inv = 1 / Math.sqrt(ss / head + m.eps());
        for (int ch = 0; ch < head; ch++) {
            pooled[ch] *= inv * in(prefix + "_norm_w", ch);
        }
        rope(pooled, head - m.ropeDim(), w - 3, false);
        return pooled;
    }

    /** Keys visible to token t by the position rules alone (window, then compressed rows by ratio). */
    List<double[]> keys(Dsv4Program program, int t, Tensor kvCache, Tensor cmpKv) {
        int hd = m.headDim();
        int pos = p.position(t);
        List<double[]> keys = new ArrayList<>();
        for (int a = Math.max(0, pos - m.win() + 1); a <= pos; a++) {
            keys.add(row(kvCache, a, hd));
        }
        int visible = switch (program) {
            case SWA -> 0;
            case CSA -> (pos + 1) / 4;
            case HCA -> (pos + 1) / 128;
        };
        for (int c = 0; c < visible; c++) {
            keys.add(row(cmpKv, c, hd));
        }
        return keys;
    }

    static double[] row(Tensor pool, long row, int width) {
        double[] r = new double[width];
        for (int j = 0; j < width; j++) {
            r[j] = pool.getDouble(row * width + j);
        }
        return r;
    }

    /** Attention weights of (t, head) over {@code keys}, plus the sink's weight as the last entry. */
    double[] weights(double[] q, List<double[]> keys, int head) {
        double scale = 1 / Math.sqrt(m.headDim());
        double[] s = new double[keys.size() + 1];
        double mx = Double.NEGATIVE_INFINITY;
        for (int j = 0; j < keys.size(); j++) {
            double dot = 0;
            for (int x = 0; x < m.headDim(); x++) {
                dot += q[x] * keys.get(j)[x];
            }
            s[j] = dot * scale;
            mx = Math.max(mx, s[j]);
        }
        s[keys.size()] = in("attn_sink", head);
        mx = Math.max(mx, s[keys.size()]);
        double den = 0;
        for (int j = 0; j < s.length; j++) {
            s[j] = Math.exp(s[j] - mx);
            den += s[j];
        }
        for (int j = 0; j < s.length; j++) {
            s[j] /= den;
        }
        return s;
    }

    /** Attention output of (t, head) after inverse RoPE, in double (not rounded). */
    double[] attention(double[] q, List<double[]> keys, int t, int head) {
        double[] w = weights(q, keys, head);
        double[] o = new double[m.headDim()];
        for (int j = 0; j < keys.size(); j++) {
            for (int x = 0; x < o.length; x++) {
                o[x] += w[j] * keys.get(j)[x];
            }
        }
        rope(o, m.nopeDim(), p.position(t), true);
        return o;
    }

    /** attn_out[t, n] from ob without the int8 activation quantisation (double). */
    double attnOut(float[] ob, int t, int n) {
        int g = m.oGroups();
        int gin = m.oGroupIn();
        int ol = m.oLora();
        double out = 0;
        for (int gi = 0; gi < g; gi++) {
            for (int k = 0; k < ol; k++) {
                double or = 0;
                for (int i = 0; i < gin; i++) {
                    or += ob[t * m.h() * m.headDim() + gi * gin + i] * in("wo_a", ((long) gi * ol + k) * gin + i);
                }
                out += or * in("wo_b", (long) n * g * ol + gi * ol + k);
            }
        }
        return out * in("wo_b_scale", n);
    }
}
