package dev.jpto.models.dsv4;

import dev.jpto.isa.Tensor;

/**
 * The x_out comparator of the original ({@code ratio_reldiff}, spec §5.6) and the stronger check issue 7 adds:
 * the attention share of x_out ({@code x_out − Σ_i x_hc·comb}) against the golden's {@code attn_out·post}, by
 * relative L2 error (structured defects: a missing sink, a skipped inverse RoPE) and by the least-squares gain
 * (a uniform scale such as ×1.01, which a per-element tolerance cannot see).
 */
public final class Dsv4Validation {
    /** Relative L2 error of the attention share that still passes ("a few percent"). */
    public static final double SHARE_REL_L2 = 0.03;
    /** Largest |gain − 1| of the attention share that passes (a 1 % scale fails). */
    public static final double SHARE_GAIN = 0.003;

    private Dsv4Validation() {
    }

    /** Outcome of {@link #ratioReldiff}: bad points, how many were allowed, the worst relative difference. */
    public record RatioResult(boolean pass, long bad, long allowed, double maxBadRdiff, String reason) {
    }

    /** Outcome of {@link #attentionShare}. */
    public record ShareResult(boolean pass, double relL2, double gain) {
    }

    /** The per-program x_out thresholds of the original ({@code diff_thd}, {@code pct_thd}, {@code max_diff_hd}). */
    public static double[] xOutThresholds(Dsv4Program program, int startPos) {
        return switch (program) {
            case SWA -> new double[] {3e-3, 0.005, 1};
            case CSA -> startPos == 0 ? new double[] {5e-3, 0.005, 1} : new double[] {8e-3, 0.005, 2};
            case HCA -> new double[] {5e-3, 0.005, 1};
        };
    }

    /**
     * {@code ratio_reldiff}: rows ≥ validRows of {@code actual} must be exactly zero (zero tail), NaN/Inf fail;
     * {@code rdiff = a} if {@code a < diffThd} else {@code a / (max(|act|, |exp|, 2^-14/diffThd) + 1e-9)}; pass iff
     * at most {@code round(pctThd·numel)} points exceed diffThd and the worst of them is below maxDiffHd.
     */
    public static RatioResult ratioReldiff(Tensor actual, Tensor expected, double diffThd, double pctThd,
                                           double maxDiffHd, int validRows) {
        long n = actual.numel();
        long rowLen = n / actual.shape(0);
        long validN = validRows * rowLen;
        for (long i = validN; i < n; i++) {
            if (actual.getDouble(i) != 0) {
                return new RatioResult(false, 0, 0, 0, "padding row " + i / rowLen + " is not zero");
            }
        }
        long bad = 0;
        double worst = 0;
        double floor = Math.pow(2, -14) / diffThd;
        for (long i = 0; i < validN; i++) {
            double a = actual.getDouble(i);
            double e = expected.getDouble(i);
            if (!Double.isFinite(a) || !Double.isFinite(e)) {
                return new RatioResult(false, 0, 0, 0, "non-finite value at " + i);
            }
            double diff = Math.abs(a - e);
            double r = diff < diffThd ? diff : diff / (Math.max(Math.max(Math.abs(a), Math.abs(e)), floor) + 1e-9);
            if (r > diffThd) {
                bad++;
                worst = Math.max(worst, r);
            }
        }
        long allowed = Math.round(pctThd * validN);
        boolean pass = bad <= allowed && (bad == 0 || worst < maxDiffHd);
        return new RatioResult(pass, bad, allowed, worst, pass ? "" : bad + " bad points (allowed " + allowed
                + "), worst rdiff " + worst);
    }

    /** Outcome of {@link #mappedPool}. */
    public record PoolResult(boolean pass, long mappedRows, long bad, long allowed, String reason) {
    }

    /** The original's (atol, rtol, max_error_ratio) and mapping name for a validated pool, spec §5.6. */
    public record PoolTolerance(String mapping, double atol, double rtol, double maxErrorRatio) {
    }

