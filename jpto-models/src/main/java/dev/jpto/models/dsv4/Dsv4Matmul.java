package dev.jpto.models.dsv4;

import java.util.stream.IntStream;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * Blocked, multithreaded reference matmuls for the goldens: {@code C[M,N] = A[M,K]·B[K,N]}, all row-major.
 * fp32 products accumulate in fp32 in ascending k (a multiply rounded, then an add rounded, never a fused FMA: the
 * bits of a sequential loop); int8 products accumulate exactly in int32. Both use Vector API micro-kernels that keep
 * a 4-row × 2-vector block of C in registers; the tasks are column panels of B, so both cores share the work.
 */
final class Dsv4Matmul {
    /** K rows of a B panel per pass (32 KiB of fp32 at 512-bit vectors): the panel stays in L2 across row blocks. */
    private static final int KB = 256;
    /** Edge of the square tiles a transpose copies, so both the read and the write side stay in cache. */
    private static final int TB = 64;

    private Dsv4Matmul() {
    }

    /**
     * fp32 {@code A·B}. Each element sees the same operations in the same order as {@code c += a[r,k]·b[k,j]} over
     * ascending k from +0 (a zero a[r,k] adds ±0 to a value that is never −0, so skipping it or not is the same).
     */
    static float[] f32(float[] a, int m, int k, float[] b, int n) {
        float[] c = new float[Math.multiplyExact(m, n)];
        int nb = 2 * F.length();
        int colBlocks = n / nb;
        IntStream.range(0, colBlocks + (n % nb == 0 ? 0 : 1)).parallel().forEach(blk -> {
            int j = blk * nb;
            if (blk == colBlocks) {
                scalarF32(a, k, b, n, c, m, j, n);
                return;
            }
            for (int k0 = 0; k0 < k; k0 += KB) {
                int k1 = Math.min(k, k0 + KB);
                int r = 0;
                for (; r + 4 <= m; r += 4) {
                    f32Block4(a, k, b, n, c, r, j, k0, k1);
                }
                for (; r < m; r++) {
                    f32Block1(a, k, b, n, c, r, j, k0, k1);
                }
            }
        });
        return c;
    }

    private static final VectorSpecies<Float> F =
            FloatVector.SPECIES_PREFERRED;

