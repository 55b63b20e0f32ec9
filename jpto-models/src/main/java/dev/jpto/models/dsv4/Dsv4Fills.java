package dev.jpto.models.dsv4;

import dev.jpto.isa.Tensor;
import dev.jpto.lib.gen.ParallelFill;
import java.util.stream.IntStream;

/**
 * The input rules of spec §5 that are not plain distributions, as {@link Init.Custom} values. Each rule draws
 * from its own tensor's stream, or streams derived from its name (per row); a scale tensor re-derives its weight
 * from the weight's streams, so the pair stays consistent (the big weights share one pass: {@link ScaleCache}).
 */
final class Dsv4Fills {
    private Dsv4Fills() {
    }

    /** {@code 2U−1} on active rows, zero on padding rows (first dim = token rows); element i takes draw i. */
    static Init xHc(int numTokens) {
        return new Init.Custom("2U-1 fp32; rows t >= num_tokens set to 0", (t, c) -> {
            long rowLen = t.numel() / t.shape(0);
            ParallelFill.doubles(t, (first, out, n) -> {
                Init.RandomSource r = c.stream("x_hc");
                r.skip(first);
                r.uniforms(out, 0, n);
                for (int i = 0; i < n; i++) {
                    out[i] = (first + i) / rowLen < numTokens ? 2 * out[i] - 1 : 0;
                }
            });
        });
    }

    /**
     * A bf16 weight {@code W = bf16((U−0.5)·scale)} quantised symmetrically to int8, per column ({@code perRow}
     * false: amax over dim 0, as wq_b) or per row (true: amax over dim 1, as wo_b). {@code scaleTensor} false fills
     * the int8 codes, true fills the fp32 dequant scales 1/sq ({@link QuantizedUniform}).
     */
    static Init quantizedUniform(String weightName, int rows, int cols, double scale, boolean perRow,
                                 boolean scaleTensor) {
        String rule = "W = bf16((U-0.5)·" + (float) scale + ") [" + rows + ", " + cols + "]; per "
                + (perRow ? "row" : "column") + " amax = max(|W|, 1e-4), sq = 127/amax; "
                + (scaleTensor ? weightName + "_scale = 1/sq" : weightName + " = clamp(rint(W·sq), ±127) int8");
        QuantizedUniform w = new QuantizedUniform(weightName, rows, cols, 0.5, scale, perRow);
        return new Init.Custom(rule, scaleTensor ? w.scales() : w.codes());
    }

    /**
     * The original's {@code gen_shared_weight([out, in], dequant_std, chan_cv)}: W = N·exp(chan_cv·N_row), FP8-e4m3
     * on 128x128 blocks with scale 2^ceil(log2(amax/448)), per output row int8 (s = amax/127), every scale
     * multiplied by dequant_std / std(q·s) over the whole weight; codes stored transposed [in, out] when
     * {@code transposed}. Row o draws its factor's normal, then its in normals, from stream {@code name + "/" + o};
     * 128-row bands (the FP8 block height) are generated in parallel and the std's sums are added in band order, so
     * the result does not depend on the thread count. The codes and scales tensors share one pass
     * ({@link ScaleCache}).
     */
    static SharedWeight sharedWeight(String weightName, int out, int in, double dequantStd, double chanCv,
                                     boolean transposed) {
        return new SharedWeight(weightName, out, in, dequantStd, chanCv, transposed);
    }

    /** One shared-expert style weight: its int8 codes {@link #codes()} and fp32 scales {@link #scales()}. */
    static final class SharedWeight {
        private static final int BLK = 128;
        private final String name;
        private final int out;
        private final int in;
        private final double dequantStd;
        private final double chanCv;
        private final boolean transposed;
        private final ScaleCache cache;

        private SharedWeight(String name, int out, int in, double dequantStd, double chanCv, boolean transposed) {
            if (out <= 0 || in <= 0) {
                throw new IllegalArgumentException(name + ": shared weight needs positive dims, got [" + out + ", "
                        + in + "]");
            }
            this.name = name;
            this.out = out;
            this.in = in;
            this.dequantStd = dequantStd;
            this.chanCv = chanCv;
            this.transposed = transposed;
            this.cache = new ScaleCache(name, "shared " + name + " [" + out + ", " + in + "] std=" + dequantStd
                    + " cv=" + chanCv, this::pass);
        }

