package dev.jpto.isa.engine;

import dev.jpto.isa.op.Elementwise;
import dev.jpto.isa.DType;
import dev.jpto.isa.RoundingMode;
import dev.jpto.isa.Tensor;
import dev.jpto.isa.Tile;
import dev.jpto.isa.op.Fn;
import java.lang.foreign.MemorySegment;

/**
 * The reference engine: every op as plain loops over single elements, in the obvious order. It is the
 * living spec of the ISA: the semantics documented on {@link dev.jpto.isa.op.TileOp} are what this class
 * does, and other engines are tested against it. Stateless and thread-safe; slow by design.
 */
public final class ScalarEngine implements TileEngine {

    // ---- data movement ----

    @Override
    public void load(Tile dst, Tensor src, long[] offsets, int validRows, int validCols) {
        OpChecks.load(dst, src, offsets, validRows, validCols);
        long base = baseElement(src, offsets);
        long rowStride = src.rank() >= 2 ? src.stride(src.rank() - 2) : 0;
        long colStride = src.stride(src.rank() - 1);
        for (int r = 0; r < validRows; r++) {
            for (int c = 0; c < validCols; c++) {
                long e = base + r * rowStride + c * colStride;
                Elementwise.convert(src.dtype(), src.buffer(), e * src.dtype().byteSize(), dst.dtype(), dst.data(),
                        dst.byteOffset(r, c), RoundingMode.RINT);
            }
        }
        dst.setValid(validRows, validCols);
    }

    @Override
    public void loadRows(Tile dst, Tensor src, Tile index, long[] offsets, int validCols) {
        OpChecks.loadRows(dst, src, index, offsets, validCols);
        int rank = src.rank();
        long base = baseElement(src, offsets);
        long rowsAvailable = src.shape(rank - 2) - offsets[rank - 2];
        for (int r = 0; r < index.validRows(); r++) { // every row number first: nothing is written on error
            OpChecks.rowIndex("load_rows", r, index.getLong(r, 0), rowsAvailable);
        }
        for (int r = 0; r < index.validRows(); r++) {
            long row = index.getLong(r, 0);
            for (int c = 0; c < validCols; c++) {
                long e = base + row * src.stride(rank - 2) + c * src.stride(rank - 1);
                Elementwise.convert(src.dtype(), src.buffer(), e * src.dtype().byteSize(), dst.dtype(), dst.data(),
                        dst.byteOffset(r, c), RoundingMode.RINT);
            }
        }
        dst.setValid(index.validRows(), validCols);
    }

    @Override
    public void store(Tile src, Tensor dst, long[] offsets) {
        OpChecks.store(src, dst, offsets);
        long base = baseElement(dst, offsets);
        long rowStride = dst.rank() >= 2 ? dst.stride(dst.rank() - 2) : 0;
        long colStride = dst.stride(dst.rank() - 1);
        for (int r = 0; r < src.validRows(); r++) {
            for (int c = 0; c < src.validCols(); c++) {
                long e = base + r * rowStride + c * colStride;
                Elementwise.convert(src.dtype(), src.data(), src.byteOffset(r, c), dst.dtype(), dst.buffer(),
                        e * dst.dtype().byteSize(), RoundingMode.RINT);
            }
        }
    }

    /** Element index (in the buffer) of the tensor element at {@code offsets}. */
    private static long baseElement(Tensor t, long[] offsets) {
        long e = t.offset();
        for (int d = 0; d < offsets.length; d++) {
            e += offsets[d] * t.stride(d);
        }
        return e;
    }

    @Override
    public void fill(Tile dst, double value) {
        OpChecks.fill(dst);
        for (int r = 0; r < dst.validRows(); r++) {
            for (int c = 0; c < dst.validCols(); c++) {
                dst.dtype().storeDouble(dst.data(), dst.byteOffset(r, c), value);
            }
        }
    }

    @Override
    public void copy(Tile dst, Tile src) {
        OpChecks.copy(dst, src);
        for (int r = 0; r < src.validRows(); r++) {
            for (int c = 0; c < src.validCols(); c++) {
                copyElement(dst, r, c, src, r, c);
            }
        }
        dst.setValid(src.validRows(), src.validCols());
    }

    private static void copyElement(Tile dst, int r, int c, Tile src, int sr, int sc) {
        MemorySegment.copy(src.data(), src.byteOffset(sr, sc), dst.data(), dst.byteOffset(r, c),
                src.dtype().byteSize());
    }

