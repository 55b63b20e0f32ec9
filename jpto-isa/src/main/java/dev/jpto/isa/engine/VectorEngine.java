package dev.jpto.isa.engine;

import dev.jpto.isa.op.Elementwise;
import dev.jpto.isa.DType;
import dev.jpto.isa.RoundingMode;
import dev.jpto.isa.Tensor;
import dev.jpto.isa.Tile;
import dev.jpto.isa.engine.simd.Conversions;
import dev.jpto.isa.engine.simd.FloatLanes;
import dev.jpto.isa.engine.simd.FloatRows;
import dev.jpto.isa.engine.simd.FloatSegments;
import dev.jpto.isa.engine.simd.IntLanes;
import dev.jpto.isa.engine.simd.Masks;
import dev.jpto.isa.engine.simd.Moves;
import dev.jpto.isa.engine.simd.Workspace;
import dev.jpto.isa.op.Fn;
import java.lang.foreign.MemorySegment;
import jdk.incubator.vector.FloatVector;

/**
 * The Vector API engine ({@code jdk.incubator.vector}, the machine's preferred species: V = 16 fp32/int32 lanes
 * with AVX-512, 8 with AVX2; tails that are
 * not a multiple of the vector length run the shared scalar rule of {@link Elementwise}). fp32 elementwise ops
 * (binary, scalar, broadcast, and the exact lane unaries) load and store the tiles' memory directly
 * ({@link FloatSegments}; one run over the whole tile when every operand's valid region is its full width).
 * Other float tiles are processed a row at a time in fp32 lanes (bf16/fp16 widened on the way in and rounded to
 * nearest even on the way out); integer tiles of at most 32 bits in int32 lanes. Matmul is register-blocked and
 * packed ({@link dev.jpto.isa.engine.simd.FloatGemm}: fp32 FMA register blocks sized to the vector register
 * file, 8×2V with AVX-512 and 4×2V with AVX2; int8 → int32 on the same kernels, exact in fp32 per K chunk).
 *
 * <p><b>Agreement with {@link ScalarEngine}</b> (asserted by the engine agreement tests):
 * <ul>
 * <li>bit-exact: load/store/load_rows/gather/copy/fill/transpose, cast, compare/select, top-k, cum-sum,
 * quantize/dequantize, iota, every integer op, float add/sub/mul/div/max/min (tile, scalar, row and column
 * broadcast), neg/abs/relu/sqrt/rsqrt/reciprocal, max/min reductions, sum along columns, and matmul (the
 * same fused multiply-add per product in the same k order, from C or 0);
 * <li>exp, log, tanh, sigmoid, silu, gelu: at most 1 ulp of the tile's dtype (the vector math library is
 * within 1 ulp in double, rounded once to fp32, then to bf16/fp16 when the tile is narrower);
 * <li>float sum along rows and over the whole tile (V partial sums, then a tree): reassociation, bounded by
 * {@code |vector − scalar| ≤ 2·(n+16)·2⁻²⁴·Σ|x|} (V ≤ 16) (n = number of terms; twice the textbook bound for two
 * summation orders), or 1 ulp of a bf16/fp16 tile where the final rounding to it dominates; with a NaN or
 * infinite term both give the same non-finite result.
 * </ul>
 * Loads and stores between float dtypes (bf16/fp16 ↔ fp32) over contiguous rows, and casts from integer tiles to
 * fp32 or to another integer type (saturating), convert a vector at a time ({@link Conversions}). Ops that gain
 * nothing from vectors (top-k, cum-sum, transpose, quantize/dequantize, iota, int64, float → int casts and
 * column-strided or integer-converting loads/stores) run the reference engine's code.
 *
 * <p>Thread-safe: scratch buffers (row buffers, matmul packing) are per thread and reused across calls, so run
 * it on long-lived worker threads (a fresh thread per task, virtual or not, would allocate them per task).
 */
public final class VectorEngine implements TileEngine {
    private static final ScalarEngine REFERENCE = new ScalarEngine();

    /** fp32 lanes per vector on this machine (the preferred species). */
    public static int floatLanes() {
        return FloatVector.SPECIES_PREFERRED.length();
    }

    // ---- data movement ----