        Init codes() {
            return new Init.Custom(rule(false), (t, c) -> {
                if (t.numel() != (long) out * in) {
                    throw new IllegalArgumentException(name + ": the codes need " + out + "x" + in
                            + " elements, target " + t);
                }
                cache.codes(c, t);
            });
        }

        Init scales() {
            return new Init.Custom(rule(true), (t, c) -> cache.store(t, cache.scales(c)));
        }

        private String rule(boolean scaleTensor) {
            return "gen_shared_weight([" + out + ", " + in + "], dequant_std=" + dequantStd + ", chan_cv=" + chanCv
                    + "): W = N·exp(" + chanCv + "·N_row) (row o from stream " + name + "/o), FP8-e4m3 on 128x128 "
                    + "blocks with scale 2^ceil(log2(amax/448)), per output row int8 (s = amax/127), scales ·"
                    + dequantStd + "/std(q·s)" + (scaleTensor ? " [scales]" : transposed
                    ? " [codes, stored transposed [" + in + ", " + out + "]]" : " [codes]");
        }

        private double[] pass(Init.Context c, Tensor target) {
            int bands = (out + BLK - 1) / BLK;
            byte[] q = target == null ? null : new byte[Math.multiplyExact(out, in)];
            double[] scale = new double[out];
            double[] sum = new double[bands];
            double[] sumSq = new double[bands];
            IntStream.range(0, bands).parallel().forEach(band -> {
                int o0 = band * BLK;
                int o1 = Math.min(out, o0 + BLK);
                double[] w = new double[(o1 - o0) * in];
                for (int o = o0; o < o1; o++) {
                    Init.RandomSource r = c.stream(name + "/" + o);
                    double f = StrictMath.exp(chanCv * r.normal());
                    int base = (o - o0) * in;
                    for (int k = 0; k < in; k++) {
                        w[base + k] = r.normal() * f;
                    }
                }
                for (int bk = 0; bk < in; bk += BLK) {
                    int k1 = Math.min(in, bk + BLK);
                    double amax = 0;
                    for (int o = 0; o < o1 - o0; o++) {
                        for (int k = bk; k < k1; k++) {
                            amax = Math.max(amax, Math.abs(w[o * in + k]));
                        }
                    }
                    double s = Dsv4Numerics.ceilPow2(Math.max(amax / 448.0, 1e-20));
                    for (int o = 0; o < o1 - o0; o++) {
                        for (int k = bk; k < k1; k++) {
                            w[o * in + k] = Dsv4Numerics.fp8e4m3(w[o * in + k] / s) * s;
                        }
                    }
                }
                double bs = 0;
                double bss = 0;
                for (int o = o0; o < o1; o++) {
                    int base = (o - o0) * in;
                    double amax = Dsv4Numerics.AMAX_EPS;
                    for (int k = 0; k < in; k++) {
                        amax = Math.max(amax, Math.abs(w[base + k]));
                    }
                    double so = (float) (amax / Dsv4Numerics.INT8_MAX);
                    scale[o] = so;
                    for (int k = 0; k < in; k++) {
                        int v = Dsv4Numerics.i8q(w[base + k] / so);
                        if (q != null) {
                            q[o * in + k] = (byte) v;
                        }
                        double deq = v * so;
                        bs += deq;
                        bss += deq * deq;
                    }
                }
                sum[band] = bs;
                sumSq[band] = bss;
            });
            MoeFills.rescaleToStd(scale, sum, sumSq, (double) out * in, dequantStd);
            if (q != null) {
                byte[] stored = transposed ? Dsv4Matmul.transpose(q, out, in) : q;
                Arrays32.store(target, 0, stored, stored.length);
            }
            return scale;
        }
    }

    /** RoPE table {@code [MAX_SEQ_LEN, dim]} = concat(half, half) of cos or sin, stored bf16. */
    static Init ropeTable(RopeProfile profile, int dim, int seqLen, boolean cos) {
        String rule = (cos ? "cos" : "sin") + "(p·inv_freq) [half | half], base " + profile.base()
                + (profile.yarn() ? ", YaRN factor " + profile.factor() + " original " + profile.originalSeqLen()
                : ", no YaRN");
        return new Init.Custom(rule, (t, c) -> {
            float[] half = cos ? RopeTables.cosHalf(profile, dim, seqLen) : RopeTables.sinHalf(profile, dim, seqLen);
            int h = dim / 2;
            for (int p = 0; p < seqLen; p++) {
                for (int j = 0; j < dim; j++) {
                    t.setDouble((long) p * dim + j, half[p * h + (j % h)]);
                }
            }
        });
    }

