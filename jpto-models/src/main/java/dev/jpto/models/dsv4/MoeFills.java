package dev.jpto.models.dsv4;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import java.util.stream.IntStream;

/** Input rules of the MoE FFN that are not plain distributions (the original's {@code moe.build_tensor_specs}). */
final class MoeFills {
    private static final double[] FP4_MAG = {0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0};
    private static final double[] FP4_MID = {0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0};
    /**
     * The e2m1 magnitude of every x in ((j−1)/4, j/4], indexed by j = ceil(4x): the mids are multiples of 1/4 and
     * bucketize's x &lt;= mid puts each boundary in the lower bucket, so the bucket is constant on those intervals
     * (one exact multiply, a ceil and a load instead of data-dependent branches). x &lt;= 6 up to amax/6's rounding,
     * so j &lt;= 25.
     */
    private static final double[] MAG_BY_QUARTER = new double[26];

    static {
        for (int j = 0; j < MAG_BY_QUARTER.length; j++) {
            MAG_BY_QUARTER[j] = FP4_MAG[bucket(j / 4.0)];
        }
    }

    private MoeFills() {
    }

    /**
     * The original's {@code gen_routed_weight([experts, out, in], dequant_std)}: W = N(0,1), simulated MXFP4 (e2m1
     * magnitudes on 32-element groups of the in dim with scale 2^ceil(log2(amax/6))), then per-output-channel
     * int8 (s = amax/127); every scale multiplied by dequant_std / std(q·s) over the whole tensor.
     *
     * <p>Row {@code i} of the flattened [experts·out, in] weight draws its normals from its own stream
     * {@code stream + "/" + i} (rows are generated in parallel, independent of the thread count); the std is the
     * sample std of all q·s from sums over fixed {@value #ROW_BLOCK}-row blocks added in block order, so the result
     * is bit-identical for any number of threads. The codes and the scales come from one pass: see
     * {@link RoutedWeight}.
     */
    static RoutedWeight routedWeight(String stream, int experts, int out, int in, double dequantStd) {
        return new RoutedWeight(stream, experts, out, in, dequantStd);
    }

    /** Rows per block of the routed weight's parallel pass (fixed: it fixes the order of the std's sums). */
    static final int ROW_BLOCK = 64;
    /** Blocks generated per parallel step before their codes are copied out (bounds the heap buffer). */
    private static final int CHUNK_BLOCKS = 16;

    /**
     * One routed weight's generation, shared by its int8 codes {@link #codes()} and fp32 scales {@link #scales()}:
     * one pass computes both ({@link ScaleCache}).
     */
    static final class RoutedWeight {
        private final String stream;
        private final int experts;
        private final int out;
        private final int in;
        private final double dequantStd;
        private final ScaleCache cache;

        private RoutedWeight(String stream, int experts, int out, int in, double dequantStd) {
            if (in <= 0 || out <= 0 || experts <= 0) {
                throw new IllegalArgumentException(stream + ": routed weight needs positive dims, got [" + experts
                        + ", " + out + ", " + in + "]");
            }
            this.stream = stream;
            this.experts = experts;
            this.out = out;
            this.in = in;
            this.dequantStd = dequantStd;
            String recipe = "routed " + stream + " [" + experts + ", " + out + ", " + in + "] std=" + dequantStd;
            this.cache = new ScaleCache(stream, recipe, this::pass);
        }

        Init codes() {
            return new Init.Custom(rule("codes"), (t, c) -> {
                if (t.numel() != (long) experts * out * in) {
                    throw new IllegalArgumentException(stream + ": routed weight codes need " + experts + "x" + out
                            + "x" + in + " elements, target " + t);
                }
                cache.codes(c, t);
            });
        }

        Init scales() {
            return new Init.Custom(rule("scales"), (t, c) -> cache.store(t, cache.scales(c)));
        }

        private String rule(String part) {
            return "gen_routed_weight([" + experts + ", " + out + ", " + in + "], dequant_std=" + dequantStd
                    + "): N(0,1) (row i from stream " + stream + "/i) on the MXFP4 grid (e2m1, 32-groups, "
                    + "2^ceil(log2(amax/6))), per output row int8 (s = amax/127), scales ·" + dequantStd
                    + "/std(q·s) [" + part + "]";
        }

