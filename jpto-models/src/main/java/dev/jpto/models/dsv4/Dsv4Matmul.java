package dev.jpto.models.dsv4;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.stream.IntStream;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * Packed-panel, multithreaded reference matmuls for the goldens: {@code C[M,N] = A[M,K]·B[K,N]}, C row-major.
 * A is rows of an array at a row stride; B is read in place through {@link F32B}/{@link I8B} (row-major, or the
 * transposed view of an [N, K] weight), so no weight is transposed or copied whole: each task packs a K-chunk of a
 * column panel of B into a small fp32 buffer and runs a Vector API micro-kernel with a 4-row × 2-vector block of C
 * in registers over it; the tasks are column panels, so both cores share the work.
 * <p>fp32 products accumulate in fp32 in ascending k (a multiply rounded, then an add rounded, never a fused FMA:
 * the bits of a sequential loop). int8 products are integers of magnitude ≤ 2^14, so up to 1024 of them sum exactly
 * in fp32 (≤ 2^24): each 1024-row K-chunk runs on fused fp32 FMAs and is added into the int32 result exactly.
 */
final class Dsv4Matmul {
    /** K rows of an fp32 B panel per pass (32 KiB at 512-bit vectors): the panel stays in L1/L2 across row blocks. */
    private static final int KB = 256;
    /** K rows of an int8 panel per pass: 1024 · 2^14 = 2^24, the largest exact fp32 integer sum. */
    static final int KB_I8 = 1024;
    /** Edge of the square tiles a transpose copies, so both the read and the write side stay in cache. */
    private static final int TB = 64;

    private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Integer> I = VectorSpecies.of(int.class, F.vectorShape());
    /** Columns of one panel: two vectors. */
    private static final int NB = 2 * F.length();
    /** One panel row of int8 codes. */
    private static final VectorSpecies<Byte> BP = VectorSpecies.of(byte.class, VectorShape.forBitSize(NB * 8));

    private Dsv4Matmul() {
    }

    /** {@code n} rounded up to whole column panels: an operand padded so will never take the scalar tail. */
    static int panelRows(int n) {
        return (n + NB - 1) / NB * NB;
    }

    /**
     * A [K, N] fp32 operand read in place (a tensor's memory or an array's): element (k, j) is the float at index
     * {@code off + k·kStride + j·jStride} of {@code data}.
     */
    record F32B(MemorySegment data, long off, int k, int n, int kStride, int jStride) {
        F32B(float[] data, int off, int k, int n, int kStride, int jStride) {
            this(MemorySegment.ofArray(data), off, k, n, kStride, jStride);
        }

        static F32B rowMajor(float[] b, int k, int n) {
            return new F32B(b, 0, k, n, n, 1);
        }

        /** Bᵀ of the rows of a row-major weight W [N, rowLen] from column {@code off}: B[k, j] = W[j, off + k]. */
        static F32B transposed(float[] w, int off, int n, int k, int rowLen) {
            return new F32B(w, off, k, n, 1, rowLen);
        }

        float get(int kk, int j) {
            return data.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, off + (long) kk * kStride + (long) j * jStride);
        }

