package dev.jpto.isa.engine.simd;

import dev.jpto.isa.Tile;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * int8 tile matmul with int32 accumulation, {@code C (+)= A·B} / {@code A·Bᵀ}: the same scheme as
 * {@link FloatGemm} (A widened k-major in 4-row blocks, B widened into 32-column panels, a 4×32 register
 * block) with wrapping int32 multiply-add, so results are bit-identical to the scalar engine.
 *
 * <p>Not thread-safe; buffers are reused across calls.
 */
public final class IntGemm {
    private static final int MR = 4;
    private static final int NR = 2 * Species.V;
    private static final int V = Species.V;
    private static final VectorSpecies<Integer> I = Species.I;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;

    private int[] packedA = new int[0];
    private int[] packedB = new int[0];
    private final int[] blockC = new int[MR * NR];
    private byte[] rowBytes = new byte[0];

    /** Over the valid regions (int8 A and B, int32 C); shapes are checked by the caller. */
    public void multiply(Tile c, Tile a, Tile b, boolean transposeB, boolean accumulate) {
        int m = a.validRows();
        int k = a.validCols();
        int n = transposeB ? b.validRows() : b.validCols();
        int panels = (n + NR - 1) / NR;
        pack(a, b, transposeB, m, k, n, panels);
        MemorySegment cd = c.data();
        for (int p = 0; p < panels; p++) {
            int col0 = p * NR;
            int cols = Math.min(NR, n - col0);
            for (int row0 = 0; row0 < m; row0 += MR) {
                int rows = Math.min(MR, m - row0);
                java.util.Arrays.fill(blockC, 0);
                if (accumulate) {
                    for (int i = 0; i < rows; i++) {
                        MemorySegment.copy(cd, INT, c.byteOffset(row0 + i, col0), blockC, i * NR, cols);
                    }
                }
                block(packedA, row0 * k, packedB, p * k * NR, k, blockC);
                for (int i = 0; i < rows; i++) {
                    MemorySegment.copy(blockC, i * NR, cd, INT, c.byteOffset(row0 + i, col0), cols);
                }
            }
        }
    }

    private static void block(int[] a, int aOff, int[] pb, int bOff, int k, int[] sums) {
        IntVector c00 = IntVector.fromArray(I, sums, 0);
        IntVector c01 = IntVector.fromArray(I, sums, V);
        IntVector c10 = IntVector.fromArray(I, sums, NR);
        IntVector c11 = IntVector.fromArray(I, sums, NR + V);
        IntVector c20 = IntVector.fromArray(I, sums, 2 * NR);
        IntVector c21 = IntVector.fromArray(I, sums, 2 * NR + V);
        IntVector c30 = IntVector.fromArray(I, sums, 3 * NR);
        IntVector c31 = IntVector.fromArray(I, sums, 3 * NR + V);
        for (int kk = 0; kk < k; kk++) {
            int bi = bOff + kk * NR;
            int ai = aOff + kk * MR;
            IntVector b0 = IntVector.fromArray(I, pb, bi);
            IntVector b1 = IntVector.fromArray(I, pb, bi + V);
            IntVector x = IntVector.broadcast(I, a[ai]);
            c00 = x.mul(b0).add(c00);
            c01 = x.mul(b1).add(c01);
            x = IntVector.broadcast(I, a[ai + 1]);
            c10 = x.mul(b0).add(c10);
            c11 = x.mul(b1).add(c11);
            x = IntVector.broadcast(I, a[ai + 2]);
            c20 = x.mul(b0).add(c20);
            c21 = x.mul(b1).add(c21);
            x = IntVector.broadcast(I, a[ai + 3]);
            c30 = x.mul(b0).add(c30);
            c31 = x.mul(b1).add(c31);
        }
        c00.intoArray(sums, 0);
        c01.intoArray(sums, V);
        c10.intoArray(sums, NR);
        c11.intoArray(sums, NR + V);
        c20.intoArray(sums, 2 * NR);
        c21.intoArray(sums, 2 * NR + V);
        c30.intoArray(sums, 3 * NR);
        c31.intoArray(sums, 3 * NR + V);
    }

    /** A as 4-row blocks k-major ((i, k) at block·4K + 4k + i), B as 32-column panels; padding is zero. */
    private void pack(Tile a, Tile b, boolean transposeB, int m, int k, int n, int panels) {
        int paddedRows = (m + MR - 1) / MR * MR;
        if (packedA.length < paddedRows * k) {
            packedA = new int[paddedRows * k];
        }
        if (packedB.length < panels * k * NR) {
            packedB = new int[panels * k * NR];
        }
        java.util.Arrays.fill(packedA, 0, paddedRows * k, 0);
        java.util.Arrays.fill(packedB, 0, panels * k * NR, 0);
        // Rows are contiguous bytes (Tile is row-major): copy each in bulk, then widen from the array.
        MemorySegment as = a.data();
        byte[] row = rowBuffer(Math.max(k, n));
        for (int i = 0; i < m; i++) {
            int base = (i / MR) * MR * k + i % MR;
            MemorySegment.copy(as, ValueLayout.JAVA_BYTE, a.byteOffset(i, 0), row, 0, k);
            for (int kk = 0; kk < k; kk++) {
                packedA[base + kk * MR] = row[kk];
            }
        }
        MemorySegment bs = b.data();
        if (transposeB) {
            for (int j = 0; j < n; j++) {
                MemorySegment.copy(bs, ValueLayout.JAVA_BYTE, b.byteOffset(j, 0), row, 0, k);
                int base = (j / NR) * k * NR + j % NR;
                for (int kk = 0; kk < k; kk++) {
                    packedB[base + kk * NR] = row[kk];
                }
            }
        } else {
            for (int kk = 0; kk < k; kk++) {
                MemorySegment.copy(bs, ValueLayout.JAVA_BYTE, b.byteOffset(kk, 0), row, 0, n);
                for (int j = 0; j < n; j++) {
                    packedB[((j / NR) * k + kk) * NR + j % NR] = row[j];
                }
            }
        }
    }

    private byte[] rowBuffer(int length) {
        if (rowBytes.length < length) {
            rowBytes = new byte[length];
        }
        return rowBytes;
    }
}