    @Override
    public void load(Tile dst, Tensor src, long[] offsets, int validRows, int validCols) {
        if (convertsFloatRows(src, dst)) {
            OpChecks.load(dst, src, offsets, validRows, validCols);
            Workspace w = Workspace.forRows(validCols);
            long base = Moves.baseElement(src, offsets);
            long stride = Moves.rowStride(src);
            int size = src.dtype().byteSize();
            for (int r = 0; r < validRows; r++) {
                Conversions.readFloats(src.dtype(), src.buffer(), (base + r * stride) * size, validCols, w.fa);
                FloatRows.write(dst, r, validCols, w.fa);
            }
            dst.setValid(validRows, validCols);
            return;
        }
        if (!Moves.rowsContiguous(src, dst)) {
            REFERENCE.load(dst, src, offsets, validRows, validCols);
            return;
        }
        OpChecks.load(dst, src, offsets, validRows, validCols);
        Moves.load(dst, src, offsets, validRows, validCols);
        dst.setValid(validRows, validCols);
    }

    @Override
    public void loadRows(Tile dst, Tensor src, Tile index, long[] offsets, int validCols) {
        if (!Moves.rowsContiguous(src, dst) || src.rank() < 2) {
            REFERENCE.loadRows(dst, src, index, offsets, validCols);
            return;
        }
        OpChecks.loadRows(dst, src, index, offsets, validCols);
        int rank = src.rank();
        long base = Moves.baseElement(src, offsets);
        long rowsAvailable = src.shape(rank - 2) - offsets[rank - 2];
        int size = src.dtype().byteSize();
        for (int r = 0; r < index.validRows(); r++) { // every row number first: nothing is written on error
            OpChecks.rowIndex("load_rows", r, index.getLong(r, 0), rowsAvailable);
        }
        for (int r = 0; r < index.validRows(); r++) {
            long row = index.getLong(r, 0);
            MemorySegment.copy(src.buffer(), (base + row * src.stride(rank - 2)) * size, dst.data(),
                    dst.byteOffset(r, 0), (long) validCols * size);
        }
        dst.setValid(index.validRows(), validCols);
    }

    @Override
    public void store(Tile src, Tensor dst, long[] offsets) {
        if (convertsFloatRows(dst, src)) {
            OpChecks.store(src, dst, offsets);
            int cols = src.validCols();
            Workspace w = Workspace.forRows(cols);
            long base = Moves.baseElement(dst, offsets);
            long stride = Moves.rowStride(dst);
            int size = dst.dtype().byteSize();
            for (int r = 0; r < src.validRows(); r++) {
                FloatRows.read(src, r, cols, w.fa);
                Conversions.writeFloats(dst.dtype(), w.fa, cols, dst.buffer(), (base + r * stride) * size);
            }
            return;
        }
        if (!Moves.rowsContiguous(dst, src)) {
            REFERENCE.store(src, dst, offsets);
            return;
        }
        OpChecks.store(src, dst, offsets);
        Moves.store(src, dst, offsets);
    }

    /** A load or store between different float dtypes over contiguous rows: converted a vector at a time. */
    private static boolean convertsFloatRows(Tensor t, Tile tile) {
        return t.dtype() != tile.dtype() && Conversions.isFloat(t.dtype()) && Conversions.isFloat(tile.dtype())
                && t.stride(t.rank() - 1) == 1;
    }

    @Override
    public void fill(Tile dst, double value) {
        OpChecks.fill(dst);
        if (dst.validRows() == 0 || dst.validCols() == 0) {
            return;
        }
        dst.dtype().storeDouble(dst.data(), dst.byteOffset(0, 0), value);
        Moves.fillFromFirst(dst);
    }

    @Override
    public void copy(Tile dst, Tile src) {
        OpChecks.copy(dst, src);
        for (int r = 0; r < src.validRows(); r++) {
            Moves.copyRow(src, r, dst, r, src.validCols());
        }
        dst.setValid(src.validRows(), src.validCols());
    }

    // ---- elementwise ----

    @Override
    public void binary(Fn.Binary fn, Tile dst, Tile a, Tile b) {
        OpChecks.binary(fn, dst, a, b);
        int rows = a.validRows();
        int cols = a.validCols();
        Workspace w = Workspace.forRows(cols);
        if (a.dtype() == DType.FP32) {
            int runs = flat(a, cols) && flat(b, cols) && flat(dst, cols) ? 1 : rows;
            int length = runs == 1 ? rows * cols : cols;
            for (int r = 0; r < runs; r++) {
                FloatSegments.binary(fn, a.data(), a.byteOffset(r, 0), b.data(), b.byteOffset(r, 0), dst.data(),
                        dst.byteOffset(r, 0), length);
            }
        } else if (a.dtype().isFloat()) {
            for (int r = 0; r < rows; r++) {
                FloatRows.read(a, r, cols, w.fa);
                FloatRows.read(b, r, cols, w.fb);
                FloatLanes.binary(fn, w.fa, w.fb, w.fd, cols);
                FloatRows.write(dst, r, cols, w.fd);
            }
        } else if (IntLanes.fits(a.dtype())) {
            for (int r = 0; r < rows; r++) {
                IntLanes.read(a, r, cols, w.ia);
                IntLanes.read(b, r, cols, w.ib);
                IntLanes.binary(fn, w.ia, w.ib, w.id, cols);
                IntLanes.write(dst, r, cols, w.id);
            }
        } else {
            REFERENCE.binary(fn, dst, a, b);
            return;
        }
        dst.setValid(rows, cols);
    }

