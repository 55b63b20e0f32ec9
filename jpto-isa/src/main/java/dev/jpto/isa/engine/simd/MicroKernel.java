package dev.jpto.isa.engine.simd;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The register block of {@link FloatGemm}: {@link #mr()} rows × {@link #nr()} = two vectors of C kept in
 * registers while k runs over {@code mr} rows of A (row-major) and a packed B panel ({@code nr} values per k). Each accumulator lane gets one fused multiply-add per k, in increasing k, so every
 * shape gives the same bits.
 *
 * <p>The shape follows the register file: {@link Rows8} (8×2V: 16 accumulators + 2 B + 8 A broadcasts = 26 of
 * AVX-512's 32 zmm) and {@link Rows4} (4×2V: 8 accumulators + 2 B + 4 A broadcasts = 14 of AVX2's 16 ymm).
 * C2 loads a block's A broadcasts ahead of its FMAs, so on AVX2 five or more rows spill every k: measured
 * alone on Zen 3, 4×16 runs at the register-only FMA ceiling (~85 GFLOP/s), 8×16 at ~60 % of it and 6×16
 * at ~50 %. Each kernel's species is a constant of its own class, so C2 compiles it to plain vector
 * registers; a kernel whose species is wider than the machine's still computes the same bits (the Vector
 * API's Java fallback, slow), which lets tests run both shapes on any machine.
 */
public sealed interface MicroKernel permits MicroKernel.Rows8, MicroKernel.Rows4 {
    /** Rows of the block. */
    int mr();

    /** Columns of the block (two vectors). */
    int nr();

    /**
     * Runs {@code count} register blocks down one B panel: for block r, rows {@code i < mr} and columns
     * {@code j < nr}, {@code c[cOff + (r·mr + i)·ldc + j] += Σ_k a[aOff + (r·mr + i)·lda + k] · pb[bOff + k·nr + j]}
     * for k in {@code 0 .. kc}, one FMA per product in increasing k. A is row-major (mr sequential streams, one
     * per row, read a float per k); B is a packed panel (nr floats per k). The sums stay in registers for all of k; C
     * is a heap array (reading a memory segment here makes C2 hit its inlining node limit and box vectors).
     */
    void blocks(float[] a, int aOff, int lda, float[] pb, int bOff, int kc, float[] c, int cOff, int ldc, int count);

    /** The kernel for this machine's preferred vector size: 8 rows with 512-bit (or wider) vectors, else 4. */
    static MicroKernel forMachine() {
        return FloatVector.SPECIES_PREFERRED.vectorBitSize() >= 512 ? Rows8.INSTANCE : Rows4.INSTANCE;
    }

    /** 8×2V on the preferred species if it is at least 512 bits, else on 512-bit vectors. */
    final class Rows8 implements MicroKernel {
        public static final Rows8 INSTANCE = new Rows8();
        private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED.vectorBitSize() >= 512
                ? FloatVector.SPECIES_PREFERRED : FloatVector.SPECIES_512;
        private static final int V = F.length();
        private static final int MR = 8;
        private static final int NR = 2 * V;

        private Rows8() {
        }

        @Override
        public int mr() {
            return MR;
        }

        @Override
        public int nr() {
            return NR;
        }

        @Override
        public void blocks(float[] a, int aOff, int lda, float[] pb, int bOff, int kc, float[] c, int cOff,
                int ldc, int count) {
            for (int r = 0; r < count; r++) {
                int a0 = aOff + r * MR * lda;
                int ci = cOff + r * MR * ldc;
                FloatVector c00 = FloatVector.fromArray(F, c, ci);
                FloatVector c01 = FloatVector.fromArray(F, c, ci + V);
                FloatVector c10 = FloatVector.fromArray(F, c, ci + ldc);
                FloatVector c11 = FloatVector.fromArray(F, c, ci + ldc + V);
                FloatVector c20 = FloatVector.fromArray(F, c, ci + 2 * ldc);
                FloatVector c21 = FloatVector.fromArray(F, c, ci + 2 * ldc + V);
                FloatVector c30 = FloatVector.fromArray(F, c, ci + 3 * ldc);
                FloatVector c31 = FloatVector.fromArray(F, c, ci + 3 * ldc + V);
                FloatVector c40 = FloatVector.fromArray(F, c, ci + 4 * ldc);
                FloatVector c41 = FloatVector.fromArray(F, c, ci + 4 * ldc + V);
                FloatVector c50 = FloatVector.fromArray(F, c, ci + 5 * ldc);
                FloatVector c51 = FloatVector.fromArray(F, c, ci + 5 * ldc + V);
                FloatVector c60 = FloatVector.fromArray(F, c, ci + 6 * ldc);
                FloatVector c61 = FloatVector.fromArray(F, c, ci + 6 * ldc + V);
                FloatVector c70 = FloatVector.fromArray(F, c, ci + 7 * ldc);
                FloatVector c71 = FloatVector.fromArray(F, c, ci + 7 * ldc + V);
                for (int k = 0; k < kc; k++) {
                    int bi = bOff + k * NR;
                    int ai = a0 + k;
                    FloatVector b0 = FloatVector.fromArray(F, pb, bi);
                    FloatVector b1 = FloatVector.fromArray(F, pb, bi + V);
                    FloatVector x = FloatVector.broadcast(F, a[ai]);
                    c00 = x.fma(b0, c00);
                    c01 = x.fma(b1, c01);
                    x = FloatVector.broadcast(F, a[ai + lda]);
                    c10 = x.fma(b0, c10);
                    c11 = x.fma(b1, c11);
                    x = FloatVector.broadcast(F, a[ai + 2 * lda]);
                    c20 = x.fma(b0, c20);
                    c21 = x.fma(b1, c21);
                    x = FloatVector.broadcast(F, a[ai + 3 * lda]);
                    c30 = x.fma(b0, c30);
                    c31 = x.fma(b1, c31);
                    x = FloatVector.broadcast(F, a[ai + 4 * lda]);
                    c40 = x.fma(b0, c40);
                    c41 = x.fma(b1, c41);
                    x = FloatVector.broadcast(F, a[ai + 5 * lda]);
                    c50 = x.fma(b0, c50);
                    c51 = x.fma(b1, c51);
                    x = FloatVector.broadcast(F, a[ai + 6 * lda]);
                    c60 = x.fma(b0, c60);
                    c61 = x.fma(b1, c61);
                    x = FloatVector.broadcast(F, a[ai + 7 * lda]);
                    c70 = x.fma(b0, c70);
                    c71 = x.fma(b1, c71);
                }
                c00.intoArray(c, ci);
                c01.intoArray(c, ci + V);
                c10.intoArray(c, ci + ldc);
                c11.intoArray(c, ci + ldc + V);
                c20.intoArray(c, ci + 2 * ldc);
                c21.intoArray(c, ci + 2 * ldc + V);
                c30.intoArray(c, ci + 3 * ldc);
                c31.intoArray(c, ci + 3 * ldc + V);
                c40.intoArray(c, ci + 4 * ldc);
                c41.intoArray(c, ci + 4 * ldc + V);
                c50.intoArray(c, ci + 5 * ldc);
                c51.intoArray(c, ci + 5 * ldc + V);
                c60.intoArray(c, ci + 6 * ldc);
                c61.intoArray(c, ci + 6 * ldc + V);
                c70.intoArray(c, ci + 7 * ldc);
                c71.intoArray(c, ci + 7 * ldc + V);
            }
        }

        @Override
        public String toString() {
            return MR + "x" + NR + " (" + F + ")";
        }
    }

    /** 4×2V on the preferred species if it is at most 256 bits, else on 256-bit vectors. */
    final class Rows4 implements MicroKernel {
        public static final Rows4 INSTANCE = new Rows4();
        private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED.vectorBitSize() <= 256
                ? FloatVector.SPECIES_PREFERRED : FloatVector.SPECIES_256;
        private static final int V = F.length();
        private static final int MR = 4;
        private static final int NR = 2 * V;

        private Rows4() {
        }

        @Override
        public int mr() {
            return MR;
        }

        @Override
        public int nr() {
            return NR;
        }

        @Override
        public void blocks(float[] a, int aOff, int lda, float[] pb, int bOff, int kc, float[] c, int cOff,
                int ldc, int count) {
            for (int r = 0; r < count; r++) {
                int a0 = aOff + r * MR * lda;
                int ci = cOff + r * MR * ldc;
                FloatVector c00 = FloatVector.fromArray(F, c, ci);
                FloatVector c01 = FloatVector.fromArray(F, c, ci + V);
                FloatVector c10 = FloatVector.fromArray(F, c, ci + ldc);
                FloatVector c11 = FloatVector.fromArray(F, c, ci + ldc + V);
                FloatVector c20 = FloatVector.fromArray(F, c, ci + 2 * ldc);
                FloatVector c21 = FloatVector.fromArray(F, c, ci + 2 * ldc + V);
                FloatVector c30 = FloatVector.fromArray(F, c, ci + 3 * ldc);
                FloatVector c31 = FloatVector.fromArray(F, c, ci + 3 * ldc + V);
                for (int k = 0; k < kc; k++) {
                    int bi = bOff + k * NR;
                    int ai = a0 + k;
                    FloatVector b0 = FloatVector.fromArray(F, pb, bi);
                    FloatVector b1 = FloatVector.fromArray(F, pb, bi + V);
                    FloatVector x = FloatVector.broadcast(F, a[ai]);
                    c00 = x.fma(b0, c00);
                    c01 = x.fma(b1, c01);
                    x = FloatVector.broadcast(F, a[ai + lda]);
                    c10 = x.fma(b0, c10);
                    c11 = x.fma(b1, c11);
                    x = FloatVector.broadcast(F, a[ai + 2 * lda]);
                    c20 = x.fma(b0, c20);
                    c21 = x.fma(b1, c21);
                    x = FloatVector.broadcast(F, a[ai + 3 * lda]);
                    c30 = x.fma(b0, c30);
                    c31 = x.fma(b1, c31);
                }
                c00.intoArray(c, ci);
                c01.intoArray(c, ci + V);
                c10.intoArray(c, ci + ldc);
                c11.intoArray(c, ci + ldc + V);
                c20.intoArray(c, ci + 2 * ldc);
                c21.intoArray(c, ci + 2 * ldc + V);
                c30.intoArray(c, ci + 3 * ldc);
                c31.intoArray(c, ci + 3 * ldc + V);
            }
        }

        @Override
        public String toString() {
            return MR + "x" + NR + " (" + F + ")";
        }
    }
}
