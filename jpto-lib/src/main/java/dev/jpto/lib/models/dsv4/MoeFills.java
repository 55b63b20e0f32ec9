package dev.jpto.lib.models.dsv4;

/** Input rules of the MoE FFN that are not plain distributions (the original's {@code moe.build_tensor_specs}). */
final class MoeFills {
    private static final double[] FP4_MAG = {0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0};
    private static final double[] FP4_MID = {0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0};

    private MoeFills() {
    }

    /**
     * The original's {@code gen_routed_weight([experts, out, in], dequant_std)}: W = N(0,1), simulated MXFP4 (e2m1
     * magnitudes on 32-element groups of the in dim with scale 2^ceil(log2(amax/6))), then per-output-channel
     * int8 (s = amax/127); every scale multiplied by dequant_std / std(q·s) over the whole tensor.
     * {@code scaleTensor} selects the int8 codes or the fp32 scales [experts, out].
     */
    static Init routedWeight(String stream, int experts, int out, int in, double dequantStd, boolean scaleTensor) {
        String rule = "gen_routed_weight([" + experts + ", " + out + ", " + in + "], dequant_std=" + dequantStd
                + "): N(0,1) on the MXFP4 grid (e2m1, 32-groups, 2^ceil(log2(amax/6))), per output row int8 "
                + "(s = amax/127), scales ·" + dequantStd + "/std(q·s)" + (scaleTensor ? " [scales]" : " [codes]");
        return new Init.Custom(rule, (t, c) -> {
            Init.RandomSource r = c.stream(stream);
            long rows = (long) experts * out;
            byte[] q = scaleTensor ? null : new byte[Math.toIntExact(rows * in)];
            double[] scale = new double[Math.toIntExact(rows)];
            double[] w = new double[in];
            double sum = 0;
            double sumSq = 0;
            for (long row = 0; row < rows; row++) {
                for (int k = 0; k < in; k++) {
                    w[k] = r.normal();
                }
                for (int g = 0; g < in; g += 32) {
                    int end = Math.min(in, g + 32);
                    double amax = 0;
                    for (int k = g; k < end; k++) {
                        amax = Math.max(amax, Math.abs(w[k]));
                    }
                    double gs = Math.pow(2, Math.ceil(Math.log(Math.max(amax / 6.0, 1e-20)) / Math.log(2)));
                    for (int k = g; k < end; k++) {
                        w[k] = Math.signum(w[k]) * FP4_MAG[bucket(Math.abs(w[k]) / gs)] * gs;
                    }
                }
                double amax = Dsv4Numerics.AMAX_EPS;
                for (int k = 0; k < in; k++) {
                    amax = Math.max(amax, Math.abs(w[k]));
                }
                double s = (float) (amax / Dsv4Numerics.INT8_MAX);
                scale[(int) row] = s;
                for (int k = 0; k < in; k++) {
                    int v = Dsv4Numerics.i8q(w[k] / s);
                    if (q != null) {
                        q[(int) (row * in + k)] = (byte) v;
                    }
                    double deq = v * s;
                    sum += deq;
                    sumSq += deq * deq;
                }
            }
            if (scaleTensor) {
                double n = (double) rows * in;
                double std = Math.sqrt((sumSq - sum * sum / n) / (n - 1));
                for (int i = 0; i < scale.length; i++) {
                    t.setDouble(i, scale[i] * (dequantStd / std));
                }
            } else {
                if (!t.isContiguous()) {
                    throw new IllegalArgumentException(stream + ": routed weight target must be contiguous: " + t);
                }
                java.lang.foreign.MemorySegment.copy(java.lang.foreign.MemorySegment.ofArray(q), 0, t.buffer(),
                        t.offset(), q.length);
            }
        });
    }

    /**
     * The MTP projections' {@code _quantize_weight_per_out(bf16(U[0,1)/sqrt(D)))} [out, in]: per output row
     * sq = 127/max(amax, 1e-4), codes rint(W·sq) clamped to ±127, scale 1/sq ({@code scaleTensor}).
     */
    static Init projWeight(String stream, int out, int in, boolean scaleTensor) {
        String rule = "W = bf16(U[0,1)/sqrt(" + in + ")) [" + out + ", " + in + "]; per output row sq = 127/amax; "
                + (scaleTensor ? "scale = 1/sq" : "int8 = clamp(rint(W·sq), ±127)");
        return new Init.Custom(rule, (t, c) -> {
            Init.RandomSource r = c.stream(stream);
            float[] w = new float[in];
            double inv = 1 / Math.sqrt(in);
            for (int o = 0; o < out; o++) {
                float amax = 0;
                for (int k = 0; k < in; k++) {
                    w[k] = Dsv4Numerics.bf16((float) (r.uniform() * inv));
                    amax = Math.max(amax, Math.abs(w[k]));
                }
                float sq = Dsv4Numerics.quantMultiplier(amax);
                if (scaleTensor) {
                    t.setDouble(o, 1.0f / sq);
                } else {
                    for (int k = 0; k < in; k++) {
                        t.setDouble((long) o * in + k, Dsv4Numerics.i8q(w[k] * sq));
                    }
                }
            }
        });
    }

    /** torch.bucketize(x, FP4_MID) (right=False: first i with x <= MID[i]), clamped to 7. */
    private static int bucket(double x) {
        for (int i = 0; i < FP4_MID.length; i++) {
            if (x <= FP4_MID[i]) {
                return i;
            }
        }
        return 7;
    }
}
