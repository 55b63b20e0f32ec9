package dev.jpto.isa.engine.simd;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tile;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * fp32-accumulating tile matmul {@code C (+)= A·B} / {@code A·Bᵀ} for fp32, bf16 and fp16 inputs, and int8
 * inputs with an int32 C ({@link #multiply} explains how int8 stays exact on the fp32 kernels).
 *
 * <p>Blocking (BLIS style, sized for one core): K runs in chunks of {@link #KC}; for each chunk, B is widened
 * to fp32 and packed into column panels of nr columns (zero-padded), and each panel is swept once by the
 * {@link MicroKernel} register blocks (6×64 with AVX-512, 4×16 with AVX2), which broadcast one A element per
 * row and do one FMA per B vector. A is widened once per call into a row-major heap array (rows padded with
 * zeros to the block grid): C2 hoists the bounds checks of array reads out of the k loop, which it does not do
 * for scalar reads of a memory segment. C is summed in a heap fp32 array too, started from C (or zero) and
 * written back once per call; its rows are whole panels long, so a partial last panel runs as a full one on
 * zero-padded B columns, and the rows below the last whole block run one at a time. An int32 C (int8) gets
 * each K chunk's sums added at the end of the chunk. Keeping the kernel on arrays only makes its compiled code
 * independent of what else the process did (see {@link MicroKernel}).
 *
 * <p>Each C element sums its products with one fused multiply-add per product in increasing k, starting
 * from C (accumulate) or 0: the scalar engine's order exactly, so results are bit-identical to it whatever
 * the kernel shape.
 *
 * <p>Not thread-safe: the packing buffers belong to the instance and are reused across calls (grown only
 * when a larger tile arrives), so the hot path allocates nothing.
 */
public final class FloatGemm {
    /**
     * K chunk: a packed 128×64 fp32 B panel (32 KiB with AVX-512; 8 KiB with AVX2) stays in the 48 KiB L1 while
     * the register blocks sweep it. For int8 it also bounds each chunk's sums to 128 · 128² = 2^21, below 2^24,
     * so fp32 holds every partial sum exactly.
     */
    public static final int KC = 128;
    /** A·Bᵀ with at most this many rows of A runs as {@code Cᵀ = B·Aᵀ} ({@link #multiplyNarrow}). */
    static final int NARROW_ROWS = 32;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final VectorSpecies<Integer> I = Species.I;
    private static final java.nio.ByteOrder NATIVE = java.nio.ByteOrder.nativeOrder();

    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final VectorSpecies<Float> F = Species.F;
    private static final int V = Species.V;

    private final MicroKernel kernel;
    /** Rows of the register block. */
    private final int mr;
    /** Columns of the register block (whole vectors of the kernel's species). */
    private final int nr;
    private float[] packedB = new float[0];
    /** A widened to fp32, row-major (see {@link #widenA}). */
    private float[] wideA = new float[0];
    /** B's rows of one K chunk widened to fp32 before they are packed (see {@link #widenRows}). */
    private float[] rowsB = new float[0];
    /** One row of C, moved to or from the transposed sums of {@link #multiplyNarrow}. */
    private float[] cRow = new float[0];
    /** One row of an int32 C, for {@link #multiplyNarrow}'s int8 chunks. */
    private int[] cInts = new int[0];
    /** fp32 sums, M rows of whole panels (row stride ldc = panels·nr), started from C and written back to it. */
    private float[] sums = new float[0];

    /** With the register block that fits this machine's vector registers ({@link MicroKernel#forMachine()}). */
    public FloatGemm() {
        this(MicroKernel.forMachine());
    }

    /** With a given register block (tests run every shape on any machine). */
    public FloatGemm(MicroKernel kernel) {
        this.kernel = kernel;
        this.mr = kernel.mr();
        this.nr = kernel.nr();
    }

    /** The register block in use. */
    public MicroKernel kernel() {
        return kernel;
    }

    /**
     * Computes over the valid regions: A is M×K, B is K×N (or N×K when {@code transposeB}), C is fp32 M×N (int32
     * for int8 inputs). Shapes are checked by the caller.
     *
     * <p>int8 runs on the same fp32 kernels, exactly: every int8 product is an integer of magnitude at most
     * 2^14 (the largest, (-128)·(-128)), so a chunk of at most {@link #KC} = 2^7 of them sums, from zero, to an
     * integer of magnitude at most 2^21 < 2^24, and so does every partial sum; fp32 holds all such integers
     * exactly, so each FMA is exact whatever the order. Each chunk's sums are converted to int32 (exact) and
     * added to C with int32 wrapping, as the scalar engine adds every product; integer addition is associative
     * mod 2^32, so the bits agree.
     */
    public void multiply(Tile c, Tile a, Tile b, boolean transposeB, boolean accumulate) {
        int m = a.validRows();
        int k = a.validCols();
        int n = transposeB ? b.validRows() : b.validCols();
        if (k == 0) {
            if (!accumulate) {
                zero(c, m, n);
            }
            return;
        }
        // Rows24 is 512-bit like Rows6: on a machine (or a test) with the 256-bit block it would run the fallback
        if (transposeB && m <= NARROW_ROWS && kernel instanceof MicroKernel.Rows6) {
            multiplyNarrow(c, a, b, m, n, k, accumulate);
            return;
        }
        boolean int8 = a.dtype() == DType.INT8;
        int panels = (n + nr - 1) / nr;
        int ldc = panels * nr;
        int fullBlocks = m / mr;
        int lda = rowStride(k);
        float[] s = sums(m * ldc);
        widenA(a, m, k, lda);
        if (!int8) {
            startSums(c, m, n, ldc, accumulate);
        }
        for (int k0 = 0; k0 < k; k0 += KC) {
            int kc = Math.min(KC, k - k0);
            if (int8) {
                Arrays.fill(s, 0, m * ldc, 0f);
            }
            packB(b, transposeB, k0, kc, n, panels);
            for (int p = 0; p < panels; p++) {
                int bOff = p * kc * nr;
                if (fullBlocks > 0) {
                    kernel.blocks(wideA, k0, lda, packedB, bOff, kc, s, p * nr, ldc, fullBlocks);
                }
                for (int i = fullBlocks * mr; i < m; i++) {
                    kernel.row(wideA, i * lda + k0, packedB, bOff, kc, s, i * ldc + p * nr);
                }
            }
            if (int8) {
                addChunkToInts(c, m, n, ldc, accumulate || k0 > 0);
            }
        }
        if (!int8) {
            for (int i = 0; i < m; i++) {
                MemorySegment.copy(s, i * ldc, c.data(), FLOAT, c.byteOffset(i, 0), n);
            }
        }
    }

    /**
     * {@code C (+)= A·Bᵀ} for an A of at most {@link #NARROW_ROWS} rows, computed as {@code Cᵀ = B·Aᵀ} on
     * {@link MicroKernel.Rows24}: B's rows (widened, unpacked) are the kernel's 24 row streams and the panel is Aᵀ,
     * one vector of C's rows per k. Packing B transposed for the 6×64 block moved all N·K elements of B one at a
     * time for a few rows of A (36 % of {@code dsv4.prefill_mtp}'s warm samples); here only A (M·K) and C (M·N)
     * are transposed. Each sum is the same FMA chain in increasing k from the same start ({@code fma(b, a, c)} is
     * {@code fma(a, b, c)}), so the bits are those of the scalar engine.
     */
    private void multiplyNarrow(Tile c, Tile a, Tile b, int m, int n, int k, boolean accumulate) {
        MicroKernel narrow = MicroKernel.Rows24.INSTANCE;
        int w = narrow.nr();
        int panels = (m + w - 1) / w;
        int ldc = panels * w;
        int full = n / narrow.mr();
        boolean int8 = a.dtype() == DType.INT8;
        float[] s = sums(n * ldc);
        int lda = rowStride(k);
        widenA(a, m, k, lda);
        if (!int8) {
            startSumsTransposed(c, m, n, ldc, accumulate);
        }
        for (int k0 = 0; k0 < k; k0 += KC) {
            int kc = Math.min(KC, k - k0);
            if (int8) {
                Arrays.fill(s, 0, n * ldc, 0f);
            }
            float[] rows = widenRows(b, 0, n, k0, kc);
            float[] pb = packTransposedA(m, k0, kc, lda, w, panels);
            for (int p = 0; p < panels; p++) {
                int bOff = p * kc * w;
                if (full > 0) {
                    narrow.blocks(rows, 0, kc, pb, bOff, kc, s, p * w, ldc, full);
                }
                for (int j = full * narrow.mr(); j < n; j++) {
                    narrow.row(rows, j * kc, pb, bOff, kc, s, j * ldc + p * w);
                }
            }
            if (int8) {
                boolean add = accumulate || k0 > 0;
                int[] line = intRowBuffer(n);
                for (int i = 0; i < m; i++) {
                    if (add) {
                        MemorySegment.copy(c.data(), INT, c.byteOffset(i, 0), line, 0, n);
                    }
                    for (int j = 0; j < n; j++) {
                        line[j] = (add ? line[j] : 0) + (int) s[j * ldc + i];
                    }
                    MemorySegment.copy(line, 0, c.data(), INT, c.byteOffset(i, 0), n);
                }
            }
        }
        if (!int8) {
            float[] line = rowBuffer(n);
            for (int i = 0; i < m; i++) {
                for (int j = 0; j < n; j++) {
                    line[j] = s[j * ldc + i];
                }
                MemorySegment.copy(line, 0, c.data(), FLOAT, c.byteOffset(i, 0), n);
            }
        }
    }

    /** Cᵀ's sums (row stride ldc, one row per column of C) from C, or zero; lanes past M start from zero. */
    private void startSumsTransposed(Tile c, int m, int n, int ldc, boolean accumulate) {
        Arrays.fill(sums, 0, n * ldc, 0f);
        if (!accumulate) {
            return;
        }
        float[] line = rowBuffer(n);
        for (int i = 0; i < m; i++) {
            MemorySegment.copy(c.data(), FLOAT, c.byteOffset(i, 0), line, 0, n);
            for (int j = 0; j < n; j++) {
                sums[j * ldc + i] = line[j];
            }
        }
    }

    /** Aᵀ of one K chunk as panels of w lanes: lane l of packed row k is {@code A[p·w + l][k0 + k]}, 0 past M. */
    private float[] packTransposedA(int m, int k0, int kc, int lda, int w, int panels) {
        int need = panels * kc * w;
        if (packedB.length < need) {
            packedB = new float[need];
        }
        float[] pb = packedB;
        Arrays.fill(pb, 0, need, 0f);
        for (int i = 0; i < m; i++) {
            int p = i / w;
            int o = p * kc * w + i % w;
            int src = i * lda + k0;
            for (int kk = 0; kk < kc; kk++, o += w) {
                pb[o] = wideA[src + kk];
            }
        }
        return pb;
    }

    /** A row of C as fp32 (at least n floats, grown, never shrunk). */
    private float[] rowBuffer(int n) {
        if (cRow.length < n) {
            cRow = new float[n];
        }
        return cRow;
    }

    /** A row of an int32 C (at least n ints, grown, never shrunk). */
    private int[] intRowBuffer(int n) {
        if (cInts.length < n) {
            cInts = new int[n];
        }
        return cInts;
    }

    /** The scratch sums, at least {@code size} floats (grown, never shrunk). */
    private float[] sums(int size) {
        if (sums.length < size) {
            sums = new float[size];
        }
        return sums;
    }

    /**
     * Starts the sums (row stride ldc) from C's valid region, or from zero; the columns past N (the last panel's
     * padding, never written back) start from zero.
     */
    private void startSums(Tile c, int m, int n, int ldc, boolean accumulate) {
        if (!accumulate) {
            Arrays.fill(sums, 0, m * ldc, 0f);
            return;
        }
        for (int i = 0; i < m; i++) {
            MemorySegment.copy(c.data(), FLOAT, c.byteOffset(i, 0), sums, i * ldc, n);
            Arrays.fill(sums, i * ldc + n, (i + 1) * ldc, 0f);
        }
    }

    /** int32 C (+)= the chunk's exact integer sums in {@link #sums} (row stride ldc), wrapping as int32 does. */
    private void addChunkToInts(Tile c, int m, int n, int ldc, boolean addToC) {
        MemorySegment cd = c.data();
        int upper = F.loopBound(n);
        for (int i = 0; i < m; i++) {
            long row = c.byteOffset(i, 0);
            int s = i * ldc;
            int j = 0;
            for (; j < upper; j += V) {
                IntVector v = (IntVector) FloatVector.fromArray(F, sums, s + j).convert(VectorOperators.F2I, 0);
                if (addToC) {
                    v = v.add(IntVector.fromMemorySegment(I, cd, row + 4L * j, NATIVE));
                }
                v.intoMemorySegment(cd, row + 4L * j, NATIVE);
            }
            for (; j < n; j++) {
                int v = (int) sums[s + j];
                cd.set(INT, row + 4L * j, addToC ? v + cd.get(INT, row + 4L * j) : v);
            }
        }
    }

    /**
     * Packs rows {@code k0 .. k0+kc} of B (as K×N) into fp32 panels of nr columns: panel p, row k, lane j at
     * {@code (p·kc + k)·nr + j}; columns past N are zero.
     */
    private void packB(Tile b, boolean transposeB, int k0, int kc, int n, int panels) {
        int need = panels * kc * nr;
        if (packedB.length < need) {
            packedB = new float[need];
        }
        int full = n / nr;
        if (full < panels) {
            Arrays.fill(packedB, full * kc * nr, need, 0f);
        }
        if (!transposeB) {
            packRows(b, k0, kc, n, full);
        } else {
            packTransposed(b, k0, kc, n, panels);
        }
    }

    /**
     * B is K×N: each panel is filled in store order, a vector at a time (filling the panels row by row instead
     * stores 8 KiB apart and stalls on 4 KiB aliasing with the loads). fp32 panel rows are bulk copies from the
     * tile; bf16 and int8 rows are copied raw into this thread's buffer and widened from there straight into the
     * panels (one pass over B: 0.89–0.93× the time of widening all rows to fp32 first); fp16 rows are widened
     * into {@link #rowsB} first. The columns of a partial last panel are widened one row at a time.
     */
    private void packRows(Tile b, int k0, int kc, int n, int full) {
        DType d = b.dtype();
        if (d == DType.FP32) {
            for (int p = 0; p < full; p++) {
                for (int k = 0; k < kc; k++) {
                    MemorySegment.copy(b.data(), FLOAT, b.byteOffset(k0 + k, p * nr), packedB, (p * kc + k) * nr, nr);
                }
            }
        } else if (d == DType.BF16) {
            short[] raw = Widen.rawShorts(b, k0, kc, 0, n);
            for (int p = 0; p < full; p++) {
                for (int k = 0, dst = p * kc * nr; k < kc; k++, dst += nr) {
                    for (int j = 0, src = k * n + p * nr; j < nr; j += V) {
                        Widen.bf16Lanes(raw, src + j).intoArray(packedB, dst + j);
                    }
                }
            }
        } else if (d == DType.INT8 && Widen.vectorInt8()) {
            byte[] raw = Widen.rawBytes(b, k0, kc, 0, n);
            for (int p = 0; p < full; p++) {
                for (int k = 0, dst = p * kc * nr; k < kc; k++, dst += nr) {
                    for (int j = 0, src = k * n + p * nr; j < nr; j += V) {
                        Widen.int8Lanes(raw, src + j).intoArray(packedB, dst + j);
                    }
                }
            }
        } else {
            packWidened(widenRows(b, k0, kc, 0, n), kc, n, full);
            return;
        }
        if (full * nr < n) {
            int col0 = full * nr;
            for (int k = 0; k < kc; k++) {
                Widen.toFloats(b, k0 + k, col0, n - col0, packedB, (full * kc + k) * nr);
            }
        }
    }

    /** Fills the panels from B's chunk rows already widened to fp32 (row stride n). */
    private void packWidened(float[] rows, int kc, int n, int full) {
        float[] pb = packedB;
        for (int p = 0; p < full; p++) {
            int src = p * nr;
            int dst = p * kc * nr;
            for (int k = 0; k < kc; k++, src += n, dst += nr) {
                for (int j = 0; j < nr; j += V) {
                    FloatVector.fromArray(F, rows, src + j).intoArray(pb, dst + j);
                }
            }
        }
        if (full * nr < n) {
            int col0 = full * nr;
            for (int k = 0; k < kc; k++) {
                System.arraycopy(rows, k * n + col0, pb, (full * kc + k) * nr, n - col0);
            }
        }
    }

    /**
     * Rows {@code row0 .. row0+count}, columns {@code col0 .. col0+cols} of t as fp32, row-major, in
     * {@link #rowsB}.
     */
    private float[] widenRows(Tile t, int row0, int count, int col0, int cols) {
        int need = count * cols;
        if (rowsB.length < need) {
            rowsB = new float[need];
        }
        if (t.dtype() == DType.BF16) {
            Widen.bf16ToFloats(Widen.rawShorts(t, row0, count, col0, cols), need, rowsB, 0);
        } else if (t.dtype() == DType.INT8) {
            Widen.int8ToFloats(Widen.rawBytes(t, row0, count, col0, cols), need, rowsB, 0);
        } else {
            for (int r = 0; r < count; r++) {
                Widen.toFloats(t, row0 + r, col0, cols, rowsB, r * cols);
            }
        }
        return rowsB;
    }

    /**
     * B is N×K: lane j of packed row k is {@code B[col0 + j][k0 + k]}, a transpose. The chunk's row pieces are
     * widened into {@link #rowsB} first (bulk or vector copies, about a tenth of the time), then each panel
     * lane is filled from one widened row, read in order. Measured on AVX2 (128×128 fp32): filling packed
     * rows in store order (strided reads) ~15 µs, a vector gather of V rows per packed vector ~12.5 µs, this
     * ~10 µs.
     */
    private void packTransposed(Tile b, int k0, int kc, int n, int panels) {
        float[] rows = widenRows(b, 0, n, k0, kc);
        float[] pb = packedB;
        for (int p = 0; p < panels; p++) {
            int cols = Math.min(nr, n - p * nr);
            for (int j = 0; j < cols; j++) {
                int src = (p * nr + j) * kc;
                int o = p * kc * nr + j;
                for (int k = 0; k < kc; k++, o += nr) {
                    pb[o] = rows[src + k];
                }
            }
        }
    }

    /**
     * Widens A (M×K) to fp32, row-major with row stride {@link #lda} (rows past M, up to the block grid, are
     * zero): the kernel reads one float per k from each of its mr row streams.
     */
    private void widenA(Tile a, int m, int k, int lda) {
        int paddedRows = (m + mr - 1) / mr * mr;
        int need = paddedRows * lda;
        if (wideA.length < need) {
            wideA = new float[need];
        }
        for (int i = 0; i < m; i++) {
            Widen.toFloats(a, i, 0, k, wideA, i * lda);
        }
        Arrays.fill(wideA, m * lda, need, 0f);
    }

    /**
     * Row stride of the widened A: k rounded up to whole cache lines, and an odd number of lines, so the mr
     * rows' elements at the same k fall into different L1 sets (a stride of 4 KiB would put them all in one).
     */
    private static int rowStride(int k) {
        int lines = (k + 15) / 16;
        return (lines | 1) * 16;
    }

    private static void zero(Tile c, int m, int n) {
        for (int i = 0; i < m; i++) {
            zeroFloats(c.data(), c.byteOffset(i, 0), n);
        }
    }

    /**
     * Zeroes {@code count} 4-byte elements from byte {@code off} (fp32 or int32) with vector stores: filling an
     * {@code asSlice} per row allocated ~300 bytes per call (the slices escaped).
     */
    private static void zeroFloats(MemorySegment s, long off, long count) {
        FloatVector zero = FloatVector.zero(F);
        long j = 0;
        for (long upper = count - count % V; j < upper; j += V) {
            zero.intoMemorySegment(s, off + 4L * j, NATIVE);
        }
        for (; j < count; j++) {
            s.set(FLOAT, off + 4L * j, 0f);
        }
    }
}
