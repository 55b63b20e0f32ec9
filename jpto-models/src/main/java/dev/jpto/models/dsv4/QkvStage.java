package dev.jpto.models.dsv4;

import java.lang.foreign.MemorySegment;
import java.util.stream.IntStream;

/** rms_norm (spec §3.2) and qkv_proj_rope (§3.4): x_mixed → x_normed → q, kv, qr, qr_scale. */
final class QkvStage {
    private QkvStage() {
    }

    /** Outputs: q [T,H,HEAD_DIM] and kv [T,HEAD_DIM] as bf16 values, qr [T,Q_LORA] int8 codes, qrScale [T]. */
    record Qkv(float[] q, float[] kv, byte[] qr, float[] qrScale) {
    }

    /** {@code bf16(x · rsqrt(mean(x²) + eps) · w)} per row. */
    static float[] rmsNorm(float[] x, float[] w, int rows, int d, double eps) {
        float[] out = new float[rows * d];
        IntStream.range(0, rows).parallel().forEach(r -> {
            double ss = 0;
            for (int i = 0; i < d; i++) {
                ss += (double) x[r * d + i] * x[r * d + i];
            }
            float inv = (float) (1.0 / Math.sqrt(ss / d + eps));
            for (int i = 0; i < d; i++) {
                out[r * d + i] = Dsv4Numerics.bf16(x[r * d + i] * inv * w[i]);
            }
        });
        return out;
    }

    /** The weights wq_a [D, Q_LORA], wq_b [Q_LORA, H·HEAD_DIM] and wkv [D, HEAD_DIM] are read in place. */
    static Qkv compute(float[] xNormed, MemorySegment wqA, MemorySegment wqB, float[] wqBScale, MemorySegment wkv,
                       float[] gammaCq,
                       float[] gammaCkv, Rope rope, int[] pos, int numTokens, Dsv4Dims m, int t) {
        int d = m.d();
        int ql = m.qLora();
        int hd = m.headDim();
        int nope = m.nopeDim();
        int qCols = m.h() * hd;
        float[] qr32 = Dsv4Matmul.f32(xNormed, 0, d, t, new Dsv4Matmul.F32B(wqA, 0, d, ql, ql, 1), true);
        byte[] qr = new byte[t * ql];
        float[] qrScale = new float[t];
        for (int r = 0; r < numTokens; r++) {
            double ss = 0;
            for (int k = 0; k < ql; k++) {
                ss += (double) qr32[r * ql + k] * qr32[r * ql + k];
            }
            float inv = (float) (1.0 / Math.sqrt(ss / ql + m.eps()));
            float amax = 0;
            for (int k = 0; k < ql; k++) {
                amax = Math.max(amax, Math.abs(qr32[r * ql + k] * gammaCq[k]));
            }
            float sq = Dsv4Numerics.quantMultiplier(inv * amax);
            for (int k = 0; k < ql; k++) {
                qr[r * ql + k] = (byte) Dsv4Numerics.i8q((qr32[r * ql + k] * inv) * gammaCq[k] * sq);
            }
            qrScale[r] = 1.0f / sq;
        }
        int[] qi = Dsv4Matmul.i8(qr, 0, ql, t, new Dsv4Matmul.I8B(wqB, 0, ql, qCols, qCols, 1));
        float[] q = new float[t * qCols];
        IntStream.range(0, numTokens).parallel().forEach(r -> {
            float[] head = new float[hd];
            for (int h = 0; h < m.h(); h++) {
                int o = r * qCols + h * hd;
                double ss = 0;
                for (int j = 0; j < hd; j++) {
                    head[j] = qi[o + j] * qrScale[r] * wqBScale[h * hd + j];
                    ss += (double) head[j] * head[j];
                }
                float inv = (float) (1.0 / Math.sqrt(ss / hd + m.eps()));
                for (int j = 0; j < hd; j++) {
                    head[j] *= inv;
                }
                rope.apply(head, nope, pos[r], false);
                for (int j = 0; j < hd; j++) {
                    q[o + j] = Dsv4Numerics.bf16(head[j]);
                }
            }
        });
        float[] kv32 = Dsv4Matmul.f32(xNormed, 0, d, t, new Dsv4Matmul.F32B(wkv, 0, d, hd, hd, 1), true);
        float[] kv = new float[t * hd];
        for (int r = 0; r < numTokens; r++) {
            double ss = 0;
            for (int j = 0; j < hd; j++) {
                ss += (double) kv32[r * hd + j] * kv32[r * hd + j];
            }
            float inv = (float) (1.0 / Math.sqrt(ss / hd + m.eps()));
            float[] n = new float[hd];
            for (int j = 0; j < hd; j++) {
                n[j] = kv32[r * hd + j] * inv * gammaCkv[j];
            }
            rope.apply(n, nope, pos[r], false);
            for (int j = 0; j < hd; j++) {
                kv[r * hd + j] = Dsv4Numerics.bf16(n[j]);
            }
        }
        return new Qkv(q, kv, qr, qrScale);
    }
}
