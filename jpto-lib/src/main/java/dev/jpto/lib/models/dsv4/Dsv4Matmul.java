package dev.jpto.lib.models.dsv4;

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

    static int[] i8(byte[] a, int m, int k, byte[] b, int n) {
        int[] c = new int[Math.multiplyExact(m, n)];
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
                    int av = a[r * k + kk];
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
