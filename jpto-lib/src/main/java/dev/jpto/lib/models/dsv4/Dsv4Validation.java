package dev.jpto.lib.models.dsv4;

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
}
