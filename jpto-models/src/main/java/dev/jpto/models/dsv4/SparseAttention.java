package dev.jpto.models.dsv4;

import java.util.stream.IntStream;

/**
 * prefill_sparse_attn (spec §3.10–3.11): gather the window and compressed keys of each token, attention with a
 * per-head sink in 128-key tiles merged online (probabilities rounded to bf16 before PV), inverse RoPE at the
 * query's position, then the grouped low-rank output projection with per-(token, group) int8 activations.
 */
final class SparseAttention {
    private SparseAttention() {
    }

    /**
     * Keys of each active token: rows of {@code kvFlat} (window, from swaIndices) then rows of {@code cmpFlat}
     * (compressed, from cmpIndices through cmpTable). Returns {@code ob [T, H, HEAD_DIM]} as bf16 values.
     */
    static float[] attend(float[] q, float[] kvFlat, int[] swaIndices, float[] cmpFlat, int[] cmpTable,
                          int[] cmpIndices, int cmpIdxCols, float[] sink, Rope rope, int[] pos, int numTokens,
                          Dsv4Preset p, Dsv4Faults faults) {
        Dsv4Dims m = p.dims();
        int hd = m.headDim();
        int h = m.h();
        int win = m.win();
        int blockSize = p.pools().blockSize();
        int cmpCols = p.cmpColumns();
        float scale = (float) m.softmaxScale();
        float[] ob = new float[p.t() * h * hd];
        IntStream.range(0, numTokens).parallel().forEach(t -> {
            float[][] keys = gather(kvFlat, swaIndices, cmpFlat, cmpTable, cmpIndices, cmpIdxCols, t, win, cmpCols,
                    blockSize, hd);
            float[] o = new float[hd];
            for (int head = 0; head < h; head++) {
                int qo = (t * h + head) * hd;
                float mAll = 0;
                float lAll = 0;
                java.util.Arrays.fill(o, 0);
                for (int k0 = 0; k0 < keys.length; k0 += Dsv4Preset.ATTN_TILE) {
                    int k1 = Math.min(keys.length, k0 + Dsv4Preset.ATTN_TILE);
                    float[] s = new float[k1 - k0];
                    float mb = Float.NEGATIVE_INFINITY;
                    for (int j = k0; j < k1; j++) {
                        float acc = 0;
                        float[] key = keys[j];
                        for (int x = 0; x < hd; x++) {
                            acc += q[qo + x] * key[x];
                        }
                        s[j - k0] = acc * scale;
                        mb = Math.max(mb, s[j - k0]);
                    }
                    float lb = 0;
                    float[] ob2 = new float[hd];
                    for (int j = k0; j < k1; j++) {
                        float e = (float) Math.exp(s[j - k0] - mb);
                        lb += e;
                        float eb = Dsv4Numerics.bf16(e);
                        float[] key = keys[j];
                        for (int x = 0; x < hd; x++) {
                            ob2[x] += eb * key[x];
                        }
                    }
                    if (k0 == 0) {
                        mAll = mb;
                        lAll = lb;
                        System.arraycopy(ob2, 0, o, 0, hd);
                    } else {
                        float mNew = Math.max(mAll, mb);
                        float alpha = (float) Math.exp(mAll - mNew);
                        float beta = (float) Math.exp(mb - mNew);
                        lAll = alpha * lAll + beta * lb;
                        for (int x = 0; x < hd; x++) {
                            o[x] = alpha * o[x] + beta * ob2[x];
                        }
                        mAll = mNew;
                    }
                }
                float den = faults.dropSink() ? lAll : lAll + (float) Math.exp(sink[head] - mAll);
                float[] out = new float[hd];
                for (int x = 0; x < hd; x++) {
                    out[x] = (float) (o[x] / den * faults.attentionScale());
                }
                if (!faults.skipInverseRope()) {
                    rope.apply(out, m.nopeDim(), pos[t], true);
                }
                for (int x = 0; x < hd; x++) {
                    ob[qo + x] = Dsv4Numerics.bf16(out[x]);
                }
            }
        });
        return ob;
    }