        /** {@code len} elements from (kk, j) on along k (kStride 1) or along j (jStride 1) into {@code dst}. */
        void copyRun(int kk, int j, float[] dst, int at, int len) {
            MemorySegment.copy(data, ValueLayout.JAVA_FLOAT_UNALIGNED,
                    4 * (off + (long) kk * kStride + (long) j * jStride), dst, at, len);
        }
    }

    /** As {@link F32B} for int8 codes. */
    record I8B(MemorySegment data, long off, int k, int n, int kStride, int jStride) {
        I8B(byte[] data, int off, int k, int n, int kStride, int jStride) {
            this(MemorySegment.ofArray(data), off, k, n, kStride, jStride);
        }

        static I8B rowMajor(byte[] b, int k, int n) {
            return new I8B(b, 0, k, n, n, 1);
        }

        /** Bᵀ of the rows of a row-major weight W [N, rowLen] from column {@code off}: B[k, j] = W[j, off + k]. */
        static I8B transposed(byte[] w, int off, int n, int k, int rowLen) {
            return new I8B(w, off, k, n, 1, rowLen);
        }

        int get(int kk, int j) {
            return data.get(ValueLayout.JAVA_BYTE, off + (long) kk * kStride + (long) j * jStride);
        }

        void copyRun(int kk, int j, byte[] dst, int at, int len) {
            MemorySegment.copy(data, ValueLayout.JAVA_BYTE, off + (long) kk * kStride + (long) j * jStride, dst, at,
                    len);
        }
    }

    /** fp32 {@code A·B}, A and B row-major and contiguous. */
    static float[] f32(float[] a, int m, int k, float[] b, int n) {
        return f32(a, 0, k, m, F32B.rowMajor(b, k, n), true);
    }

    /**
     * fp32 {@code A·B} with A's row r at {@code a[aOff + r·lda ..]}. Each element sees the same operations in the
     * same order as {@code c += a[r,k]·b[k,j]} over ascending k from +0 (a zero a[r,k] adds ±0 to a value that is
     * never −0, so skipping it or not is the same). {@code parallel}: column panels on the common pool.
     */
    static float[] f32(float[] a, int aOff, int lda, int m, F32B b, boolean parallel) {
        int k = b.k();
        int n = b.n();
        float[] c = new float[Math.multiplyExact(m, n)];
        int colBlocks = n / NB;
        IntStream blocks = IntStream.range(0, colBlocks + (n % NB == 0 ? 0 : 1));
        (parallel ? blocks.parallel() : blocks).forEach(blk -> {
            int j = blk * NB;
            if (blk == colBlocks) {
                scalarF32(a, aOff, lda, m, b, c, j, n);
                return;
            }
            float[] panel = new float[KB * NB];
            float[] run = b.kStride() == 1 ? new float[KB] : null;
            for (int k0 = 0; k0 < k; k0 += KB) {
                int k1 = Math.min(k, k0 + KB);
                packF32(b, k0, k1, j, panel, run);
                int r = 0;
                for (; r + 4 <= m; r += 4) {
                    f32Block4(a, aOff + r * lda, lda, panel, k0, k1, c, r * n + j, n);
                }
                for (; r < m; r++) {
                    f32Block1(a, aOff + r * lda, panel, k0, k1, c, r * n + j);
                }
            }
        });
        return c;
    }

    /** B[k0..k1, j..j+NB) into {@code panel} as rows of NB (bulk runs along whichever index is contiguous). */
    private static void packF32(F32B b, int k0, int k1, int j, float[] panel, float[] run) {
        if (b.jStride() == 1) {
            for (int kk = k0; kk < k1; kk++) {
                b.copyRun(kk, j, panel, (kk - k0) * NB, NB);
            }
        } else {
            for (int jj = 0; jj < NB; jj++) {
                b.copyRun(k0, j + jj, run, 0, k1 - k0);
                for (int kk = 0; kk < k1 - k0; kk++) {
                    panel[kk * NB + jj] = run[kk];
                }
            }
        }
    }

    private static void f32Block4(float[] a, int a0, int lda, float[] p, int k0, int k1, float[] c, int o, int n) {
        int lanes = F.length();
        FloatVector c00 = FloatVector.fromArray(F, c, o);
        FloatVector c01 = FloatVector.fromArray(F, c, o + lanes);
        FloatVector c10 = FloatVector.fromArray(F, c, o + n);
        FloatVector c11 = FloatVector.fromArray(F, c, o + n + lanes);
        FloatVector c20 = FloatVector.fromArray(F, c, o + 2 * n);
        FloatVector c21 = FloatVector.fromArray(F, c, o + 2 * n + lanes);
        FloatVector c30 = FloatVector.fromArray(F, c, o + 3 * n);
        FloatVector c31 = FloatVector.fromArray(F, c, o + 3 * n + lanes);
        int a1 = a0 + lda;
        int a2 = a1 + lda;
        int a3 = a2 + lda;
        for (int kk = k0; kk < k1; kk++) {
            int po = (kk - k0) * NB;
            FloatVector b0 = FloatVector.fromArray(F, p, po);
            FloatVector b1 = FloatVector.fromArray(F, p, po + lanes);
            float v0 = a[a0 + kk];
            float v1 = a[a1 + kk];
            float v2 = a[a2 + kk];
            float v3 = a[a3 + kk];
            c00 = c00.add(b0.mul(v0));
            c01 = c01.add(b1.mul(v0));
            c10 = c10.add(b0.mul(v1));
            c11 = c11.add(b1.mul(v1));
            c20 = c20.add(b0.mul(v2));
            c21 = c21.add(b1.mul(v2));
            c30 = c30.add(b0.mul(v3));
            c31 = c31.add(b1.mul(v3));
        }
        c00.intoArray(c, o);
        c01.intoArray(c, o + lanes);
        c10.intoArray(c, o + n);
        c11.intoArray(c, o + n + lanes);
        c20.intoArray(c, o + 2 * n);
        c21.intoArray(c, o + 2 * n + lanes);
        c30.intoArray(c, o + 3 * n);
        c31.intoArray(c, o + 3 * n + lanes);
    }

    private static void f32Block1(float[] a, int a0, float[] p, int k0, int k1, float[] c, int o) {
        int lanes = F.length();
        FloatVector c0 = FloatVector.fromArray(F, c, o);
        FloatVector c1 = FloatVector.fromArray(F, c, o + lanes);
        for (int kk = k0; kk < k1; kk++) {
            int po = (kk - k0) * NB;
            float v = a[a0 + kk];
            c0 = c0.add(FloatVector.fromArray(F, p, po).mul(v));
            c1 = c1.add(FloatVector.fromArray(F, p, po + lanes).mul(v));
        }
        c0.intoArray(c, o);
        c1.intoArray(c, o + lanes);
    }

    /** The columns [c0, c1) of every row, in the sequential order. */
    private static void scalarF32(float[] a, int aOff, int lda, int m, F32B b, float[] c, int c0, int c1) {
        int n = b.n();
        for (int r = 0; r < m; r++) {
            for (int kk = 0; kk < b.k(); kk++) {
                float av = a[aOff + r * lda + kk];
                for (int j = c0; j < c1; j++) {
                    c[r * n + j] += av * b.get(kk, j);
                }
            }
        }
    }

    /** int8 × int8 → exact int32, A and B row-major and contiguous. */
    static int[] i8(byte[] a, int m, int k, byte[] b, int n) {
        return i8(a, 0, k, m, I8B.rowMajor(b, k, n));
    }

    /**
     * int8 × int8 → exact int32, A's row r at {@code a[aOff + r·lda ..]}: fp32 FMAs over packed panels of B, exact
     * per {@link #KB_I8}-row K-chunk (see the class comment); tail columns run the scalar int loop.
     */
    static int[] i8(byte[] a, int aOff, int lda, int m, I8B b) {
        int k = b.k();
        int n = b.n();
        int[] c = new int[Math.multiplyExact(m, n)];
        float[] af = new float[Math.multiplyExact(m, k)];
        for (int r = 0; r < m; r++) {
            for (int kk = 0; kk < k; kk++) {
                af[r * k + kk] = a[aOff + r * lda + kk];
            }
        }
        int colBlocks = n / NB;
        IntStream.range(0, colBlocks).parallel().forEach(blk -> {
            int j = blk * NB;
            float[] panel = new float[Math.min(k, KB_I8) * NB];
            byte[] run = b.kStride() == 1 ? new byte[Math.min(k, KB_I8)] : null;
            for (int k0 = 0; k0 < k; k0 += KB_I8) {
                int k1 = Math.min(k, k0 + KB_I8);
                packI8(b, k0, k1, j, panel, run);
                int r = 0;
                for (; r + 4 <= m; r += 4) {
                    i8Block4(af, r * k, k, panel, k0, k1, c, r * n + j, n);
                }
                for (; r < m; r++) {
                    i8Block1(af, r * k, panel, k0, k1, c, r * n + j);
                }
            }
        });
        for (int r = 0; r < m; r++) {
            for (int kk = 0; kk < k; kk++) {
                int av = a[aOff + r * lda + kk];
                for (int j = colBlocks * NB; j < n; j++) {
                    c[r * n + j] += av * b.get(kk, j);
                }
            }
        }
        return c;
    }

    /** As {@link #packF32} for int8 codes, widened to fp32 (exactly). */
    private static void packI8(I8B b, int k0, int k1, int j, float[] panel, byte[] run) {
        if (b.jStride() == 1) {
            // one panel row is NB bytes: one byte vector, widened to fp32 in two halves
            for (int kk = k0; kk < k1; kk++) {
                ByteVector v = ByteVector.fromMemorySegment(BP, b.data(), b.off() + (long) kk * b.kStride() + j,
                        ByteOrder.nativeOrder());
                int dst = (kk - k0) * NB;
                ((FloatVector) v.convertShape(VectorOperators.B2F, F, 0)).intoArray(panel, dst);
                ((FloatVector) v.convertShape(VectorOperators.B2F, F, 1)).intoArray(panel, dst + F.length());
            }
        } else {
            for (int jj = 0; jj < NB; jj++) {
                b.copyRun(k0, j + jj, run, 0, k1 - k0);
                for (int kk = 0; kk < k1 - k0; kk++) {
                    panel[kk * NB + jj] = run[kk];
                }
            }
        }
    }

    private static void i8Block4(float[] a, int a0, int lda, float[] p, int k0, int k1, int[] c, int o, int n) {
        int lanes = F.length();
        FloatVector z = FloatVector.zero(F);
        FloatVector c00 = z, c01 = z, c10 = z, c11 = z, c20 = z, c21 = z, c30 = z, c31 = z;
        int a1 = a0 + lda;
        int a2 = a1 + lda;
        int a3 = a2 + lda;
        for (int kk = k0; kk < k1; kk++) {
            int po = (kk - k0) * NB;
            FloatVector b0 = FloatVector.fromArray(F, p, po);
            FloatVector b1 = FloatVector.fromArray(F, p, po + lanes);
            FloatVector v0 = FloatVector.broadcast(F, a[a0 + kk]);
            FloatVector v1 = FloatVector.broadcast(F, a[a1 + kk]);
            FloatVector v2 = FloatVector.broadcast(F, a[a2 + kk]);
            FloatVector v3 = FloatVector.broadcast(F, a[a3 + kk]);
            c00 = b0.fma(v0, c00);
            c01 = b1.fma(v0, c01);
            c10 = b0.fma(v1, c10);
            c11 = b1.fma(v1, c11);
            c20 = b0.fma(v2, c20);
            c21 = b1.fma(v2, c21);
            c30 = b0.fma(v3, c30);
            c31 = b1.fma(v3, c31);
        }
        addExact(c00, c, o);
        addExact(c01, c, o + lanes);
        addExact(c10, c, o + n);
        addExact(c11, c, o + n + lanes);
        addExact(c20, c, o + 2 * n);
        addExact(c21, c, o + 2 * n + lanes);
        addExact(c30, c, o + 3 * n);
        addExact(c31, c, o + 3 * n + lanes);
    }

    private static void i8Block1(float[] a, int a0, float[] p, int k0, int k1, int[] c, int o) {
        int lanes = F.length();
        FloatVector c0 = FloatVector.zero(F);
        FloatVector c1 = FloatVector.zero(F);
        for (int kk = k0; kk < k1; kk++) {
            int po = (kk - k0) * NB;
            FloatVector v = FloatVector.broadcast(F, a[a0 + kk]);
            c0 = FloatVector.fromArray(F, p, po).fma(v, c0);
            c1 = FloatVector.fromArray(F, p, po + lanes).fma(v, c1);
        }
        addExact(c0, c, o);
        addExact(c1, c, o + lanes);
    }

    /** {@code c[o..] += acc}: acc holds integers of magnitude ≤ 2^24, so the conversion is exact. */
    private static void addExact(FloatVector acc, int[] c, int o) {
        IntVector sum = (IntVector) acc.convertShape(VectorOperators.F2I, I, 0);
        IntVector.fromArray(I, c, o).add(sum).intoArray(c, o);
    }

    /** Transpose of a row-major [rows, cols] matrix, in TB × TB tiles (row bands in parallel). */
    static float[] transpose(float[] x, int rows, int cols) {
        float[] t = new float[x.length];
        forEachTransposed(rows, cols, (from, to) -> t[to] = x[from]);
        return t;
    }

    /** As {@link #transpose(float[], int, int)} for int8 codes. */
    static byte[] transpose(byte[] x, int rows, int cols) {
        byte[] t = new byte[x.length];
        forEachTransposed(rows, cols, (from, to) -> t[to] = x[from]);
        return t;
    }

    /** Moves one element of a transpose: from its row-major index to the transposed one. */
    @FunctionalInterface
    private interface ElementMove {
        void move(int from, int to);
    }

    /** Visits a [rows, cols] matrix in TB × TB tiles, row bands in parallel, giving each element's two indices. */
    private static void forEachTransposed(int rows, int cols, ElementMove move) {
        IntStream.range(0, (rows + TB - 1) / TB).parallel().forEach(band -> {
            int r0 = band * TB;
            int r1 = Math.min(rows, r0 + TB);
            for (int c0 = 0; c0 < cols; c0 += TB) {
                int c1 = Math.min(cols, c0 + TB);
                for (int r = r0; r < r1; r++) {
                    for (int c = c0; c < c1; c++) {
                        move.move(r * cols + c, c * rows + r);
                    }
                }
            }
        });
    }
}