    public static PoolTolerance poolTolerance(Dsv4Program program, String pool) {
        return switch (pool) {
            case "kv_cache" -> new PoolTolerance("ori_slot_mapping", 1e-4,
                    program == Dsv4Program.SWA ? 1e-2 : 1.0 / 128, 0.005);
            case "cmp_kv" -> new PoolTolerance("cmp_slot_mapping", 1e-4, 1.0 / 128, 0.005);
            case "compress_state" -> new PoolTolerance("state_slot_mapping", 1e-3, 1e-3, 0.005);
            case "inner_compress_state" -> new PoolTolerance("inner_state_slot_mapping", 1e-3, 1e-3, 0.005);
            case "idx_kv_cache" -> new PoolTolerance("idx_slot_mapping", 1, 0, 0.01);
            case "idx_kv_scale" -> new PoolTolerance("idx_slot_mapping", 1e-4, 1.0 / 128, 0.01);
            default -> throw new IllegalArgumentException("no pool tolerance for '" + pool + "' in "
                    + program.programName() + "; pools: kv_cache, cmp_kv, compress_state, inner_compress_state,"
                    + " idx_kv_cache, idx_kv_scale");
        };
    }

    /**
     * The mapped-pool comparator: both pools viewed as rows of their last dimension; the mapping must hold −1 from
     * {@code numTokens} on and distinct in-range rows before; every row not named by an active mapping entry must
     * be bitwise identical to the golden (untouched); the mapped rows pass when at most
     * {@code round(maxErrorRatio·elements)} of their elements have {@code |act − exp| > atol + rtol·|exp|}.
     */
    public static PoolResult mappedPool(Tensor actual, Tensor expected, Tensor mapping, int numTokens,
                                        PoolTolerance tol) {
        if (!java.util.Arrays.equals(actual.shape(), expected.shape())) {
            return new PoolResult(false, 0, 0, 0, "shape " + java.util.Arrays.toString(actual.shape())
                    + " differs from the golden's " + java.util.Arrays.toString(expected.shape()));
        }
        long width = actual.shape(actual.rank() - 1);
        long rows = actual.numel() / width;
        java.util.BitSet mapped = new java.util.BitSet();
        for (int t = 0; t < mapping.numel(); t++) {
            long row = (long) mapping.getDouble(t);
            if (t >= numTokens) {
                if (row != -1) {
                    return new PoolResult(false, 0, 0, 0, tol.mapping() + "[" + t + "]=" + row
                            + " must be -1 for an inactive row");
                }
                continue;
            }
            if (row < -1 || row >= rows) {
                return new PoolResult(false, 0, 0, 0, tol.mapping() + "[" + t + "]=" + row + " is outside [-1, "
                        + rows + ")");
            }
            if (row >= 0) {
                if (mapped.get((int) row)) {
                    return new PoolResult(false, 0, 0, 0, tol.mapping() + " names row " + row + " twice");
                }
                mapped.set((int) row);
            }
        }
        long bad = 0;
        for (long row = 0; row < rows; row++) {
            boolean isMapped = mapped.get((int) row);
            for (long j = 0; j < width; j++) {
                long i = row * width + j;
                double a = actual.getDouble(i);
                double e = expected.getDouble(i);
                if (!Double.isFinite(a) || !Double.isFinite(e)) {
                    return new PoolResult(false, mapped.cardinality(), 0, 0, "non-finite value in row " + row);
                }
                if (!isMapped) {
                    if (Double.doubleToRawLongBits(a) != Double.doubleToRawLongBits(e)) {
                        return new PoolResult(false, mapped.cardinality(), 0, 0, "unmapped row " + row
                                + " changed at lane " + j + ": " + a + " != " + e);
                    }
                } else if (Math.abs(a - e) > tol.atol() + tol.rtol() * Math.abs(e)) {
                    bad++;
                }
            }
        }
        long allowed = Math.round(tol.maxErrorRatio() * mapped.cardinality() * width);
        boolean pass = bad <= allowed;
        return new PoolResult(pass, mapped.cardinality(), bad, allowed, pass ? "" : bad
                + " elements of mapped rows outside atol=" + tol.atol() + " rtol=" + tol.rtol() + " (allowed "
                + allowed + ")");
    }

