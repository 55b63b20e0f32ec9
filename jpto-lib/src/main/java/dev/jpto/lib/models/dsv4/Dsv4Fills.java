package dev.jpto.lib.models.dsv4;

/**
 * The input rules of spec §5 that are not plain distributions, as {@link Init.Custom} values. Each rule draws
 * from its own tensor's stream (a scale tensor re-derives its weight from the weight's stream, so the pair stays
 * consistent whatever the generator).
 */
final class Dsv4Fills {
    private Dsv4Fills() {
    }

    /** {@code 2U−1} on active rows, zero on padding rows (first dim = token rows). */
    static Init xHc(int numTokens) {
        return new Init.Custom("2U-1 fp32; rows t >= num_tokens set to 0", (t, c) -> {
            Init.RandomSource r = c.stream("x_hc");
            long rowLen = t.numel() / t.shape(0);
            for (long i = 0; i < t.numel(); i++) {
                double u = 2 * r.uniform() - 1;
                t.setDouble(i, i / rowLen < numTokens ? u : 0);
            }
        });
    }

    /**
     * A bf16 weight {@code W = bf16((U−0.5)·scale)} quantised symmetrically to int8, per column ({@code perRow}
     * false: amax over dim 0, as wq_b) or per row (true: amax over dim 1, as wo_b). {@code scaleTensor} false fills
     * the int8 codes, true fills the fp32 dequant scales 1/sq.
     */
    static Init quantizedUniform(String weightName, int rows, int cols, double scale, boolean perRow,
                                 boolean scaleTensor) {
        String rule = "W = bf16((U-0.5)·" + (float) scale + ") [" + rows + ", " + cols + "]; per "
                + (perRow ? "row" : "column") + " amax = max(|W|, 1e-4), sq = 127/amax; "
                + (scaleTensor ? weightName + "_scale = 1/sq" : weightName + " = clamp(rint(W·sq), ±127) int8");
        return new Init.Custom(rule, (t, c) -> {
            float[] w = new float[Math.multiplyExact(rows, cols)];
            Init.RandomSource r = c.stream(weightName);
            for (int i = 0; i < w.length; i++) {
                w[i] = Dsv4Numerics.bf16((float) ((r.uniform() - 0.5) * scale));
            }
            int groups = perRow ? rows : cols;
            float[] sq = new float[groups];
            for (int i = 0; i < w.length; i++) {
                int g = perRow ? i / cols : i % cols;
                sq[g] = Math.max(sq[g], Math.abs(w[i]));
            }
            for (int g = 0; g < groups; g++) {
                sq[g] = Dsv4Numerics.quantMultiplier(sq[g]);
            }
            if (scaleTensor) {
                for (int g = 0; g < groups; g++) {
                    t.setDouble(g, 1.0f / sq[g]);
                }
            } else {
                for (int i = 0; i < w.length; i++) {
                    w[i] = Dsv4Numerics.i8q(w[i] * sq[perRow ? i / cols : i % cols]);
                }
                Arrays32.store(t, w);
            }
        });
    }

    /** The original's {@code gen_shared_weight([out, in], dequant_std, chan_cv)}, stored transposed [in, out]. */
    static Init sharedWeight(String weightName, int out, int in, double dequantStd, double chanCv,
                             boolean scaleTensor) {
        return sharedWeight(weightName, out, in, dequantStd, chanCv, scaleTensor, true);
    }

    /** As above; {@code transposed} false keeps the original's [out, in] layout (the MoE's shared expert). */
    static Init sharedWeight(String weightName, int out, int in, double dequantStd, double chanCv,
                             boolean scaleTensor, boolean transposed) {
        String rule = "gen_shared_weight([" + out + ", " + in + "], dequant_std=" + dequantStd + ", chan_cv=" + chanCv
                + "): W = N·exp(" + chanCv + "·N_row), FP8-e4m3 on 128x128 blocks with scale 2^ceil(log2(amax/448)),"
                + " per output row int8 (s = amax/127), scales ·" + dequantStd + "/std(q·s)"
                + (scaleTensor || !transposed ? "" : "; stored transposed [" + in + ", " + out + "]");
        return new Init.Custom(rule, (t, c) -> {
            Init.RandomSource r = c.stream(weightName);
            double[] w = new double[Math.multiplyExact(out, in)];
            for (int o = 0; o < out; o++) {
                double f = Math.exp(chanCv * r.normal());
                for (int k = 0; k < in; k++) {
                    w[o * in + k] = r.normal() * f;
                }
            }
            int blk = 128;
            for (int bo = 0; bo < out; bo += blk) {
                for (int bk = 0; bk < in; bk += blk) {
                    double amax = 0;
                    for (int o = bo; o < Math.min(out, bo + blk); o++) {
                        for (int k = bk; k < Math.min(in, bk + blk); k++) {
                            amax = Math.max(amax, Math.abs(w[o * in + k]));
                        }
                    }
                    double s = Math.pow(2, Math.ceil(Math.log(Math.max(amax / 448.0, 1e-20)) / Math.log(2)));
                    for (int o = bo; o < Math.min(out, bo + blk); o++) {
                        for (int k = bk; k < Math.min(in, bk + blk); k++) {
                            w[o * in + k] = Dsv4Numerics.fp8e4m3(w[o * in + k] / s) * s;
                        }
                    }
                }
            }
            int[] q = new int[w.length];
            double[] scale = new double[out];
            double sum = 0;
            double sumSq = 0;
            for (int o = 0; o < out; o++) {
                double amax = Dsv4Numerics.AMAX_EPS;
                for (int k = 0; k < in; k++) {
                    amax = Math.max(amax, Math.abs(w[o * in + k]));
                }
                scale[o] = (float) (amax / Dsv4Numerics.INT8_MAX);
                for (int k = 0; k < in; k++) {
                    q[o * in + k] = Dsv4Numerics.i8q(w[o * in + k] / scale[o]);
                    double deq = q[o * in + k] * scale[o];
                    sum += deq;
                    sumSq += deq * deq;
                }
            }
            double n = w.length;
            double std = Math.sqrt((sumSq - sum * sum / n) / (n - 1));
            if (scaleTensor) {
                for (int o = 0; o < out; o++) {
                    t.setDouble(o, scale[o] * (dequantStd / std));
                }
            } else if (transposed) {
                for (int k = 0; k < in; k++) {
                    for (int o = 0; o < out; o++) {
                        t.setDouble((long) k * out + o, q[o * in + k]);
                    }
                }
            } else {
                for (int i = 0; i < q.length; i++) {
                    t.setDouble(i, q[i]);
                }
            }
        });
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