    // ---- elementwise ----

    @Override
    public void binary(Fn.Binary fn, Tile dst, Tile a, Tile b) {
        OpChecks.binary(fn, dst, a, b);
        int rows = a.validRows();
        int cols = a.validCols();
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                combine(fn, dst, r, c, a, r, c, b, r, c);
            }
        }
        dst.setValid(rows, cols);
    }

    /** dst[r][c] = a[ar][ac] fn b[br][bc], in fp32 or wrapped integer arithmetic. */
    private static void combine(Fn.Binary fn, Tile dst, int r, int c, Tile a, int ar, int ac, Tile b, int br, int bc) {
        if (a.dtype().isFloat()) {
            dst.setFloat(r, c, Elementwise.apply(fn, a.getFloat(ar, ac), b.getFloat(br, bc)));
        } else {
            dst.setLong(r, c, Elementwise.wrap(dst.dtype(), Elementwise.apply(fn, a.getLong(ar, ac), b.getLong(br, bc))));
        }
    }

    @Override
    public void binaryScalar(Fn.Binary fn, Tile dst, Tile a, double b) {
        OpChecks.binaryScalar(fn, dst, a);
        int rows = a.validRows();
        int cols = a.validCols();
        float bf = (float) b;
        long bl = Elementwise.integerScalar(b);
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                if (a.dtype().isFloat()) {
                    dst.setFloat(r, c, Elementwise.apply(fn, a.getFloat(r, c), bf));
                } else {
                    dst.setLong(r, c, Elementwise.wrap(dst.dtype(), Elementwise.apply(fn, a.getLong(r, c), bl)));
                }
            }
        }
        dst.setValid(rows, cols);
    }

    @Override
    public void unary(Fn.Unary fn, Tile dst, Tile src) {
        OpChecks.unary(fn, dst, src);
        int rows = src.validRows();
        int cols = src.validCols();
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                if (src.dtype().isFloat()) {
                    dst.setFloat(r, c, Elementwise.apply(fn, src.getFloat(r, c)));
                } else {
                    dst.setLong(r, c, Elementwise.wrap(dst.dtype(), Elementwise.apply(fn, src.getLong(r, c))));
                }
            }
        }
        dst.setValid(rows, cols);
    }

    @Override
    public void rowBroadcast(Fn.Binary fn, Tile dst, Tile a, Tile b) {
        OpChecks.rowBroadcast(fn, dst, a, b);
        for (int r = 0; r < a.validRows(); r++) {
            for (int c = 0; c < a.validCols(); c++) {
                combine(fn, dst, r, c, a, r, c, b, r, 0);
            }
        }
        dst.setValid(a.validRows(), a.validCols());
    }

    @Override
    public void colBroadcast(Fn.Binary fn, Tile dst, Tile a, Tile b) {
        OpChecks.colBroadcast(fn, dst, a, b);
        for (int r = 0; r < a.validRows(); r++) {
            for (int c = 0; c < a.validCols(); c++) {
                combine(fn, dst, r, c, a, r, c, b, 0, c);
            }
        }
        dst.setValid(a.validRows(), a.validCols());
    }

    // ---- reductions ----

    @Override
    public void reduce(Fn.Reduce fn, Fn.Axis axis, Tile dst, Tile src) {
        OpChecks.reduce(fn, axis, dst, src);
        int rows = src.validRows();
        int cols = src.validCols();
        switch (axis) {
            case ROWS -> {
                for (int r = 0; r < rows; r++) {
                    reduceInto(fn, dst, r, 0, src, r, r + 1, 0, cols);
                }
                dst.setValid(rows, 1);
            }
            case COLS -> {
                for (int c = 0; c < cols; c++) {
                    reduceInto(fn, dst, 0, c, src, 0, rows, c, c + 1);
                }
                dst.setValid(1, cols);
            }
            case ALL -> {
                reduceInto(fn, dst, 0, 0, src, 0, rows, 0, cols);
                dst.setValid(1, 1);
            }
        }
    }

    /**
     * Reduces src[r0..r1)[c0..c1) in row-major order into dst[r][c]. Floats accumulate sequentially in fp32;
     * integers in 64 bits, wrapped at the end. An empty range gives the identity (0, -Inf/min, +Inf/max).
     */
    private static void reduceInto(Fn.Reduce fn, Tile dst, int dr, int dc, Tile src, int r0, int r1, int c0, int c1) {
        DType t = src.dtype();
        if (t.isFloat()) {
            float acc = switch (fn) {
                case SUM -> 0.0f;
                case MAX -> Float.NEGATIVE_INFINITY;
                case MIN -> Float.POSITIVE_INFINITY;
            };
            for (int r = r0; r < r1; r++) {
                for (int c = c0; c < c1; c++) {
                    float x = src.getFloat(r, c);
                    acc = switch (fn) {
                        case SUM -> acc + x;
                        case MAX -> Math.max(acc, x);
                        case MIN -> Math.min(acc, x);
                    };
                }
            }
            dst.setFloat(dr, dc, acc);
        } else {
            long acc = switch (fn) {
                case SUM -> 0;
                case MAX -> t.minValue();
                case MIN -> t.maxValue();
            };
            for (int r = r0; r < r1; r++) {
                for (int c = c0; c < c1; c++) {
                    long x = src.getLong(r, c);
                    acc = switch (fn) {
                        case SUM -> acc + x;
                        case MAX -> Math.max(acc, x);
                        case MIN -> Math.min(acc, x);
                    };
                }
            }
            dst.setLong(dr, dc, Elementwise.wrap(t, acc));
        }
    }

    @Override
    public void cumSum(Tile dst, Tile src) {
        OpChecks.cumSum(dst, src);
        int rows = src.validRows();
        int cols = src.validCols();
        for (int r = 0; r < rows; r++) {
            float facc = 0.0f;
            long lacc = 0;
            for (int c = 0; c < cols; c++) {
                if (src.dtype().isFloat()) {
                    facc += src.getFloat(r, c);
                    dst.setFloat(r, c, facc);
                } else {
                    lacc += src.getLong(r, c);
                    dst.setLong(r, c, Elementwise.wrap(dst.dtype(), lacc));
                }
            }
        }
        dst.setValid(rows, cols);
    }

    // ---- matmul ----

    @Override
    public void matmul(Tile c, Tile a, Tile b, boolean transposeB, boolean accumulate) {
        OpChecks.matmul(c, a, b, transposeB, accumulate);
        int m = a.validRows();
        int k = a.validCols();
        int n = transposeB ? b.validRows() : b.validCols();
        boolean isFloat = a.dtype().isFloat();
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                if (isFloat) {
                    // fp32 accumulation, one fused multiply-add per step, k ascending
                    float acc = accumulate ? c.getFloat(i, j) : 0.0f;
                    for (int p = 0; p < k; p++) {
                        float bv = transposeB ? b.getFloat(j, p) : b.getFloat(p, j);
                        acc = Math.fma(a.getFloat(i, p), bv, acc);
                    }
                    c.setFloat(i, j, acc);
                } else {
                    // int32 accumulation of int8 products, wrapping
                    int acc = accumulate ? (int) c.getLong(i, j) : 0;
                    for (int p = 0; p < k; p++) {
                        long bv = transposeB ? b.getLong(j, p) : b.getLong(p, j);
                        acc += (int) (a.getLong(i, p) * bv);
                    }
                    c.setLong(i, j, acc);
                }
            }
        }
        c.setValid(m, n);
    }

    // ---- conversion and layout ----

    @Override
    public void cast(Tile dst, Tile src, RoundingMode mode) {
        OpChecks.cast(dst, src);
        for (int r = 0; r < src.validRows(); r++) {
            for (int c = 0; c < src.validCols(); c++) {
                Elementwise.convert(src.dtype(), src.data(), src.byteOffset(r, c), dst.dtype(), dst.data(),
                        dst.byteOffset(r, c), mode);
            }
        }
        dst.setValid(src.validRows(), src.validCols());
    }

    @Override
    public void transpose(Tile dst, Tile src) {
        OpChecks.transpose(dst, src);
        for (int r = 0; r < src.validRows(); r++) {
            for (int c = 0; c < src.validCols(); c++) {
                copyElement(dst, c, r, src, r, c);
            }
        }
        dst.setValid(src.validCols(), src.validRows());
    }

    @Override
    public void compare(Fn.Compare fn, Tile dst, Tile a, Tile b) {
        OpChecks.compare(fn, dst, a, b);
        for (int r = 0; r < a.validRows(); r++) {
            for (int c = 0; c < a.validCols(); c++) {
                boolean t = a.dtype().isFloat() ? Elementwise.test(fn, a.getFloat(r, c), b.getFloat(r, c))
                        : Elementwise.test(fn, a.getLong(r, c), b.getLong(r, c));
                dst.setLong(r, c, t ? 1 : 0);
            }
        }
        dst.setValid(a.validRows(), a.validCols());
    }

    @Override
    public void compareScalar(Fn.Compare fn, Tile dst, Tile a, double b) {
        OpChecks.compareScalar(fn, dst, a);
        float bf = (float) b;
        for (int r = 0; r < a.validRows(); r++) {
            for (int c = 0; c < a.validCols(); c++) {
                boolean t = a.dtype().isFloat() ? Elementwise.test(fn, a.getFloat(r, c), bf)
                        : Elementwise.test(fn, a.getLong(r, c), b);
                dst.setLong(r, c, t ? 1 : 0);
            }
        }
        dst.setValid(a.validRows(), a.validCols());
    }

    @Override
    public void select(Tile dst, Tile mask, Tile a, Tile b) {
        OpChecks.select(dst, mask, a, b);
        for (int r = 0; r < a.validRows(); r++) {
            for (int c = 0; c < a.validCols(); c++) {
                copyElement(dst, r, c, mask.getLong(r, c) != 0 ? a : b, r, c);
            }
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
            long row = index.getLong(r, 0);
            for (int c = 0; c < src.validCols(); c++) {
                copyElement(dst, r, c, src, (int) row, c);
            }
        }
        dst.setValid(index.validRows(), src.validCols());
    }

    @Override
    public void topK(Tile values, Tile indices, Tile src, int k) {
        OpChecks.topK(values, indices, src, k);
        int cols = src.validCols();
        boolean[] taken = new boolean[cols];
        for (int r = 0; r < src.validRows(); r++) {
            java.util.Arrays.fill(taken, false);
            for (int slot = 0; slot < k; slot++) {
                // selection: the first (lowest-index) column whose value no other untaken column beats
                int best = -1;
                for (int c = 0; c < cols; c++) {
                    if (!taken[c] && (best < 0 || ranksAbove(src, r, c, best))) {
                        best = c;
                    }
                }
                taken[best] = true;
                copyElement(values, r, slot, src, r, best);
                indices.setLong(r, slot, best);
            }
        }
        values.setValid(src.validRows(), k);
        indices.setValid(src.validRows(), k);
    }

    /** Strictly greater in the top-k order: {@link Float#compare} for floats (NaN on top, +0 above -0). */
    private static boolean ranksAbove(Tile t, int r, int c1, int c2) {
        return t.dtype().isFloat() ? Float.compare(t.getFloat(r, c1), t.getFloat(r, c2)) > 0
                : t.getLong(r, c1) > t.getLong(r, c2);
    }

    @Override
    public void quantize(Tile q, Tile scale, Tile src) {
        OpChecks.quantize(q, scale, src);
        int rows = src.validRows();
        int cols = src.validCols();
        for (int r = 0; r < rows; r++) {
            float amax = 0.0f;
            for (int c = 0; c < cols; c++) {
                amax = Math.max(amax, Math.abs(src.getFloat(r, c)));
            }
            float s = amax / 127.0f;
            scale.setFloat(r, 0, s);
            for (int c = 0; c < cols; c++) {
                // s == 0 (an all-zero row) gives 0/0 = NaN, which saturates to 0 like the rule says
                float y = s == 0.0f ? 0.0f : src.getFloat(r, c) / s;
                q.setLong(r, c, DType.INT8.saturate(y, RoundingMode.RINT));
            }
        }
        q.setValid(rows, cols);
        scale.setValid(rows, 1);
    }

    @Override
    public void dequantize(Tile dst, Tile q, Tile scale) {
        OpChecks.dequantize(dst, q, scale);
        for (int r = 0; r < q.validRows(); r++) {
            float s = scale.getFloat(r, 0);
            for (int c = 0; c < q.validCols(); c++) {
                dst.setFloat(r, c, (float) q.getLong(r, c) * s);
            }
        }
        dst.setValid(q.validRows(), q.validCols());
    }

    @Override
    public void iota(Tile dst, Fn.Axis axis, double start) {
        OpChecks.iota(dst, axis);
        for (int r = 0; r < dst.validRows(); r++) {
            for (int c = 0; c < dst.validCols(); c++) {
                dst.dtype().storeDouble(dst.data(), dst.byteOffset(r, c), start + (axis == Fn.Axis.ROWS ? r : c));
            }
        }
    }
}
