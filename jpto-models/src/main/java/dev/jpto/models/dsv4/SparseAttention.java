package dev.jpto.models.dsv4;

import java.lang.foreign.MemorySegment;
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
            Keys gathered = gather(kvFlat, swaIndices, cmpFlat, cmpTable, cmpIndices, cmpIdxCols, t, win, cmpCols,
                    blockSize, hd);
            float[] keys = gathered.rows();
            int nk = gathered.count();
            int nkPad = keys.length / hd;
            // QKᵀ of every head at once: the same products and ascending-x sums as one dot product per key (the zero
            // rows that pad the keys to whole panels give columns that are never read)
            float[] dots = Dsv4Matmul.f32(q, t * h * hd, hd, h, Dsv4Matmul.F32B.transposed(keys, 0, nkPad, hd, hd),
                    false);
            float[] mAll = new float[h];
            float[] lAll = new float[h];
            float[] o = new float[h * hd];
            for (int k0 = 0; k0 < nk; k0 += Dsv4Preset.ATTN_TILE) {
                int k1 = Math.min(nk, k0 + Dsv4Preset.ATTN_TILE);
                int w = k1 - k0;
                float[] probs = new float[h * w];
                float[] mb = new float[h];
                float[] lb = new float[h];
                for (int head = 0; head < h; head++) {
                    float[] s = new float[w];
                    float mx = Float.NEGATIVE_INFINITY;
                    for (int j = 0; j < w; j++) {
                        s[j] = dots[head * nkPad + k0 + j] * scale;
                        mx = Math.max(mx, s[j]);
                    }
                    float l = 0;
                    for (int j = 0; j < w; j++) {
                        float e = (float) Math.exp(s[j] - mx);
                        l += e;
                        probs[head * w + j] = Dsv4Numerics.bf16(e);
                    }
                    mb[head] = mx;
                    lb[head] = l;
                }
                // P·V of the tile, in ascending key order from +0 as the per-head loop did
                float[] ob2 = Dsv4Matmul.f32(probs, 0, w, h, new Dsv4Matmul.F32B(keys, k0 * hd, w, hd, hd, 1),
                        false);
                for (int head = 0; head < h; head++) {
                    int ho = head * hd;
                    if (k0 == 0) {
                        mAll[head] = mb[head];
                        lAll[head] = lb[head];
                        System.arraycopy(ob2, ho, o, ho, hd);
                    } else {
                        float mNew = Math.max(mAll[head], mb[head]);
                        float alpha = (float) Math.exp(mAll[head] - mNew);
                        float beta = (float) Math.exp(mb[head] - mNew);
                        lAll[head] = alpha * lAll[head] + beta * lb[head];
                        for (int x = 0; x < hd; x++) {
                            o[ho + x] = alpha * o[ho + x] + beta * ob2[ho + x];
                        }
                        mAll[head] = mNew;
                    }
                }
            }
            float[] out = new float[hd];
            for (int head = 0; head < h; head++) {
                int qo = (t * h + head) * hd;
                float den = faults.dropSink() ? lAll[head] : lAll[head] + (float) Math.exp(sink[head] - mAll[head]);
                for (int x = 0; x < hd; x++) {
                    out[x] = (float) (o[head * hd + x] / den * faults.attentionScale());
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

    /** A token's key rows, flat [count, hd], followed by zero rows up to a whole number of matmul panels. */
    record Keys(float[] rows, int count) {
    }

    /** The compacted key rows of token t: valid window columns in order, then valid compressed columns. */
    static Keys gather(float[] kvFlat, int[] swaIndices, float[] cmpFlat, int[] cmpTable, int[] cmpIndices,
                          int cmpIdxCols, int t, int win, int cmpCols, int blockSize, int hd) {
        int[] rows = new int[win + (cmpIndices == null ? 0 : Math.min(cmpCols, cmpIdxCols))];
        boolean[] cmp = new boolean[rows.length];
        int n = 0;
        for (int k = 0; k < win; k++) {
            int r = swaIndices[t * win + k];
            if (r >= 0) {
                rows[n++] = r;
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
                cmp[n] = true;
                rows[n++] = blk * blockSize + slot % blockSize;
            }
        }
        float[] keys = new float[Dsv4Matmul.panelRows(n) * hd];
        for (int i = 0; i < n; i++) {
            System.arraycopy(cmp[i] ? cmpFlat : kvFlat, rows[i] * hd, keys, i * hd, hd);
        }
        return new Keys(keys, n);
    }

    /**
     * Grouped output projection: per group g, {@code o_r = ob_g · wo_a[g]ᵀ} (fp32), per-(token, group) int8
     * quantisation, {@code p_g = oq · wo_b[:, g]ᵀ} exact, {@code acc = Σ_g p_g·dq[t,g]} in group order, and
     * {@code attn_out = bf16(acc · wo_b_scale)}. Returns attn_out [T, D] as bf16 values. wo_a [G, O_LORA, D_GROUP_IN]
     * and wo_b [D, G·O_LORA] are read in place.
     */
    static float[] project(float[] ob, MemorySegment woA, MemorySegment woB, float[] woBScale, Dsv4Dims m, int t) {
        int g = m.oGroups();
        int gin = m.oGroupIn();
        int ol = m.oLora();
        int d = m.d();
        int hdAll = m.h() * m.headDim();
        float[] acc = new float[t * d];
        for (int gi = 0; gi < g; gi++) {
            // or = ob_g · wo_a[g]ᵀ: A is the group's columns of ob, B the rows of wo_a[g] read in place
            float[] or = Dsv4Matmul.f32(ob, gi * gin, hdAll, t,
                    new Dsv4Matmul.F32B(woA, (long) gi * ol * gin, gin, ol, 1, gin), true);
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
            // p_g = oq · wo_b[:, g]ᵀ, wo_b [D, G·O_LORA] read in place
            int[] pg = Dsv4Matmul.i8(oq, 0, ol, t, new Dsv4Matmul.I8B(woB, (long) gi * ol, ol, d, 1, g * ol));
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
