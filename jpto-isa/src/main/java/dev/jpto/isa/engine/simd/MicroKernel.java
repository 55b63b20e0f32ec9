package dev.jpto.isa.engine.simd;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The register block of {@link FloatGemm}: {@link #mr()} rows × {@link #nr()} columns of an fp32 C kept in
 * registers while k runs over {@code mr} rows of A (row-major heap copy) and a packed B panel ({@code nr}
 * values per k). C is a heap fp32 array, read and written once per block. Each accumulator lane gets one fused
 * multiply-add per k, in increasing k, so every shape gives the same bits as the scalar engine.
 *
 * <p>Every operand is a {@code float[]} on purpose. With C in a memory segment, C2's code for this method
 * depended on the process's history: once any code had used the Vector API on heap segments (the dsv4 goldens
 * do), the segment stores here could not be intrinsified when first parsed, and the compiled loop boxed
 * (allocated) every accumulator on every FMA — 15–30× slower in the DSv4 programs than in a benchmark of the
 * same calls (jpto-bench/README.md). Array accesses have no such profile to depend on.
 *
 * <p>The shape follows the register file: {@link Rows6} (6×4V: 24 accumulators + 4 B + 1 A broadcast = 29 of
 * AVX-512's 32 zmm; per k 4 B loads and 6 broadcasts feed 24 FMAs) and {@link Rows4} (4×2V: 8 accumulators + 2 B
 * + 4 A broadcasts = 14 of AVX2's 16 ymm; on AVX2 five or more rows spill every k). Measured alone on
 * 128×128×128 (Xeon with AVX-512, loaded machine, same process, best of 6 × 400): 6×64 167–171 GFLOP/s, 8×32
 * 148–157, 4×64 144–154 (jpto-bench/README.md). Each kernel's species is a constant of its own class, so C2
 * compiles it to plain vector registers; a kernel whose species is wider than the machine's still computes
 * the same bits (the Vector API's Java fallback, slow), which lets tests run both shapes on any machine.
 */
public sealed interface MicroKernel permits MicroKernel.Rows6, MicroKernel.Rows4, MicroKernel.Rows24 {
    /** Rows of the block. */
    int mr();

    /** Columns of the block (whole vectors). */
    int nr();

    /**
     * Runs {@code count} register blocks down one B panel: for block r, rows {@code i < mr} and columns
     * {@code j < nr}, {@code C(r·mr + i, j) += Σ_k a[aOff + (r·mr + i)·lda + k] · pb[bOff + k·nr + j]} for k in
     * {@code 0 .. kc}, one FMA per product in increasing k. A is row-major (mr streams, a float per k); B is a
     * packed panel (nr floats per k); C is fp32, element (i, j) of block r at {@code c[cOff + (r·mr + i)·ldc + j]}.
     */
    void blocks(float[] a, int aOff, int lda, float[] pb, int bOff, int kc, float[] c, int cOff, int ldc, int count);

    /**
     * One row of C, {@code C(0, j) += Σ_k a[aOff + k] · pb[bOff + k·nr + j]} for {@code j < nr}, at
     * {@code c[cOff + j]}: the rows below the last whole register block, in the same order.
     */
    void row(float[] a, int aOff, float[] pb, int bOff, int kc, float[] c, int cOff);

    /** The kernel for this machine's preferred vector size: 6×4V with 512-bit (or wider) vectors, else 4×2V. */
    static MicroKernel forMachine() {
        return FloatVector.SPECIES_PREFERRED.vectorBitSize() >= 512 ? Rows6.INSTANCE : Rows4.INSTANCE;
    }

    /** 6×4V on the preferred species if it is at least 512 bits, else on 512-bit vectors. */
    final class Rows6 implements MicroKernel {
        public static final Rows6 INSTANCE = new Rows6();
        private static final VectorSpecies<Float> F = Species.F_512_UP;
        private static final int V = F.length();
        private static final int MR = 6;
        private static final int NR = 4 * V;

        private Rows6() {
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
        public void blocks(float[] a, int aOff, int lda, float[] pb, int bOff, int kc, float[] c, int cOff, int ldc,
                int count) {
            for (int r = 0; r < count; r++) {
                int a0 = aOff + r * MR * lda;
                int ci = cOff + r * MR * ldc;
                FloatVector c00 = FloatVector.fromArray(F, c, ci);
                FloatVector c01 = FloatVector.fromArray(F, c, ci + V);
                FloatVector c02 = FloatVector.fromArray(F, c, ci + 2 * V);
                FloatVector c03 = FloatVector.fromArray(F, c, ci + 3 * V);
                FloatVector c10 = FloatVector.fromArray(F, c, ci + ldc);
                FloatVector c11 = FloatVector.fromArray(F, c, ci + ldc + V);
                FloatVector c12 = FloatVector.fromArray(F, c, ci + ldc + 2 * V);
                FloatVector c13 = FloatVector.fromArray(F, c, ci + ldc + 3 * V);
                FloatVector c20 = FloatVector.fromArray(F, c, ci + 2 * ldc);
                FloatVector c21 = FloatVector.fromArray(F, c, ci + 2 * ldc + V);
                FloatVector c22 = FloatVector.fromArray(F, c, ci + 2 * ldc + 2 * V);
                FloatVector c23 = FloatVector.fromArray(F, c, ci + 2 * ldc + 3 * V);
                FloatVector c30 = FloatVector.fromArray(F, c, ci + 3 * ldc);
                FloatVector c31 = FloatVector.fromArray(F, c, ci + 3 * ldc + V);
                FloatVector c32 = FloatVector.fromArray(F, c, ci + 3 * ldc + 2 * V);
                FloatVector c33 = FloatVector.fromArray(F, c, ci + 3 * ldc + 3 * V);
                FloatVector c40 = FloatVector.fromArray(F, c, ci + 4 * ldc);
                FloatVector c41 = FloatVector.fromArray(F, c, ci + 4 * ldc + V);
                FloatVector c42 = FloatVector.fromArray(F, c, ci + 4 * ldc + 2 * V);
                FloatVector c43 = FloatVector.fromArray(F, c, ci + 4 * ldc + 3 * V);
                FloatVector c50 = FloatVector.fromArray(F, c, ci + 5 * ldc);
                FloatVector c51 = FloatVector.fromArray(F, c, ci + 5 * ldc + V);
                FloatVector c52 = FloatVector.fromArray(F, c, ci + 5 * ldc + 2 * V);
                FloatVector c53 = FloatVector.fromArray(F, c, ci + 5 * ldc + 3 * V);
                for (int k = 0; k < kc; k++) {
                    int bi = bOff + k * NR;
                    int ai = a0 + k;
                    FloatVector b0 = FloatVector.fromArray(F, pb, bi);
                    FloatVector b1 = FloatVector.fromArray(F, pb, bi + V);
                    FloatVector b2 = FloatVector.fromArray(F, pb, bi + 2 * V);
                    FloatVector b3 = FloatVector.fromArray(F, pb, bi + 3 * V);
                    FloatVector x = FloatVector.broadcast(F, a[ai]);
                    c00 = x.fma(b0, c00);
                    c01 = x.fma(b1, c01);
                    c02 = x.fma(b2, c02);
                    c03 = x.fma(b3, c03);
                    x = FloatVector.broadcast(F, a[ai + lda]);
                    c10 = x.fma(b0, c10);
                    c11 = x.fma(b1, c11);
                    c12 = x.fma(b2, c12);
                    c13 = x.fma(b3, c13);
                    x = FloatVector.broadcast(F, a[ai + 2 * lda]);
                    c20 = x.fma(b0, c20);
                    c21 = x.fma(b1, c21);
                    c22 = x.fma(b2, c22);
                    c23 = x.fma(b3, c23);
                    x = FloatVector.broadcast(F, a[ai + 3 * lda]);
                    c30 = x.fma(b0, c30);
                    c31 = x.fma(b1, c31);
                    c32 = x.fma(b2, c32);
                    c33 = x.fma(b3, c33);
                    x = FloatVector.broadcast(F, a[ai + 4 * lda]);
                    c40 = x.fma(b0, c40);
                    c41 = x.fma(b1, c41);
                    c42 = x.fma(b2, c42);
                    c43 = x.fma(b3, c43);
                    x = FloatVector.broadcast(F, a[ai + 5 * lda]);
                    c50 = x.fma(b0, c50);
                    c51 = x.fma(b1, c51);
                    c52 = x.fma(b2, c52);
                    c53 = x.fma(b3, c53);
                }
                c00.intoArray(c, ci);
                c01.intoArray(c, ci + V);
                c02.intoArray(c, ci + 2 * V);
                c03.intoArray(c, ci + 3 * V);
                c10.intoArray(c, ci + ldc);
                c11.intoArray(c, ci + ldc + V);
                c12.intoArray(c, ci + ldc + 2 * V);
                c13.intoArray(c, ci + ldc + 3 * V);
                c20.intoArray(c, ci + 2 * ldc);
                c21.intoArray(c, ci + 2 * ldc + V);
                c22.intoArray(c, ci + 2 * ldc + 2 * V);
                c23.intoArray(c, ci + 2 * ldc + 3 * V);
                c30.intoArray(c, ci + 3 * ldc);
                c31.intoArray(c, ci + 3 * ldc + V);
                c32.intoArray(c, ci + 3 * ldc + 2 * V);
                c33.intoArray(c, ci + 3 * ldc + 3 * V);
                c40.intoArray(c, ci + 4 * ldc);
                c41.intoArray(c, ci + 4 * ldc + V);
                c42.intoArray(c, ci + 4 * ldc + 2 * V);
                c43.intoArray(c, ci + 4 * ldc + 3 * V);
                c50.intoArray(c, ci + 5 * ldc);
                c51.intoArray(c, ci + 5 * ldc + V);
                c52.intoArray(c, ci + 5 * ldc + 2 * V);
                c53.intoArray(c, ci + 5 * ldc + 3 * V);
            }
        }


        @Override
        public void row(float[] a, int aOff, float[] pb, int bOff, int kc, float[] c, int cOff) {
            FloatVector c0 = FloatVector.fromArray(F, c, cOff);
            FloatVector c1 = FloatVector.fromArray(F, c, cOff + V);
            FloatVector c2 = FloatVector.fromArray(F, c, cOff + 2 * V);
            FloatVector c3 = FloatVector.fromArray(F, c, cOff + 3 * V);
            for (int k = 0; k < kc; k++) {
                int bi = bOff + k * NR;
                FloatVector x = FloatVector.broadcast(F, a[aOff + k]);
                c0 = x.fma(FloatVector.fromArray(F, pb, bi), c0);
                c1 = x.fma(FloatVector.fromArray(F, pb, bi + V), c1);
                c2 = x.fma(FloatVector.fromArray(F, pb, bi + 2 * V), c2);
                c3 = x.fma(FloatVector.fromArray(F, pb, bi + 3 * V), c3);
            }
            c0.intoArray(c, cOff);
            c1.intoArray(c, cOff + V);
            c2.intoArray(c, cOff + 2 * V);
            c3.intoArray(c, cOff + 3 * V);
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
        public void blocks(float[] a, int aOff, int lda, float[] pb, int bOff, int kc, float[] c, int cOff, int ldc,
                int count) {
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
        public void row(float[] a, int aOff, float[] pb, int bOff, int kc, float[] c, int cOff) {
            FloatVector c0 = FloatVector.fromArray(F, c, cOff);
            FloatVector c1 = FloatVector.fromArray(F, c, cOff + V);
            for (int k = 0; k < kc; k++) {
                int bi = bOff + k * NR;
                FloatVector x = FloatVector.broadcast(F, a[aOff + k]);
                c0 = x.fma(FloatVector.fromArray(F, pb, bi), c0);
                c1 = x.fma(FloatVector.fromArray(F, pb, bi + V), c1);
            }
            c0.intoArray(c, cOff);
            c1.intoArray(c, cOff + V);
        }

        @Override
        public String toString() {
            return MR + "x" + NR + " (" + F + ")";
        }
    }

    /**
     * 24×1V on 512-bit vectors: 24 accumulators + 1 B vector + 1 broadcast = 26 of AVX-512's 32 zmm; per k one B
     * load and 24 broadcasts feed 24 FMAs. For a narrow B panel (a C with at most one vector of columns), where
     * {@link Rows6}'s 64 columns would be mostly padding: {@link FloatGemm} computes {@code Cᵀ = B·Aᵀ} with it
     * when A has few rows and B is transposed (B's rows are then this kernel's row streams, unpacked).
     */
    final class Rows24 implements MicroKernel {
        public static final Rows24 INSTANCE = new Rows24();
        private static final VectorSpecies<Float> F = Species.F_512_UP;
        private static final int MR = 24;
        private static final int NR = F.length();

        private Rows24() {
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
        public void blocks(float[] a, int aOff, int lda, float[] pb, int bOff, int kc, float[] c, int cOff, int ldc,
                int count) {
            for (int r = 0; r < count; r++) {
                int a0 = aOff + r * MR * lda;
                int ci = cOff + r * MR * ldc;
                FloatVector c0 = FloatVector.fromArray(F, c, ci);
                FloatVector c1 = FloatVector.fromArray(F, c, ci + 1 * ldc);
                FloatVector c2 = FloatVector.fromArray(F, c, ci + 2 * ldc);
                FloatVector c3 = FloatVector.fromArray(F, c, ci + 3 * ldc);
                FloatVector c4 = FloatVector.fromArray(F, c, ci + 4 * ldc);
                FloatVector c5 = FloatVector.fromArray(F, c, ci + 5 * ldc);
                FloatVector c6 = FloatVector.fromArray(F, c, ci + 6 * ldc);
                FloatVector c7 = FloatVector.fromArray(F, c, ci + 7 * ldc);
                FloatVector c8 = FloatVector.fromArray(F, c, ci + 8 * ldc);
                FloatVector c9 = FloatVector.fromArray(F, c, ci + 9 * ldc);
                FloatVector c10 = FloatVector.fromArray(F, c, ci + 10 * ldc);
                FloatVector c11 = FloatVector.fromArray(F, c, ci + 11 * ldc);
                FloatVector c12 = FloatVector.fromArray(F, c, ci + 12 * ldc);
                FloatVector c13 = FloatVector.fromArray(F, c, ci + 13 * ldc);
                FloatVector c14 = FloatVector.fromArray(F, c, ci + 14 * ldc);
                FloatVector c15 = FloatVector.fromArray(F, c, ci + 15 * ldc);
                FloatVector c16 = FloatVector.fromArray(F, c, ci + 16 * ldc);
                FloatVector c17 = FloatVector.fromArray(F, c, ci + 17 * ldc);
                FloatVector c18 = FloatVector.fromArray(F, c, ci + 18 * ldc);
                FloatVector c19 = FloatVector.fromArray(F, c, ci + 19 * ldc);
                FloatVector c20 = FloatVector.fromArray(F, c, ci + 20 * ldc);
                FloatVector c21 = FloatVector.fromArray(F, c, ci + 21 * ldc);
                FloatVector c22 = FloatVector.fromArray(F, c, ci + 22 * ldc);
                FloatVector c23 = FloatVector.fromArray(F, c, ci + 23 * ldc);
                for (int k = 0; k < kc; k++) {
                    int ai = a0 + k;
                    FloatVector b = FloatVector.fromArray(F, pb, bOff + k * NR);
                    c0 = FloatVector.broadcast(F, a[ai]).fma(b, c0);
                    c1 = FloatVector.broadcast(F, a[ai + 1 * lda]).fma(b, c1);
                    c2 = FloatVector.broadcast(F, a[ai + 2 * lda]).fma(b, c2);
                    c3 = FloatVector.broadcast(F, a[ai + 3 * lda]).fma(b, c3);
                    c4 = FloatVector.broadcast(F, a[ai + 4 * lda]).fma(b, c4);
                    c5 = FloatVector.broadcast(F, a[ai + 5 * lda]).fma(b, c5);
                    c6 = FloatVector.broadcast(F, a[ai + 6 * lda]).fma(b, c6);
                    c7 = FloatVector.broadcast(F, a[ai + 7 * lda]).fma(b, c7);
                    c8 = FloatVector.broadcast(F, a[ai + 8 * lda]).fma(b, c8);
                    c9 = FloatVector.broadcast(F, a[ai + 9 * lda]).fma(b, c9);
                    c10 = FloatVector.broadcast(F, a[ai + 10 * lda]).fma(b, c10);
                    c11 = FloatVector.broadcast(F, a[ai + 11 * lda]).fma(b, c11);
                    c12 = FloatVector.broadcast(F, a[ai + 12 * lda]).fma(b, c12);
                    c13 = FloatVector.broadcast(F, a[ai + 13 * lda]).fma(b, c13);
                    c14 = FloatVector.broadcast(F, a[ai + 14 * lda]).fma(b, c14);
                    c15 = FloatVector.broadcast(F, a[ai + 15 * lda]).fma(b, c15);
                    c16 = FloatVector.broadcast(F, a[ai + 16 * lda]).fma(b, c16);
                    c17 = FloatVector.broadcast(F, a[ai + 17 * lda]).fma(b, c17);
                    c18 = FloatVector.broadcast(F, a[ai + 18 * lda]).fma(b, c18);
                    c19 = FloatVector.broadcast(F, a[ai + 19 * lda]).fma(b, c19);
                    c20 = FloatVector.broadcast(F, a[ai + 20 * lda]).fma(b, c20);
                    c21 = FloatVector.broadcast(F, a[ai + 21 * lda]).fma(b, c21);
                    c22 = FloatVector.broadcast(F, a[ai + 22 * lda]).fma(b, c22);
                    c23 = FloatVector.broadcast(F, a[ai + 23 * lda]).fma(b, c23);
                }
                c0.intoArray(c, ci);
                c1.intoArray(c, ci + 1 * ldc);
                c2.intoArray(c, ci + 2 * ldc);
                c3.intoArray(c, ci + 3 * ldc);
                c4.intoArray(c, ci + 4 * ldc);
                c5.intoArray(c, ci + 5 * ldc);
                c6.intoArray(c, ci + 6 * ldc);
                c7.intoArray(c, ci + 7 * ldc);
                c8.intoArray(c, ci + 8 * ldc);
                c9.intoArray(c, ci + 9 * ldc);
                c10.intoArray(c, ci + 10 * ldc);
                c11.intoArray(c, ci + 11 * ldc);
                c12.intoArray(c, ci + 12 * ldc);
                c13.intoArray(c, ci + 13 * ldc);
                c14.intoArray(c, ci + 14 * ldc);
                c15.intoArray(c, ci + 15 * ldc);
                c16.intoArray(c, ci + 16 * ldc);
                c17.intoArray(c, ci + 17 * ldc);
                c18.intoArray(c, ci + 18 * ldc);
                c19.intoArray(c, ci + 19 * ldc);
                c20.intoArray(c, ci + 20 * ldc);
                c21.intoArray(c, ci + 21 * ldc);
                c22.intoArray(c, ci + 22 * ldc);
                c23.intoArray(c, ci + 23 * ldc);
            }
        }

        @Override
        public void row(float[] a, int aOff, float[] pb, int bOff, int kc, float[] c, int cOff) {
            FloatVector c0 = FloatVector.fromArray(F, c, cOff);
            for (int k = 0; k < kc; k++) {
                c0 = FloatVector.broadcast(F, a[aOff + k]).fma(FloatVector.fromArray(F, pb, bOff + k * NR), c0);
            }
            c0.intoArray(c, cOff);
        }

        @Override
        public String toString() {
            return MR + "x" + NR + " (" + F + ")";
        }
    }
}
