package dev.jpto.models.dsv4;

/**
 * The RoPE tables of {@code rope_tables.py}: {@code inv_freq[i] = base^(-2i/dim)} (fp32), blended by YaRN when
 * the profile has an original length, angles {@code p·inv_freq[i]} in fp32, and a {@code [seqLen, dim]} table
 * whose second half duplicates the first ({@code [cos_half | cos_half]}). Kernels read columns 0..dim/2−1 only.
 */
public final class RopeTables {
    private RopeTables() {
    }

    /** inv_freq of the profile (fp32 values held in a float[]), length dim/2. */
    public static float[] invFreq(RopeProfile profile, int dim) {
        int half = dim / 2;
        float[] f = new float[half];
        for (int i = 0; i < half; i++) {
            f[i] = (float) (1.0 / Math.pow(profile.base(), (2.0 * i) / dim));
        }
        if (profile.yarn()) {
            double low = Math.max(Math.floor(corrDim(profile.betaFast(), dim, profile)), 0);
            double high = Math.min(Math.ceil(corrDim(profile.betaSlow(), dim, profile)), dim - 1);
            if (low == high) {
                high += 0.001;
            }
            for (int i = 0; i < half; i++) {
                double ramp = Math.min(1.0, Math.max(0.0, (i - low) / (high - low)));
                double smooth = 1.0 - ramp;
                f[i] = (float) (f[i] / profile.factor() * (1.0 - smooth) + f[i] * smooth);
            }
        }
        return f;
    }

    /** YaRN correction dimension for {@code rotations} full turns over the original length. */
    static double corrDim(double rotations, int dim, RopeProfile p) {
        return dim * Math.log(p.originalSeqLen() / (rotations * 2 * Math.PI)) / (2 * Math.log(p.base()));
    }

    /** {@code cos(p·inv_freq[i])} for i < dim/2 at {@code seqLen} positions, row-major [seqLen][dim/2]. */
    public static float[] cosHalf(RopeProfile profile, int dim, int seqLen) {
        return table(profile, dim, seqLen, true);
    }

    /** {@code sin(p·inv_freq[i])}, row-major [seqLen][dim/2]. */
    public static float[] sinHalf(RopeProfile profile, int dim, int seqLen) {
        return table(profile, dim, seqLen, false);
    }

    private static float[] table(RopeProfile profile, int dim, int seqLen, boolean cos) {
        float[] inv = invFreq(profile, dim);
        int half = dim / 2;
        float[] out = new float[seqLen * half];
        for (int p = 0; p < seqLen; p++) {
            for (int i = 0; i < half; i++) {
                float angle = (float) p * inv[i];
                out[p * half + i] = (float) (cos ? Math.cos(angle) : Math.sin(angle));
            }
        }
        return out;
    }
}
