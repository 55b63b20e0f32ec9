package dev.jpto.models.dsv4;

/**
 * Parameters of one RoPE table ({@code rope_tables.py precompute}). YaRN frequency blending applies only when
 * {@code originalSeqLen > 0}.
 */
public record RopeProfile(double base, int originalSeqLen, double factor, double betaFast, double betaSlow) {

    public boolean yarn() {
        return originalSeqLen > 0;
    }
}