    /** Identity block table {@code b → b}. */
    static Init identityTable() {
        return new Init.Custom("identity block table b -> b", (t, c) -> {
            for (long b = 0; b < t.numel(); b++) {
                t.setDouble(b, b);
            }
        });
    }

    /** Scrambled state block table {@code (17·b + 3) mod physical}. */
    static Init scrambledTable(int physical) {
        return new Init.Custom("(17·b + 3) mod " + physical, (t, c) -> {
            for (long b = 0; b < t.numel(); b++) {
                t.setDouble(b, (17 * b + 3) % physical);
            }
        });
    }

    /** Only logical block 0 mapped (to physical 0), the rest −1 (HCA's cmp_block_table). */
    static Init firstBlockOnlyTable() {
        return new Init.Custom("[0, -1, -1, ...]: only logical block 0 mapped", (t, c) -> {
            for (long b = 0; b < t.numel(); b++) {
                t.setDouble(b, b == 0 ? 0 : -1);
            }
        });
    }

    /** A per-token int vector: {@code f(t)} for active rows, {@code inactive} for padding rows. */
    static Init perToken(String rule, Dsv4Preset p, java.util.function.IntUnaryOperator f, int inactive) {
        return new Init.Custom(rule, (t, c) -> {
            for (int i = 0; i < t.numel(); i++) {
                t.setDouble(i, i < p.numTokens() ? f.applyAsInt(i) : inactive);
            }
        });
    }

    /**
     * A pool of {@code rowLen}-wide rows, zero except the rows of {@code positions [from, to)}: row index
     * {@code rowOf(pos)}, values {@code (U−0.5)·amp} (bf16 or fp32 by the tensor's dtype).
     */
    static Init poolPrefix(String name, String rule, int from, int to, int rowLen, double amp,
                           java.util.function.IntUnaryOperator rowOf) {
        return new Init.Custom(rule, (t, c) -> {
            Init.RandomSource r = c.stream(name);
            for (int pos = Math.max(0, from); pos < to; pos++) {
                long row = rowOf.applyAsInt(pos);
                for (int j = 0; j < rowLen; j++) {
                    t.setDouble(row * rowLen + j, (r.uniform() - 0.5) * amp);
                }
            }
        });
    }

    /** CSA idx_kv_cache (codes) or idx_kv_scale: slots 0..n−1 hold int8-quantised rows of bf16((U−0.5)·0.05). */
    static Init idxKvPrefix(int slots, int width, boolean scale) {
        String rule = "zeros, except slots 0.." + (slots - 1) + ": h = bf16((U-0.5)·0.05)[" + width
                + "], row int8 quantised (amax floor 1e-4, sq = 127/amax), " + (scale ? "scale = 1/sq" : "codes");
        return new Init.Custom(rule, (t, c) -> {
            Init.RandomSource r = c.stream("idx_kv_cache");
            float[] h = new float[width];
            for (int s = 0; s < slots; s++) {
                double amax = 0;
                for (int j = 0; j < width; j++) {
                    h[j] = Dsv4Numerics.bf16((float) ((r.uniform() - 0.5) * 0.05));
                    amax = Math.max(amax, Math.abs(h[j]));
                }
                float sq = Dsv4Numerics.quantMultiplier(amax);
                if (scale) {
                    t.setDouble(s, 1.0f / sq);
                } else {
                    for (int j = 0; j < width; j++) {
                        t.setDouble((long) s * width + j, Dsv4Numerics.i8q(h[j] * sq));
                    }
                }
            }
        });
    }

    /** Sylvester Hadamard of order n, times n^-0.5 (stored bf16). */
    static Init hadamard(int n) {
        return new Init.Custom("Sylvester Hadamard of order " + n + " times " + n + "^-0.5", (t, c) -> {
            double s = 1.0 / Math.sqrt(n);
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    t.setDouble((long) i * n + j, (Integer.bitCount(i & j) % 2 == 0 ? s : -s));
                }
            }
        });
    }
}