    /** The compacted key rows of token t: valid window columns in order, then valid compressed columns. */
    static float[][] gather(float[] kvFlat, int[] swaIndices, float[] cmpFlat, int[] cmpTable, int[] cmpIndices,
                            int cmpIdxCols, int t, int win, int cmpCols, int blockSize, int hd) {
        java.util.List<float[]> rows = new java.util.ArrayList<>();
        for (int k = 0; k < win; k++) {
            int r = swaIndices[t * win + k];
            if (r >= 0) {
                rows.add(java.util.Arrays.copyOfRange(kvFlat, r * hd, (r + 1) * hd));
            }
        }
        if (cmpIndices != null) {
            for (int c = 0; c < Math.min(cmpCols, cmpIdxCols); c++) {
                int slot = cmpIndices[t * cmpIdxCols + c];
                if (slot < 0) {
                    continue;
                }
                int blk = cmpTable[slot / blockSize];
                if (blk < 0) {
                    continue;
                }
                int r = blk * blockSize + slot % blockSize;
                rows.add(java.util.Arrays.copyOfRange(cmpFlat, r * hd, (r + 1) * hd));
            }
        }
        return rows.toArray(new float[0][]);
    }

    /**
     * Grouped output projection: per group g, {@code o_r = ob_g · wo_a[g]ᵀ} (fp32), per-(token, group) int8
     * quantisation, {@code p_g = oq · wo_b[:, g]ᵀ} exact, {@code acc = Σ_g p_g·dq[t,g]} in group order, and
     * {@code attn_out = bf16(acc · wo_b_scale)}. Returns attn_out [T, D] as bf16 values.
     */
    static float[] project(float[] ob, float[] woA, byte[] woB, float[] woBScale, Dsv4Dims m, int t) {
        int g = m.oGroups();
        int gin = m.oGroupIn();
        int ol = m.oLora();
        int d = m.d();
        int hdAll = m.h() * m.headDim();
        byte[] woBt = Dsv4Matmul.transpose(woB, d, g * ol);
        float[] acc = new float[t * d];
        for (int gi = 0; gi < g; gi++) {
            float[] a = new float[t * gin];
            for (int r = 0; r < t; r++) {
                System.arraycopy(ob, r * hdAll + gi * gin, a, r * gin, gin);
            }
            float[] wg = java.util.Arrays.copyOfRange(woA, gi * ol * gin, (gi + 1) * ol * gin);
            float[] or = Dsv4Matmul.f32(a, t, gin, Dsv4Matmul.transpose(wg, ol, gin), ol);
            byte[] oq = new byte[t * ol];
            float[] dq = new float[t];
            for (int r = 0; r < t; r++) {
                float amax = 0;
                for (int k = 0; k < ol; k++) {
                    amax = Math.max(amax, Math.abs(or[r * ol + k]));
                }
                float sq = Dsv4Numerics.quantMultiplier(amax);
                for (int k = 0; k < ol; k++) {
                    oq[r * ol + k] = (byte) Dsv4Numerics.i8q(or[r * ol + k] * sq);
                }
                dq[r] = 1.0f / sq;
            }
            byte[] bg = java.util.Arrays.copyOfRange(woBt, gi * ol * d, (gi + 1) * ol * d);
            int[] pg = Dsv4Matmul.i8(oq, t, ol, bg, d);
            for (int r = 0; r < t; r++) {
                for (int n = 0; n < d; n++) {
                    acc[r * d + n] += pg[r * d + n] * dq[r];
                }
            }
        }
        float[] out = new float[t * d];
        for (int i = 0; i < out.length; i++) {
            out[i] = Dsv4Numerics.bf16(acc[i] * woBScale[i % d]);
        }
        return out;
    }
}