    @Override
    public void binaryScalar(Fn.Binary fn, Tile dst, Tile a, double b) {
        OpChecks.binaryScalar(fn, dst, a);
        int rows = a.validRows();
        int cols = a.validCols();
        Workspace w = Workspace.forRows(cols);
        if (a.dtype() == DType.FP32) {
            int runs = flat(a, cols) && flat(dst, cols) ? 1 : rows;
            int length = runs == 1 ? rows * cols : cols;
            for (int r = 0; r < runs; r++) {
                FloatSegments.binaryScalar(fn, a.data(), a.byteOffset(r, 0), (float) b, dst.data(), dst.byteOffset(r, 0),
                        length);
            }
        } else if (a.dtype().isFloat()) {
            for (int r = 0; r < rows; r++) {
                FloatRows.read(a, r, cols, w.fa);
                FloatLanes.binaryScalar(fn, w.fa, (float) b, w.fd, cols);
                FloatRows.write(dst, r, cols, w.fd);
            }
        } else if (IntLanes.fits(a.dtype()) && intScalarExact(fn, a.dtype(), Elementwise.integerScalar(b))) {
            int s = (int) Elementwise.integerScalar(b);
            for (int r = 0; r < rows; r++) {
                IntLanes.read(a, r, cols, w.ia);
                IntLanes.binaryScalar(fn, w.ia, s, w.id, cols);
                IntLanes.write(dst, r, cols, w.id);
            }
        } else {
            REFERENCE.binaryScalar(fn, dst, a, b);
            return;
        }
        dst.setValid(rows, cols);
    }

    /** Whether the first {@code cols} columns of t are whole rows, so its valid rows are one contiguous run. */
    private static boolean flat(Tile t, int cols) {
        return t.cols() == cols;
    }

    /** ADD/SUB/MUL only need the scalar's low 32 bits; MAX/MIN/DIV need it inside the dtype's range. */
    private static boolean intScalarExact(Fn.Binary fn, DType t, long s) {
        return fn == Fn.Binary.ADD || fn == Fn.Binary.SUB || fn == Fn.Binary.MUL
                || (s >= t.minValue() && s <= t.maxValue());
    }

    @Override
    public void unary(Fn.Unary fn, Tile dst, Tile src) {
        OpChecks.unary(fn, dst, src);
        int rows = src.validRows();
        int cols = src.validCols();
        Workspace w = Workspace.forRows(cols);
        if (src.dtype() == DType.FP32 && FloatSegments.hasUnary(fn)) {
            int runs = flat(src, cols) && flat(dst, cols) ? 1 : rows;
            int length = runs == 1 ? rows * cols : cols;
            for (int r = 0; r < runs; r++) {
                FloatSegments.unary(fn, src.data(), src.byteOffset(r, 0), dst.data(), dst.byteOffset(r, 0), length);
            }
        } else if (src.dtype().isFloat()) {
            for (int r = 0; r < rows; r++) {
                FloatRows.read(src, r, cols, w.fa);
                FloatLanes.unary(fn, w.fa, w.fd, cols);
                FloatRows.write(dst, r, cols, w.fd);
            }
        } else if (IntLanes.fits(src.dtype())) {
            for (int r = 0; r < rows; r++) {
                IntLanes.read(src, r, cols, w.ia);
                IntLanes.unary(fn, w.ia, w.id, cols);
                IntLanes.write(dst, r, cols, w.id);
            }
        } else {
            REFERENCE.unary(fn, dst, src);
            return;
        }
        dst.setValid(rows, cols);
    }

