package dev.jpto.models.dsv4;

import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * The CSA indexer (spec §3.7.1 inner path and §3.8): int8 index keys of the compressed rows, int8 Hadamard-rotated
 * index queries, per-head ReLU scores weighted by a learned projection, and the top-k of the visible compressed
 * positions (descending score, ties to the lower index).
 */
final class CsaIndexer {
    private CsaIndexer() {
    }

    /**
     * Writes one inner-compressed row {@code n} (fp32, already normalised and rotated) as index key: bf16, times the
     * Hadamard (fp32 acc), bf16 again, int8 per row. Returns the dequant scale; codes go to {@code codes}.
     */
    static float quantizeKey(float[] n, float[] hadamard, int[] codes) {
        int dim = n.length;
        float[] f = new float[dim];
        for (int i = 0; i < dim; i++) {
            float nb = Dsv4Numerics.bf16(n[i]);
            for (int j = 0; j < dim; j++) {
                f[j] += nb * hadamard[i * dim + j];
            }
        }
        float amax = 0;
        for (int j = 0; j < dim; j++) {
            f[j] = Dsv4Numerics.bf16(f[j]);
            amax = Math.max(amax, Math.abs(f[j]));
        }
        float sq = Dsv4Numerics.quantMultiplier(amax);
        for (int j = 0; j < dim; j++) {
            codes[j] = Dsv4Numerics.i8q(f[j] * sq);
        }
        return 1.0f / sq;
    }

    /** Scores and top-k: returns cmp_topk_indices [T, IDX_TOPK] (−1 padded). */
    static int[] topk(float[] xNormed, byte[] qr, float[] qrScale, byte[] idxWqB, float[] idxWqBScale,
                      float[] hadamard, float[] weightsProj, byte[] idxKv, float[] idxKvScale, int[] idxTable,
                      Rope rope, int[] pos, int numTokens, Dsv4Preset p) {
        Dsv4Dims m = p.dims();
        int t = p.t();
        int nh = m.idxNHeads();
        int ihd = m.idxHeadDim();
        int cols = nh * ihd;
        int bs = p.pools().blockSize();
        int[] qi = Dsv4Matmul.i8(qr, t, m.qLora(), idxWqB, cols);
        float[] qb = new float[t * cols];
        for (int r = 0; r < numTokens; r++) {
            float[] head = new float[ihd];
            for (int h = 0; h < nh; h++) {
                int o = r * cols + h * ihd;
                for (int j = 0; j < ihd; j++) {
                    head[j] = qi[o + j] * qrScale[r] * idxWqBScale[h * ihd + j];
                }
                rope.apply(head, m.idxNopeDim(), pos[r], false);
                for (int j = 0; j < ihd; j++) {
                    qb[o + j] = Dsv4Numerics.bf16(head[j]);
                }
            }
        }
        float[] qh = Dsv4Matmul.f32(qb, t * nh, ihd, hadamard, ihd);
        byte[] qq = new byte[t * cols];
        float[] qs = new float[t * nh];
        for (int row = 0; row < t * nh; row++) {
            float amax = 0;
            for (int j = 0; j < ihd; j++) {
                amax = Math.max(amax, Math.abs(qh[row * ihd + j]));
            }
            float sq = Dsv4Numerics.quantMultiplier(amax);
            for (int j = 0; j < ihd; j++) {
                qq[row * ihd + j] = (byte) Dsv4Numerics.i8q(qh[row * ihd + j] * sq);
            }
            qs[row] = 1.0f / sq;
        }
        float[] wts = Dsv4Matmul.f32(xNormed, t, m.d(), weightsProj, nh);
        float ws = (float) m.weightsScale();
        int k = m.idxTopk();
        int[] out = new int[t * k];
        Arrays.fill(out, -1);
        IntStream.range(0, numTokens).parallel().forEach(r -> {
            int visible = Math.min((pos[r] + 1) / 4, Dsv4Preset.INDEXER_SCORE_CAP);
            float[] score = new float[visible];
            for (int c = 0; c < visible; c++) {
                int blk = idxTable[c / bs];
                if (blk < 0) {
                    score[c] = Dsv4Numerics.NEG_INF;
                    continue;
                }
                int row = blk * bs + c % bs;
                float acc = 0;
                for (int h = 0; h < nh; h++) {
                    int dot = 0;
                    int qo = (r * nh + h) * ihd;
                    for (int j = 0; j < ihd; j++) {
                        dot += qq[qo + j] * idxKv[row * ihd + j];
                    }
                    float v = dot * qs[r * nh + h] * idxKvScale[row];
                    acc += Math.max(v, 0f) * (wts[r * nh + h] * ws);
                }
                score[c] = acc;
            }
            Integer[] order = new Integer[visible];
            for (int c = 0; c < visible; c++) {
                order[c] = c;
            }
            Arrays.sort(order, (x, y) -> score[x] != score[y] ? Float.compare(score[y], score[x])
                    : Integer.compare(x, y));
            int take = Math.min(Math.min(k, Dsv4Preset.INDEXER_SCORE_CAP), visible);
            for (int c = 0; c < take; c++) {
                out[r * k + c] = order[c];
            }
        });
        return out;
    }
}
