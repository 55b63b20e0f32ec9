package dev.jpto.isa.engine.simd;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tile;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * fp32-accumulating tile matmul {@code C (+)= A·B} / {@code A·Bᵀ} for fp32, bf16 and fp16 inputs.
 *
 * <p>Blocking (BLIS style, sized for one core): K runs in chunks of {@link #KC}; for each chunk, B is widened
 * to fp32 and packed into column panels of {@link #NR} = two vectors (32 fp32 with AVX-512; zero-padded), and
 * an {@link #MR}×{@link #NR} (8×32 with AVX-512) register block of C (16 accumulators) is computed by broadcasting one A
 * element per row and doing two FMAs with the packed B row. A is widened once per call into a heap array,
 * 8-row blocks k-major (rows padded with zeros): C2 hoists the bounds checks of array reads out of the k
 * loop, which it does not do for scalar reads of a memory segment (measured: ~137 vs ~90 GFLOP/s).
 *
 * <p>Each C element sums its products with one fused multiply-add per product in increasing k, starting
 * from C (accumulate) or 0: the scalar engine's order exactly, so results are bit-identical to it.
 *
 * <p>Not thread-safe: the packing buffers belong to the instance and are reused across calls (grown only
 * when a larger tile arrives), so the hot path allocates nothing.
 */
public final class FloatGemm {
    /** Rows of the register block. */
    public static final int MR = 8;
    /** Columns of the register block: two vectors (32 with AVX-512). */
    public static final int NR = 2 * Species.V;
    /** K chunk: a packed 256×32 fp32 B panel (32 KiB) stays in L1. */
    public static final int KC = 256;

    private static final VectorSpecies<Float> F = Species.F;
    private static final int V = Species.V;
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();
    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED;

    private float[] packedB = new float[0];
    /** A widened to fp32 in 8-row blocks, k-major inside a block (see {@link #packA}). */
    private float[] packedA = new float[0];
    /** One row of A widened to fp32 before it is interleaved into {@link #packedA}. */
    private float[] rowA = new float[0];
    /** The sums of one register block before they are written to C. */
    private final float[] blockC = new float[MR * NR];

    /**
     * Computes over the valid regions: A is M×K, B is K×N (or N×K when {@code transposeB}), C is fp32 M×N.
     * Shapes are checked by the caller.
     */
    public void multiply(Tile c, Tile a, Tile b, boolean transposeB, boolean accumulate) {
        int m = a.validRows();
        int k = a.validCols();
        int n = transposeB ? b.validRows() : b.validCols();
        packA(a, m, k);
        if (k == 0) {
            if (!accumulate) {
                zero(c, m, n);
            }
            return;
        }
        int panels = (n + NR - 1) / NR;
        for (int k0 = 0; k0 < k; k0 += KC) {
            int kc = Math.min(KC, k - k0);
            packB(b, transposeB, k0, kc, n, panels);
            boolean add = accumulate || k0 > 0;
            for (int p = 0; p < panels; p++) {
                int col0 = p * NR;
                int cols = Math.min(NR, n - col0);
                int bOff = p * kc * NR;
                for (int row0 = 0; row0 < m; row0 += MR) {
                    int rows = Math.min(MR, m - row0);
                    int aOff = row0 * k + k0 * MR;
                    boolean full = rows == MR && cols == NR;
                    if (full) {
                        gather(blockC, c.data(), c.byteOffset(row0, col0), (long) c.cols() * Float.BYTES, add);
                    } else {
                        gatherEdge(blockC, c, row0, col0, rows, cols, add);
                    }
                    block(packedA, aOff, packedB, bOff, kc, blockC);
                    if (full) {
                        scatter(blockC, c.data(), c.byteOffset(row0, col0), (long) c.cols() * Float.BYTES);
                    } else {
                        scatterEdge(blockC, c, row0, col0, rows, cols);
                    }
                }
            }
        }
    }

    /** The 8×NR register block over one K chunk: 16 accumulators, 2 B vectors, 1 broadcast A (19 of 32 zmm). */
    private static void block(float[] a, int aOff, float[] pb, int bOff, int kc, float[] sums) {
        FloatVector c00 = FloatVector.fromArray(F, sums, 0);
        FloatVector c01 = FloatVector.fromArray(F, sums, V);
        FloatVector c10 = FloatVector.fromArray(F, sums, NR);
        FloatVector c11 = FloatVector.fromArray(F, sums, NR + V);
        FloatVector c20 = FloatVector.fromArray(F, sums, 2 * NR);
        FloatVector c21 = FloatVector.fromArray(F, sums, 2 * NR + V);
        FloatVector c30 = FloatVector.fromArray(F, sums, 3 * NR);
        FloatVector c31 = FloatVector.fromArray(F, sums, 3 * NR + V);
        FloatVector c40 = FloatVector.fromArray(F, sums, 4 * NR);
        FloatVector c41 = FloatVector.fromArray(F, sums, 4 * NR + V);
        FloatVector c50 = FloatVector.fromArray(F, sums, 5 * NR);
        FloatVector c51 = FloatVector.fromArray(F, sums, 5 * NR + V);
        FloatVector c60 = FloatVector.fromArray(F, sums, 6 * NR);
        FloatVector c61 = FloatVector.fromArray(F, sums, 6 * NR + V);
        FloatVector c70 = FloatVector.fromArray(F, sums, 7 * NR);
        FloatVector c71 = FloatVector.fromArray(F, sums, 7 * NR + V);
        for (int k = 0; k < kc; k++) {
            int bi = bOff + k * NR;
            int ai = aOff + k * MR;
            FloatVector b0 = FloatVector.fromArray(F, pb, bi);
            FloatVector b1 = FloatVector.fromArray(F, pb, bi + V);
            FloatVector x = FloatVector.broadcast(F, a[ai]);
            c00 = x.fma(b0, c00);
            c01 = x.fma(b1, c01);
            x = FloatVector.broadcast(F, a[ai + 1]);
            c10 = x.fma(b0, c10);
            c11 = x.fma(b1, c11);
            x = FloatVector.broadcast(F, a[ai + 2]);
            c20 = x.fma(b0, c20);
            c21 = x.fma(b1, c21);
            x = FloatVector.broadcast(F, a[ai + 3]);
            c30 = x.fma(b0, c30);
            c31 = x.fma(b1, c31);
            x = FloatVector.broadcast(F, a[ai + 4]);
            c40 = x.fma(b0, c40);
            c41 = x.fma(b1, c41);
            x = FloatVector.broadcast(F, a[ai + 5]);
            c50 = x.fma(b0, c50);
            c51 = x.fma(b1, c51);
            x = FloatVector.broadcast(F, a[ai + 6]);
            c60 = x.fma(b0, c60);
            c61 = x.fma(b1, c61);
            x = FloatVector.broadcast(F, a[ai + 7]);
            c70 = x.fma(b0, c70);
            c71 = x.fma(b1, c71);
        }
        c00.intoArray(sums, 0);
        c01.intoArray(sums, V);
        c10.intoArray(sums, NR);
        c11.intoArray(sums, NR + V);
        c20.intoArray(sums, 2 * NR);
        c21.intoArray(sums, 2 * NR + V);
        c30.intoArray(sums, 3 * NR);
        c31.intoArray(sums, 3 * NR + V);
        c40.intoArray(sums, 4 * NR);
        c41.intoArray(sums, 4 * NR + V);
        c50.intoArray(sums, 5 * NR);
        c51.intoArray(sums, 5 * NR + V);
        c60.intoArray(sums, 6 * NR);
        c61.intoArray(sums, 6 * NR + V);
        c70.intoArray(sums, 7 * NR);
        c71.intoArray(sums, 7 * NR + V);
    }

    /**
     * Starts an 8×NR block's sums from C (when {@code add}) or zero. The block reads and writes them through
     * {@link #blockC} rather than C itself: with memory-segment access inlined into {@link #block}, C2 hits
     * its node-count inlining cutoff and boxes the accumulators, which costs about a fifth of the throughput.
     */
    private static void gather(float[] sums, MemorySegment c, long cOff, long ldc, boolean add) {
        if (!add) {
            java.util.Arrays.fill(sums, 0f);
            return;
        }
        for (int i = 0; i < MR; i++) {
            long row = cOff + i * ldc;
            load(c, row).intoArray(sums, i * NR);
            load(c, row + 4L * V).intoArray(sums, i * NR + V);
        }
    }

    private static void scatter(float[] sums, MemorySegment c, long cOff, long ldc) {
        for (int i = 0; i < MR; i++) {
            long row = cOff + i * ldc;
            store(FloatVector.fromArray(F, sums, i * NR), c, row);
            store(FloatVector.fromArray(F, sums, i * NR + V), c, row + 4L * V);
        }
    }

    /** {@link #gather} for a block on the bottom or right edge: lanes outside C start (and stay unused) at 0. */
    private static void gatherEdge(float[] sums, Tile c, int row0, int col0, int rows, int cols, boolean add) {
        java.util.Arrays.fill(sums, 0f);
        if (add) {
            for (int i = 0; i < rows; i++) {
                for (int j = 0; j < cols; j++) {
                    sums[i * NR + j] = c.data().get(FLOAT, c.byteOffset(row0 + i, col0 + j));
                }
            }
        }
    }

    /** Writes the valid {@code rows × cols} of an edge block (A and B were zero-padded). */
    private static void scatterEdge(float[] sums, Tile c, int row0, int col0, int rows, int cols) {
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                c.data().set(FLOAT, c.byteOffset(row0 + i, col0 + j), sums[i * NR + j]);
            }
        }
    }

    /** Packs rows {@code k0 .. k0+kc} of B (as K×N) into fp32 panels of 32 columns: panel p, row k, lane j. */
    private void packB(Tile b, boolean transposeB, int k0, int kc, int n, int panels) {
        int need = panels * kc * NR;
        if (packedB.length < need) {
            packedB = new float[need];
        }
        if (n % NR != 0) {
            int p = panels - 1;
            java.util.Arrays.fill(packedB, p * kc * NR, need, 0f);
        }
        if (!transposeB) {
            for (int k = 0; k < kc; k++) {
                for (int p = 0; p < panels; p++) {
                    int col0 = p * NR;
                    Widen.toFloats(b, k0 + k, col0, Math.min(NR, n - col0), packedB, (p * kc + k) * NR);
                }
            }
        } else {
            // B is N×K: lane j of packed row k is B[col0 + j][k0 + k], i.e. a transpose of 32×kc.
            for (int p = 0; p < panels; p++) {
                int col0 = p * NR;
                int cols = Math.min(NR, n - col0);
                for (int j = 0; j < cols; j++) {
                    Widen.toFloatsStrided(b, col0 + j, k0, kc, packedB, p * kc * NR + j, NR);
                }
            }
        }
    }

    /**
     * Widens A (M×K) to fp32 in blocks of 8 rows, k-major inside a block ({@code (i, k)} at
     * {@code block·8K + 8k + i}), so the register block reads its 8 A values per k from one cache line.
     * Rows past M are zero.
     */
    private void packA(Tile a, int m, int k) {
        int paddedRows = (m + MR - 1) / MR * MR;
        int need = paddedRows * k;
        if (packedA.length < need) {
            packedA = new float[need];
        }
        if (rowA.length < k) {
            rowA = new float[k];
        }
        float[] row = rowA;
        float[] pa = packedA;
        for (int i = 0; i < paddedRows; i++) {
            int base = (i / MR) * MR * k + i % MR;
            if (i < m) {
                Widen.toFloats(a, i, 0, k, row, 0);
                for (int kk = 0; kk < k; kk++) {
                    pa[base + kk * MR] = row[kk];
                }
            } else {
                for (int kk = 0; kk < k; kk++) {
                    pa[base + kk * MR] = 0f;
                }
            }
        }
    }

    private static void zero(Tile c, int m, int n) {
        for (int i = 0; i < m; i++) {
            c.data().asSlice(c.byteOffset(i, 0), (long) n * Float.BYTES).fill((byte) 0);
        }
    }

    private static FloatVector load(MemorySegment s, long off) {
        return FloatVector.fromMemorySegment(F, s, off, NATIVE);
    }

    private static void store(FloatVector v, MemorySegment s, long off) {
        v.intoMemorySegment(s, off, NATIVE);
    }
}