    private static void f32Block4(float[] a, int k, float[] b, int n, float[] c, int r, int j, int k0, int k1) {
        int lanes = F.length();
        int o = r * n + j;
        FloatVector c00 = FloatVector.fromArray(F, c, o);
        FloatVector c01 = FloatVector.fromArray(F, c, o + lanes);
        FloatVector c10 = FloatVector.fromArray(F, c, o + n);
        FloatVector c11 = FloatVector.fromArray(F, c, o + n + lanes);
        FloatVector c20 = FloatVector.fromArray(F, c, o + 2 * n);
        FloatVector c21 = FloatVector.fromArray(F, c, o + 2 * n + lanes);
        FloatVector c30 = FloatVector.fromArray(F, c, o + 3 * n);
        FloatVector c31 = FloatVector.fromArray(F, c, o + 3 * n + lanes);
        int a0 = r * k;
        int a1 = a0 + k;
        int a2 = a1 + k;
        int a3 = a2 + k;
        for (int kk = k0; kk < k1; kk++) {
            int bo = kk * n + j;
            FloatVector b0 = FloatVector.fromArray(F, b, bo);
            FloatVector b1 = FloatVector.fromArray(F, b, bo + lanes);
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

    private static void f32Block1(float[] a, int k, float[] b, int n, float[] c, int r, int j, int k0, int k1) {
        int lanes = F.length();
        int o = r * n + j;
        FloatVector c0 = FloatVector.fromArray(F, c, o);
        FloatVector c1 = FloatVector.fromArray(F, c, o + lanes);
        for (int kk = k0; kk < k1; kk++) {
            int bo = kk * n + j;
            float v = a[r * k + kk];
            c0 = c0.add(FloatVector.fromArray(F, b, bo).mul(v));
            c1 = c1.add(FloatVector.fromArray(F, b, bo + lanes).mul(v));
        }
        c0.intoArray(c, o);
        c1.intoArray(c, o + lanes);
    }

    /** The columns [c0, c1) of every row, in the sequential order. */
    private static void scalarF32(float[] a, int k, float[] b, int n, float[] c, int m, int c0, int c1) {
        for (int r = 0; r < m; r++) {
            for (int kk = 0; kk < k; kk++) {
                float av = a[r * k + kk];
                for (int j = c0; j < c1; j++) {
                    c[r * n + j] += av * b[kk * n + j];
                }
            }
        }
    }

    /**
     * int8 × int8 → exact int32. A Vector API micro-kernel keeps a 4-row × 2-vector block of C in registers over
     * the whole K loop (B panels of 2 vectors' width stay in L1 across row tiles); tails run the scalar loop.
     */
    static int[] i8(byte[] a, int m, int k, byte[] b, int n) {
        int[] c = new int[Math.multiplyExact(m, n)];
        int lanes = I.length();
        int nb = 2 * lanes;
        int colBlocks = n / nb;
        IntStream.range(0, colBlocks).parallel().forEach(blk -> {
            int j = blk * nb;
            int r = 0;
            for (; r + 4 <= m; r += 4) {
                block4(a, k, b, n, c, r, j);
            }
            scalarI8(a, k, b, n, c, r, m, j, j + nb);
        });
        scalarI8(a, k, b, n, c, 0, m, colBlocks * nb, n);
        return c;
    }

    private static final VectorSpecies<Integer> I =
            IntVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Byte> B = VectorSpecies.of(
            byte.class, VectorShape.forBitSize(I.length() * 8));

    private static void block4(byte[] a, int k, byte[] b, int n, int[] c, int r, int j) {
        IntVector z = IntVector.zero(I);
        IntVector c00 = z, c01 = z, c10 = z, c11 = z, c20 = z, c21 = z, c30 = z, c31 = z;
        int lanes = I.length();
        int a0 = r * k;
        int a1 = a0 + k;
        int a2 = a1 + k;
        int a3 = a2 + k;
        for (int kk = 0; kk < k; kk++) {
            int bo = kk * n + j;
            IntVector b0 = (IntVector) ByteVector
                    .fromArray(B, b, bo).convertShape(VectorOperators.B2I, I, 0);
            IntVector b1 = (IntVector) ByteVector
                    .fromArray(B, b, bo + lanes).convertShape(VectorOperators.B2I, I, 0);
            int v0 = a[a0 + kk];
            int v1 = a[a1 + kk];
            int v2 = a[a2 + kk];
            int v3 = a[a3 + kk];
            c00 = c00.add(b0.mul(v0));
            c01 = c01.add(b1.mul(v0));
            c10 = c10.add(b0.mul(v1));
            c11 = c11.add(b1.mul(v1));
            c20 = c20.add(b0.mul(v2));
            c21 = c21.add(b1.mul(v2));
            c30 = c30.add(b0.mul(v3));
            c31 = c31.add(b1.mul(v3));
        }
        int o = r * n + j;
        c00.intoArray(c, o);
        c01.intoArray(c, o + lanes);
        c10.intoArray(c, o + n);
        c11.intoArray(c, o + n + lanes);
        c20.intoArray(c, o + 2 * n);
        c21.intoArray(c, o + 2 * n + lanes);
        c30.intoArray(c, o + 3 * n);
        c31.intoArray(c, o + 3 * n + lanes);
    }

    private static void scalarI8(byte[] a, int k, byte[] b, int n, int[] c, int r0, int r1, int c0, int c1) {
        for (int r = r0; r < r1; r++) {
            for (int kk = 0; kk < k; kk++) {
                int av = a[r * k + kk];
                if (av == 0) {
                    continue;
                }
                for (int j = c0; j < c1; j++) {
                    c[r * n + j] += av * b[kk * n + j];
                }
            }
        }
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
