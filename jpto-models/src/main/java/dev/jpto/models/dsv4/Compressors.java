package dev.jpto.models.dsv4;

/**
 * The KV compressors (spec §3.7): ratio-4 overlapping (CSA main, head = HEAD_DIM; indexer inner, head =
 * IDX_HEAD_DIM) and ratio-128 (HCA). Each closes one compressed row per token whose {@code closing[t] >= 0},
 * pooling a softmax over its window per channel from the fresh projections (positions inside the chunk) and the
 * old state (positions before it), then RMS-normalises, applies {@code norm_w} and RoPE at the window's first
 * position. The state rows of every active token are updated only after all pools have read.
 */
final class Compressors {
    private Compressors() {
    }

    /** Inputs shared by the compressors. */
    record Chunk(float[] xNormed, int[] pos, int startPos, int numTokens, int d, double eps, int maxSeqLen,
                 Rope rope, int ropeDim) {
        /** Token row of absolute position {@code a} if it is an active row of this chunk, else −1. */
        int rowOf(int a) {
            int r = a - startPos;
            return r >= 0 && r < numTokens ? r : -1;
        }
    }

    /**
     * One compressor's weights: {@code wkv}/{@code wgate} [out, D], {@code ape} [ratio, out], {@code normW}
     * [head]; out = 2·head for ratio 4 (overlapping halves), head for ratio 128.
     */
    record Weights(float[] wkv, float[] wgate, float[] ape, float[] normW, int head, int ratio) {
        int out() {
            return ratio == 4 ? 2 * head : head;
        }
    }

    /**
     * Runs one compressor over the chunk. {@code state} (flat fp32, rows of {@code 2·out} lanes
     * {@code [kv | score+ape]}) is read for positions before the chunk and updated for every active token with
     * {@code stateSlots[t] >= 0}; a position's row is {@code stateTable[pos / stateRows]·stateRows + pos %
     * stateRows}. Returns, per token, the compressed row it closes (fp32, normalised and rotated) or null.
     */
    static float[][] run(Chunk c, Weights w, float[] state, int[] stateTable, int stateRows, int[] closing,
                         int[] stateSlots, int t) {
        int out = w.out();
        float[] kvp = Dsv4Matmul.f32(c.xNormed(), 0, c.d(), t,
                Dsv4Matmul.F32B.transposed(w.wkv(), 0, out, c.d(), c.d()), true);
        float[] scp = Dsv4Matmul.f32(c.xNormed(), 0, c.d(), t,
                Dsv4Matmul.F32B.transposed(w.wgate(), 0, out, c.d(), c.d()), true);
        for (int r = 0; r < c.numTokens(); r++) {
            int ar = c.pos()[r] % w.ratio();
            for (int j = 0; j < out; j++) {
                scp[r * out + j] += w.ape()[ar * out + j];
            }
        }
        Source src = new Source(c, kvp, scp, state, stateTable, stateRows, out);
        float[][] rows = new float[t][];
        for (int r = 0; r < c.numTokens(); r++) {
            if (closing[r] < 0) {
                continue;
            }
            int wPos = c.pos()[r];
            float[] pooled = w.ratio() == 4 ? pool4(src, wPos, w.head()) : pool128(src, wPos, w.head());
            rows[r] = normRope(c, pooled, w.normW(), wPos + 1 - w.ratio());
        }
        // state update after every pool has read the old state
        for (int r = 0; r < c.numTokens(); r++) {
            int row = stateSlots[r];
            if (row < 0) {
                continue;
            }
            System.arraycopy(kvp, r * out, state, row * 2 * out, out);
            System.arraycopy(scp, r * out, state, row * 2 * out + out, out);
        }
        return rows;
    }

    /** Where the kv / score of (position, lane) come from: the chunk's projections, the old state, or init. */
    private record Source(Chunk c, float[] kvp, float[] scp, float[] state, int[] table, int stateRows, int out) {
        /** Row offset into the state for position a, or −1 when unmapped. */
        int stateOffset(int a) {
            if (a < 0 || a >= c.maxSeqLen()) {
                return -1;
            }
            int blk = table[a / stateRows];
            return blk < 0 ? -1 : (blk * stateRows + a % stateRows) * 2 * out;
        }
    }

