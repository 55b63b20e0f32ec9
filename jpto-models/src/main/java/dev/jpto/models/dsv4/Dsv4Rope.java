package dev.jpto.models.dsv4;

/**
 * The RoPE configuration of a model: SWA layers (compress ratio 0) use {@code theta} without YaRN; compressed
 * layers (CSA ratio 4, HCA ratio 128) use {@code compressTheta} with YaRN when {@code originalMaxPos > 0}.
 */
public record Dsv4Rope(double theta, double compressTheta, double factor, double betaFast, double betaSlow,
                       int originalMaxPos) {

    /** The table profile a program of this compress ratio reads (one profile per program). */
    public RopeProfile profile(int compressRatio) {
        return compressRatio == 0
                ? new RopeProfile(theta, 0, factor, betaFast, betaSlow)
                : new RopeProfile(compressTheta, originalMaxPos, factor, betaFast, betaSlow);
    }
}