    /**
     * Compares the attention share of {@code actualXOut} (minus the golden's residual mix) with the golden's
     * share over the active rows: relative L2 error ≤ {@link #SHARE_REL_L2} and least-squares gain within
     * {@link #SHARE_GAIN} of 1.
     */
    public static ShareResult attentionShare(Tensor actualXOut, Dsv4GoldenResult golden, int validRows) {
        Tensor share = golden.attnShare();
        Tensor residual = golden.residual();
        long rowLen = share.numel() / share.shape(0);
        double num = 0;
        double den = 0;
        double cross = 0;
        for (long i = 0; i < validRows * rowLen; i++) {
            double a = actualXOut.getDouble(i) - residual.getDouble(i);
            double e = share.getDouble(i);
            num += (a - e) * (a - e);
            den += e * e;
            cross += a * e;
        }
        double relL2 = Math.sqrt(num / den);
        double gain = cross / den;
        return new ShareResult(relL2 <= SHARE_REL_L2 && Math.abs(gain - 1) <= SHARE_GAIN, relL2, gain);
    }

    /**
     * The residual mix {@code Σ_i x_hc[t,i,:]·comb[t,4i+o]} (fp32, [T, HC, D]) recomputed from the inputs by the
     * golden's hc_pre, for checking the attention share without the golden's trace (the runner's comparators see
     * only inputs and outputs).
     */
    public static float[] residualMix(Dsv4Preset preset, java.util.Map<String, Tensor> inputs) {
        return residualMix(preset, inputs.get("x_hc"), inputs, "hc_attn");
    }

    /**
     * The residual mix of {@code xHc} with the hyper-connection weights {@code <hc>_fn/_scale/_base} of
     * {@code inputs} (e.g. {@code hc_ffn} around the MoE).
     */
    public static float[] residualMix(Dsv4Preset preset, Tensor xHc, java.util.Map<String, Tensor> inputs,
                                      String hcWeights) {
        Dsv4Dims m = preset.dims();
        int t = preset.t();
        float[] x = Arrays32.floats(xHc);
        HcStages.Pre pre = HcStages.pre(x, Arrays32.floats(inputs.get(hcWeights + "_fn")),
                Arrays32.floats(inputs.get(hcWeights + "_scale")), Arrays32.floats(inputs.get(hcWeights + "_base")),
                m, t);
        int hc = m.hcMult();
        int d = m.d();
        float[] out = new float[t * hc * d];
        float[] share = new float[t * hc * d];
        float[] residual = new float[t * hc * d];
        HcStages.post(new float[t * d], x, pre.post(), pre.comb(), t, preset.numTokens(), hc, d, out, share,
                residual);
        return residual;
    }

    /** {@link #attentionShare(Tensor, Dsv4GoldenResult, int)} from x_out pairs and a recomputed residual mix. */
    public static ShareResult attentionShare(Tensor actualXOut, Tensor expectedXOut, float[] residual, int validRows) {
        long rowLen = expectedXOut.numel() / expectedXOut.shape(0);
        double num = 0;
        double den = 0;
        double cross = 0;
        for (long i = 0; i < validRows * rowLen; i++) {
            double a = actualXOut.getDouble(i) - residual[(int) i];
            double e = expectedXOut.getDouble(i) - residual[(int) i];
            num += (a - e) * (a - e);
            den += e * e;
            cross += a * e;
        }
        double relL2 = Math.sqrt(num / den);
        double gain = cross / den;
        return new ShareResult(relL2 <= SHARE_REL_L2 && Math.abs(gain - 1) <= SHARE_GAIN, relL2, gain);
    }
}
