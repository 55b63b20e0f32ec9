package dev.jpto.models.dsv4;

/**
 * Interleaved RoPE on the last {@code ropeDim} lanes of a vector: pairs (2i, 2i+1) rotate by frequency i with
 * {@code c = cos[pos, i]}, {@code s = sin[pos, i]} read from the first half of the [MAX_SEQ_LEN, ropeDim] tables.
 */
final class Rope {
    private final float[] cos;
    private final float[] sin;
    private final int ropeDim;

    /** {@code cos}/{@code sin}: the program's freqs tables as fp32 values, row-major [seqLen, ropeDim]. */
    Rope(float[] cos, float[] sin, int ropeDim) {
        this.cos = cos;
        this.sin = sin;
        this.ropeDim = ropeDim;
    }

    /** Rotates {@code x[off + base .. off + base + ropeDim)} in place (fp32), forward or inverse. */
    void apply(float[] x, int off, int pos, boolean inverse) {
        int row = pos * ropeDim;
        for (int i = 0; i < ropeDim / 2; i++) {
            float c = cos[row + i];
            float s = sin[row + i];
            float a = x[off + 2 * i];
            float b = x[off + 2 * i + 1];
            if (inverse) {
                x[off + 2 * i] = a * c + b * s;
                x[off + 2 * i + 1] = b * c - a * s;
            } else {
                x[off + 2 * i] = a * c - b * s;
                x[off + 2 * i + 1] = a * s + b * c;
            }
        }
    }
}