    @Override
    public void rowBroadcast(Fn.Binary fn, Tile dst, Tile a, Tile b) {
        OpChecks.rowBroadcast(fn, dst, a, b);
        int rows = a.validRows();
        int cols = a.validCols();
        Workspace w = Workspace.forRows(cols);
        if (a.dtype() == DType.FP32) {
            for (int r = 0; r < rows; r++) {
                FloatSegments.binaryScalar(fn, a.data(), a.byteOffset(r, 0), b.getFloat(r, 0), dst.data(),
                        dst.byteOffset(r, 0), cols);
            }
        } else if (a.dtype().isFloat()) {
            for (int r = 0; r < rows; r++) {
                FloatRows.read(a, r, cols, w.fa);
                FloatLanes.binaryScalar(fn, w.fa, b.getFloat(r, 0), w.fd, cols);
                FloatRows.write(dst, r, cols, w.fd);
            }
        } else if (IntLanes.fits(a.dtype())) {
            for (int r = 0; r < rows; r++) {
                IntLanes.read(a, r, cols, w.ia);
                IntLanes.binaryScalar(fn, w.ia, (int) b.getLong(r, 0), w.id, cols);
                IntLanes.write(dst, r, cols, w.id);
            }
        } else {
            REFERENCE.rowBroadcast(fn, dst, a, b);
            return;
        }
        dst.setValid(rows, cols);
    }

    @Override
    public void colBroadcast(Fn.Binary fn, Tile dst, Tile a, Tile b) {
        OpChecks.colBroadcast(fn, dst, a, b);
        int rows = a.validRows();
        int cols = a.validCols();
        Workspace w = Workspace.forRows(cols);
        if (a.dtype() == DType.FP32) {
            for (int r = 0; r < rows; r++) {
                FloatSegments.binary(fn, a.data(), a.byteOffset(r, 0), b.data(), b.byteOffset(0, 0), dst.data(),
                        dst.byteOffset(r, 0), cols);
            }
        } else if (a.dtype().isFloat()) {
            FloatRows.read(b, 0, cols, w.fb);
            for (int r = 0; r < rows; r++) {
                FloatRows.read(a, r, cols, w.fa);
                FloatLanes.binary(fn, w.fa, w.fb, w.fd, cols);
                FloatRows.write(dst, r, cols, w.fd);
            }
        } else if (IntLanes.fits(a.dtype())) {
            IntLanes.read(b, 0, cols, w.ib);
            for (int r = 0; r < rows; r++) {
                IntLanes.read(a, r, cols, w.ia);
                IntLanes.binary(fn, w.ia, w.ib, w.id, cols);
                IntLanes.write(dst, r, cols, w.id);
            }
        } else {
            REFERENCE.colBroadcast(fn, dst, a, b);
            return;
        }
        dst.setValid(rows, cols);
    }

    // ---- reductions ----

    @Override
    public void reduce(Fn.Reduce fn, Fn.Axis axis, Tile dst, Tile src) {
        OpChecks.reduce(fn, axis, dst, src);
        if (src.dtype().isFloat()) {
            Reductions.floats(fn, axis, dst, src);
        } else if (IntLanes.fits(src.dtype())) {
            Reductions.ints(fn, axis, dst, src);
        } else {
            REFERENCE.reduce(fn, axis, dst, src);
        }
    }

    @Override
    public void cumSum(Tile dst, Tile src) {
        REFERENCE.cumSum(dst, src); // a sequential scan: nothing to vectorize without changing the rounding
    }

    // ---- matmul ----

    @Override
    public void matmul(Tile c, Tile a, Tile b, boolean transposeB, boolean accumulate) {
        OpChecks.matmul(c, a, b, transposeB, accumulate);
        Workspace.forRows(0).floatGemm.multiply(c, a, b, transposeB, accumulate);
        c.setValid(a.validRows(), transposeB ? b.validRows() : b.validCols());
    }

    // ---- conversion and layout ----

    @Override
    public void cast(Tile dst, Tile src, RoundingMode mode) {
        int rows = src.validRows();
        int cols = src.validCols();
        if (src.dtype() == dst.dtype()) {
            OpChecks.cast(dst, src);
            for (int r = 0; r < rows; r++) {
                Moves.copyRow(src, r, dst, r, cols);
            }
        } else if (src.dtype().isFloat() && dst.dtype().isFloat()) {
            OpChecks.cast(dst, src);
            Workspace w = Workspace.forRows(cols);
            for (int r = 0; r < rows; r++) {
                FloatRows.read(src, r, cols, w.fa);
                FloatRows.write(dst, r, cols, w.fa);
            }
        } else if (IntLanes.fits(src.dtype()) && (dst.dtype() == DType.FP32 || IntLanes.fits(dst.dtype()))) {
            // int → fp32 rounds like (float) long; int → int saturates to the target's range (the rounding mode
            // does not apply to integers)
            OpChecks.cast(dst, src);
            Workspace w = Workspace.forRows(cols);
            for (int r = 0; r < rows; r++) {
                IntLanes.read(src, r, cols, w.ia);
                if (dst.dtype() == DType.FP32) {
                    Conversions.intsToFloats(w.ia, w.fa, cols);
                    FloatRows.write(dst, r, cols, w.fa);
                } else {
                    Conversions.clamp(w.ia, (int) dst.dtype().minValue(), (int) dst.dtype().maxValue(), w.id, cols);
                    IntLanes.write(dst, r, cols, w.id);
                }
            }
        } else {
            // float → int rounding modes, int → bf16/fp16 (rounded once from the integer), int64: the shared rule
            REFERENCE.cast(dst, src, mode);
            return;
        }
        dst.setValid(rows, cols);
    }