        private double[] pass(Init.Context c, Tensor codes) {
            int rows = Math.multiplyExact(experts, out);
            int blocks = (rows + ROW_BLOCK - 1) / ROW_BLOCK;
            double[] scale = new double[rows];
            double[] sum = new double[blocks];
            double[] sumSq = new double[blocks];
            // the pool fills a heap chunk; this thread copies it out (the target may be thread-confined)
            byte[] chunk = codes == null ? null : new byte[Math.multiplyExact(CHUNK_BLOCKS * ROW_BLOCK, in)];
            for (int b0 = 0; b0 < blocks; b0 += CHUNK_BLOCKS) {
                int first = b0 * ROW_BLOCK;
                IntStream.range(b0, Math.min(blocks, b0 + CHUNK_BLOCKS)).parallel().forEach(b -> {
                    double[] w = new double[in];
                    double bs = 0;
                    double bss = 0;
                    for (int row = b * ROW_BLOCK; row < Math.min(rows, (b + 1) * ROW_BLOCK); row++) {
                        Init.RandomSource r = c.stream(stream + "/" + row);
                        for (int k = 0; k < in; k++) {
                            w[k] = r.normal();
                        }
                        double s = mxfp4Row(w);
                        scale[row] = s;
                        int at = (row - first) * in;
                        for (int k = 0; k < in; k++) {
                            int v = i8q(w[k] / s);
                            if (chunk != null) {
                                chunk[at + k] = (byte) v;
                            }
                            double deq = v * s;
                            bs += deq;
                            bss += deq * deq;
                        }
                    }
                    sum[b] = bs;
                    sumSq[b] = bss;
                });
                if (codes != null) {
                    int n = (Math.min(rows, first + CHUNK_BLOCKS * ROW_BLOCK) - first) * in;
                    Arrays32.store(codes, (long) first * in, chunk, n);
                }
            }
            rescaleToStd(scale, sum, sumSq, (double) rows * in, dequantStd);
            return scale;
        }
    }

    /**
     * One row of N(0,1) values onto the MXFP4 grid in place (per 32-group scale gs = 2^ceil(log2(max(amax/6,
     * 1e-20))), |w| rounded to the e2m1 magnitudes by torch.bucketize); returns the row's int8 scale
     * (float) (max(amax, 1e-4)/127).
     */
    private static double mxfp4Row(double[] w) {
        int in = w.length;
        double rowMax = Dsv4Numerics.AMAX_EPS;
        for (int g = 0; g < in; g += 32) {
            int end = Math.min(in, g + 32);
            double amax = 0;
            for (int k = g; k < end; k++) {
                amax = Math.max(amax, Math.abs(w[k]));
            }
            double gs = Dsv4Numerics.ceilPow2(Math.max(amax / 6.0, 1e-20));
            double inv4 = 4 / gs; // exact: gs is a power of two in [2^-66, 2]
            for (int k = g; k < end; k++) {
                // copySign(mag·gs, w) == signum(w)·mag·gs, also for ±0 (then mag = 0), without a sign branch
                double v = Math.copySign(MAG_BY_QUARTER[Math.min(25, (int) Math.ceil(Math.abs(w[k]) * inv4))] * gs,
                        w[k]);
                w[k] = v;
                rowMax = Math.max(rowMax, Math.abs(v));
            }
        }
        return (float) (rowMax / Dsv4Numerics.INT8_MAX);
    }

    /** {@link Dsv4Numerics#i8q} (round half to even, clamp to ±127) for finite x, with integer clamps. */
    private static int i8q(double x) {
        int v = (int) Math.rint(x);
        return v > 127 ? 127 : v < -127 ? -127 : v;
    }

    /**
     * The MTP projections' {@code _quantize_weight_per_out(bf16(U[0,1)/sqrt(D)))} [out, in]: per output row
     * sq = 127/max(amax, 1e-4), codes rint(W·sq) clamped to ±127, scale 1/sq ({@code scaleTensor}).
     */
    static Init projWeight(String stream, int out, int in, boolean scaleTensor) {
        String rule = "W = bf16(U[0,1)/sqrt(" + in + ")) [" + out + ", " + in + "]; per output row sq = 127/amax; "
                + (scaleTensor ? "scale = 1/sq" : "int8 = clamp(rint(W·sq), ±127)");
        // U − 0 == U exactly, so this is the rule with shift 0
        QuantizedUniform w = new QuantizedUniform(stream, out, in, 0.0, 1 / Math.sqrt(in), true);
        return new Init.Custom(rule, scaleTensor ? w.scales() : w.codes());
    }

    /** torch.bucketize(x, FP4_MID) (right=False: first i with x <= MID[i]), clamped to 7. */
    static int bucket(double x) {
        for (int i = 0; i < FP4_MID.length; i++) {
            if (x <= FP4_MID[i]) {
                return i;
            }
        }
        return 7;
    }

    /**
     * Multiplies every scale by {@code dequantStd / std}, std the sample std of the n dequantised values whose
     * per-block sums and sums of squares are given; the blocks are added in order, so the result does not depend
     * on how many threads filled them.
     */
    static void rescaleToStd(double[] scale, double[] sum, double[] sumSq, double n, double dequantStd) {
        double total = 0;
        double totalSq = 0;
        for (int b = 0; b < sum.length; b++) {
            total += sum[b];
            totalSq += sumSq[b];
        }
        double std = Math.sqrt((totalSq - total * total / n) / (n - 1));
        for (int i = 0; i < scale.length; i++) {
            scale[i] *= dequantStd / std;
        }
    }
}
