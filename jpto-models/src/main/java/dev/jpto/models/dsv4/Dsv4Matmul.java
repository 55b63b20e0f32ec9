package dev.jpto.models.dsv4;

import java.util.stream.IntStream;

/**
 * Blocked, multithreaded reference matmuls for the goldens: {@code C[M,N] = A[M,K]·B[K,N]}, all row-major.
 * fp32 products accumulate in fp32 in ascending k (one rounding per multiply-add, like a sequential loop);
 * int8 products accumulate exactly in int32. Tiles of 16 rows × 1024 columns keep a C tile in cache while B
 * streams once per row tile.
 */
final class Dsv4Matmul {
    private static final int MT = 16;
    private static final int NT = 1024;

    private Dsv4Matmul() {
    }

    static float[] f32(float[] a, int m, int k, float[] b, int n) {
        float[] c = new float[Math.multiplyExact(m, n)];
        int rowTiles = (m + MT - 1) / MT;
        int colTiles = (n + NT - 1) / NT;
        IntStream.range(0, rowTiles * colTiles).parallel().forEach(tile -> {
            int r0 = (tile / colTiles) * MT;
            int r1 = Math.min(m, r0 + MT);
            int c0 = (tile % colTiles) * NT;
            int c1 = Math.min(n, c0 + NT);
            for (int kk = 0; kk < k; kk++) {
                int bRow = kk * n;
                for (int r = r0; r < r1; r++) {
                    float av = a[r * k + kk];
                    if (av == 0) {
                        continue;
                    }
                    int cRow = r * n;
                    for (int j = c0; j < c1; j++) {
                        c[cRow + j] += av * b[bRow + j];
                    }
                }
            }
        });
        return c;
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

    private static final jdk.incubator.vector.VectorSpecies<Integer> I =
            jdk.incubator.vector.IntVector.SPECIES_PREFERRED;
    private static final jdk.incubator.vector.VectorSpecies<Byte> B = jdk.incubator.vector.VectorSpecies.of(
            byte.class, jdk.incubator.vector.VectorShape.forBitSize(I.length() * 8));

    private static void block4(byte[] a, int k, byte[] b, int n, int[] c, int r, int j) {
        jdk.incubator.vector.IntVector z = jdk.incubator.vector.IntVector.zero(I);
        jdk.incubator.vector.IntVector c00 = z, c01 = z, c10 = z, c11 = z, c20 = z, c21 = z, c30 = z, c31 = z;
        int lanes = I.length();
        int a0 = r * k;
        int a1 = a0 + k;
        int a2 = a1 + k;
        int a3 = a2 + k;
        for (int kk = 0; kk < k; kk++) {
            int bo = kk * n + j;
            jdk.incubator.vector.IntVector b0 = (jdk.incubator.vector.IntVector) jdk.incubator.vector.ByteVector
                    .fromArray(B, b, bo).convertShape(jdk.incubator.vector.VectorOperators.B2I, I, 0);
            jdk.incubator.vector.IntVector b1 = (jdk.incubator.vector.IntVector) jdk.incubator.vector.ByteVector
                    .fromArray(B, b, bo + lanes).convertShape(jdk.incubator.vector.VectorOperators.B2I, I, 0);
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

    /** Transpose of a row-major [rows, cols] matrix. */
    static float[] transpose(float[] x, int rows, int cols) {
        float[] t = new float[x.length];
        IntStream.range(0, rows).parallel().forEach(r -> {
            for (int c = 0; c < cols; c++) {
                t[c * rows + r] = x[r * cols + c];
            }
        });
        return t;
    }

    static byte[] transpose(byte[] x, int rows, int cols) {
        byte[] t = new byte[x.length];
        IntStream.range(0, cols).parallel().forEach(c -> {
            for (int r = 0; r < rows; r++) {
                t[c * rows + r] = x[r * cols + c];
            }
        });
        return t;
    }
}