    @Override
    public void transpose(Tile dst, Tile src) {
        REFERENCE.transpose(dst, src);
    }

    @Override
    public void compare(Fn.Compare fn, Tile dst, Tile a, Tile b) {
        OpChecks.compare(fn, dst, a, b);
        int rows = a.validRows();
        int cols = a.validCols();
        Workspace w = Workspace.forRows(cols);
        if (a.dtype().isFloat()) {
            for (int r = 0; r < rows; r++) {
                FloatRows.read(a, r, cols, w.fa);
                FloatRows.read(b, r, cols, w.fb);
                Masks.compare(fn, w.fa, w.fb, w.bytes, cols);
                writeMask(dst, r, cols, w.bytes);
            }
        } else if (IntLanes.fits(a.dtype())) {
            for (int r = 0; r < rows; r++) {
                IntLanes.read(a, r, cols, w.ia);
                IntLanes.read(b, r, cols, w.ib);
                Masks.compare(fn, w.ia, w.ib, w.bytes, cols);
                writeMask(dst, r, cols, w.bytes);
            }
        } else {
            REFERENCE.compare(fn, dst, a, b);
            return;
        }
        dst.setValid(rows, cols);
    }

    @Override
    public void compareScalar(Fn.Compare fn, Tile dst, Tile a, double b) {
        OpChecks.compareScalar(fn, dst, a);
        int rows = a.validRows();
        int cols = a.validCols();
        Workspace w = Workspace.forRows(cols);
        if (a.dtype().isFloat()) {
            for (int r = 0; r < rows; r++) {
                FloatRows.read(a, r, cols, w.fa);
                Masks.compareScalar(fn, w.fa, (float) b, w.bytes, cols);
                writeMask(dst, r, cols, w.bytes);
            }
        } else if (IntLanes.fits(a.dtype()) && b == Math.rint(b) && b >= Integer.MIN_VALUE && b <= Integer.MAX_VALUE) {
            // an integral scalar inside int32 compares exactly on int32 lanes
            for (int r = 0; r < rows; r++) {
                IntLanes.read(a, r, cols, w.ia);
                Masks.compareScalar(fn, w.ia, (int) b, w.bytes, cols);
                writeMask(dst, r, cols, w.bytes);
            }
        } else {
            REFERENCE.compareScalar(fn, dst, a, b);
            return;
        }
        dst.setValid(rows, cols);
    }

    private static void writeMask(Tile dst, int r, int cols, byte[] bytes) {
        MemorySegment.copy(bytes, 0, dst.data(), java.lang.foreign.ValueLayout.JAVA_BYTE, dst.byteOffset(r, 0), cols);
    }

    @Override
    public void select(Tile dst, Tile mask, Tile a, Tile b) {
        OpChecks.select(dst, mask, a, b);
        for (int r = 0; r < a.validRows(); r++) {
            Masks.selectRow(dst, mask, a, b, r, a.validCols());
        }
        dst.setValid(a.validRows(), a.validCols());
    }

    @Override
    public void gatherRows(Tile dst, Tile src, Tile index) {
        OpChecks.gatherRows(dst, src, index);
        for (int r = 0; r < index.validRows(); r++) { // every row number first: nothing is written on error
            OpChecks.rowIndex("gather_rows", r, index.getLong(r, 0), src.validRows());
        }
        for (int r = 0; r < index.validRows(); r++) {
            Moves.copyRow(src, (int) index.getLong(r, 0), dst, r, src.validCols());
        }
        dst.setValid(index.validRows(), src.validCols());
    }

    @Override
    public void topK(Tile values, Tile indices, Tile src, int k) {
        REFERENCE.topK(values, indices, src, k);
    }

    @Override
    public void quantize(Tile q, Tile scale, Tile src) {
        REFERENCE.quantize(q, scale, src);
    }

    @Override
    public void dequantize(Tile dst, Tile q, Tile scale) {
        REFERENCE.dequantize(dst, q, scale);
    }

    @Override
    public void iota(Tile dst, Fn.Axis axis, double start) {
        REFERENCE.iota(dst, axis, start);
    }
}