    /** Ratio-4 overlapping pool: slots 0..3 previous window (lanes 0..head), 4..7 current (lanes head..2head). */
    private static float[] pool4(Source s, int w, int head) {
        int cur = w - 3;
        float[] pooled = new float[head];
        float[] kv = new float[8];
        float[] sc = new float[8];
        for (int ch = 0; ch < head; ch++) {
            for (int slot = 0; slot < 8; slot++) {
                int a = slot < 4 ? cur - 4 + slot : cur + slot - 4;
                int lane = slot < 4 ? ch : head + ch;
                kv[slot] = 0;
                sc[slot] = Float.NEGATIVE_INFINITY;
                if (slot < 4 && w < 7) {
                    continue;
                }
                int r = s.c().rowOf(a);
                if (r >= 0 && a <= w) {
                    kv[slot] = s.kvp()[r * s.out() + lane];
                    sc[slot] = s.scp()[r * s.out() + lane];
                } else {
                    int off = s.stateOffset(a);
                    if (off >= 0) {
                        kv[slot] = s.state()[off + lane];
                        sc[slot] = s.state()[off + s.out() + lane];
                    }
                }
            }
            float m = sc[7];
            float l = 1;
            float o = kv[7];
            for (int slot = (w < 7 ? 4 : 0); slot < 7; slot++) {
                if (sc[slot] == Float.NEGATIVE_INFINITY) {
                    continue;
                }
                float mNew = Math.max(m, sc[slot]);
                float a = (float) Math.exp(m - mNew);
                float b = (float) Math.exp(sc[slot] - mNew);
                l = a * l + b;
                o = o * a + kv[slot] * b;
                m = mNew;
            }
            pooled[ch] = o / l;
        }
        return pooled;
    }

    /** Ratio-128 pool: the 128 positions w−127..w, kv init 0 and score init 0 for unmapped slots. */
    private static float[] pool128(Source s, int w, int head) {
        int cur = w - 127;
        float[] pooled = new float[head];
        float[] kv = new float[128];
        float[] sc = new float[128];
        for (int ch = 0; ch < head; ch++) {
            float m = Float.NEGATIVE_INFINITY;
            for (int slot = 0; slot < 128; slot++) {
                int a = cur + slot;
                kv[slot] = 0;
                sc[slot] = 0;
                int r = s.c().rowOf(a);
                if (r >= 0 && a <= w) {
                    kv[slot] = s.kvp()[r * s.out() + ch];
                    sc[slot] = s.scp()[r * s.out() + ch];
                } else {
                    int off = s.stateOffset(a);
                    if (off >= 0) {
                        kv[slot] = s.state()[off + ch];
                        sc[slot] = s.state()[off + s.out() + ch];
                    }
                }
                m = Math.max(m, sc[slot]);
            }
            float l = 0;
            float o = 0;
            for (int slot = 0; slot < 128; slot++) {
                float e = (float) Math.exp(sc[slot] - m);
                l += e;
                o += kv[slot] * e;
            }
            pooled[ch] = o / l;
        }
        return pooled;
    }

    /** {@code n = pooled·rsqrt(mean(pooled²)+eps)·norm_w}, forward RoPE of the last lanes at {@code cmpPos}. */
    private static float[] normRope(Chunk c, float[] pooled, float[] normW, int cmpPos) {
        int head = pooled.length;
        double ss = 0;
        for (float v : pooled) {
            ss += (double) v * v;
        }
        float inv = (float) (1.0 / Math.sqrt(ss / head + c.eps()));
        float[] n = new float[head];
        for (int j = 0; j < head; j++) {
            n[j] = pooled[j] * inv * normW[j];
        }
        c.rope().apply(n, head - c.ropeDim(), cmpPos, false);
        return n;
    }
}
