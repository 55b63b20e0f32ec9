package dev.jpto.isa.engine;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.isa.Tile;
import dev.jpto.isa.op.Fn;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;

/**
 * The operand rules of every tile op, shared by all engines so they reject exactly the same calls with the
 * same messages. Each method checks one {@link TileEngine} call before it runs and throws
 * {@link IllegalArgumentException} naming the op, the operand, what was expected and what was given, e.g.
 * {@code matmul: operand b must be bf16[64x*] (rows = a's cols), got fp32[32x16]}. Shapes in messages are
 * valid regions ({@code dtype[rows x cols]}); the capacity of a destination is shown when it is too small.
 * None of these methods change a tile.
 */
public final class OpChecks {
    private OpChecks() {
    }

    // ---- data movement ----

    public static void load(Tile dst, Tensor src, long[] offsets, int validRows, int validCols) {
        region("load", src, offsets, validRows, validCols);
        fits("load", "dst", dst, validRows, validCols);
    }

    public static void loadRows(Tile dst, Tensor src, Tile index, long[] offsets, int validCols) {
        dtype("load_rows", "index", index, DType.INT32);
        if (index.validCols() < 1) {
            throw new IllegalArgumentException("load_rows: operand index must have a column of row numbers, got "
                    + index.describe());
        }
        if (src.rank() < 2) {
            throw new IllegalArgumentException("load_rows: operand src must have rank >= 2 (rows x cols), got rank "
                    + src.rank() + " " + src);
        }
        // Row numbers are checked per element while gathering; here the column window at row 0 of the offsets.
        region("load_rows", src, offsets, 0, validCols);
        fits("load_rows", "dst", dst, index.validRows(), validCols);
    }

    /** Checks a gathered row number against the number of rows available. */
    public static void rowIndex(String op, int i, long row, long rows) {
        if (row < 0 || row >= rows) {
            throw new IllegalArgumentException(op + ": operand index[" + i + "]=" + row + " is outside the "
                    + rows + " source rows [0, " + rows + ")");
        }
    }

    public static void store(Tile src, Tensor dst, long[] offsets) {
        region("store", dst, offsets, src.validRows(), src.validCols());
    }

    /**
     * The 2-D window {@code rows × cols} at {@code offsets} must lie inside the tensor; the last two dimensions
     * are rows and columns (a rank-1 tensor is one row).
     */
    private static void region(String op, Tensor t, long[] offsets, int rows, int cols) {
        if (t.rank() < 1) {
            throw new IllegalArgumentException(op + ": operand tensor must have rank >= 1, got " + t);
        }
        if (offsets.length != t.rank()) {
            throw new IllegalArgumentException(op + ": needs one offset per tensor dimension: tensor " + t
                    + " has rank " + t.rank() + ", got offsets " + Arrays.toString(offsets));
        }
        if (rows < 0 || cols < 0) {
            throw new IllegalArgumentException(op + ": region must be non-negative, got " + rows + "x" + cols);
        }
        int r = t.rank();
        if (r == 1 && rows > 1) {
            throw new IllegalArgumentException(op + ": a rank-1 tensor is one row, got a region of " + rows
                    + "x" + cols + " rows on " + t);
        }
        for (int d = 0; d < r; d++) {
            long extent = d == r - 1 ? cols : d == r - 2 ? rows : 1;
            long o = offsets[d];
            boolean empty = (rows == 0 || cols == 0) && d >= r - 2;
            // o > shape - extent rather than o + extent > shape: no overflow for offsets near Long.MAX_VALUE
            if (o < 0 || o > t.shape(d) - (empty ? 0 : extent)) {
                throw new IllegalArgumentException(op + ": region " + rows + "x" + cols + " at offsets "
                        + Arrays.toString(offsets) + " is outside tensor " + t + " in dimension " + d
                        + " (offset " + o + " + extent " + extent + " > " + t.shape(d) + ")");
            }
        }
    }

    public static void fill(Tile dst) {
        // every dtype can be filled
        Objects.requireNonNull(dst);
    }

    public static void copy(Tile dst, Tile src) {
        sameDtype("copy", "dst", dst, "src", src);
        fits("copy", "dst", dst, src.validRows(), src.validCols());
    }

    // ---- elementwise ----

    public static void binary(Fn.Binary fn, Tile dst, Tile a, Tile b) {
        String op = name(fn);
        numeric(op, "a", a);
        sameDtypeAndRegion(op, "b", b, "a", a);
        sameDtype(op, "dst", dst, "a", a);
        fits(op, "dst", dst, a.validRows(), a.validCols());
    }

    public static void binaryScalar(Fn.Binary fn, Tile dst, Tile a) {
        String op = name(fn) + "s";
        numeric(op, "a", a);
        sameDtype(op, "dst", dst, "a", a);
        fits(op, "dst", dst, a.validRows(), a.validCols());
    }

    public static void unary(Fn.Unary fn, Tile dst, Tile src) {
        String op = name(fn);
        boolean intOk = fn == Fn.Unary.NEG || fn == Fn.Unary.ABS || fn == Fn.Unary.RELU;
        if (intOk) {
            numeric(op, "src", src);
        } else if (!src.dtype().isFloat()) {
            throw new IllegalArgumentException(op + ": operand src must be a float tile (fp32, fp16, bf16), got "
                    + src.describe());
        }
        sameDtype(op, "dst", dst, "src", src);
        fits(op, "dst", dst, src.validRows(), src.validCols());
    }

    public static void rowBroadcast(Fn.Binary fn, Tile dst, Tile a, Tile b) {
        String op = name(fn) + "_rb";
        numeric(op, "a", a);
        expect(op, "b", b, a.dtype(), a.validRows(), 1, "one value per row of a");
        broadcastCommon(op, dst, a, b);
    }

    public static void colBroadcast(Fn.Binary fn, Tile dst, Tile a, Tile b) {
        String op = name(fn) + "_cb";
        numeric(op, "a", a);
        expect(op, "b", b, a.dtype(), 1, a.validCols(), "one value per column of a");
        broadcastCommon(op, dst, a, b);
    }

    private static void broadcastCommon(String op, Tile dst, Tile a, Tile b) {
        sameDtype(op, "dst", dst, "a", a);
        fits(op, "dst", dst, a.validRows(), a.validCols());
        distinct(op, "dst", dst, "b", b);
    }

    public static void reduce(Fn.Reduce fn, Fn.Axis axis, Tile dst, Tile src) {
        String op = name(fn) + "_" + axis.name().toLowerCase(Locale.ROOT);
        numeric(op, "src", src);
        sameDtype(op, "dst", dst, "src", src);
        switch (axis) {
            case ROWS -> fits(op, "dst", dst, src.validRows(), 1);
            case COLS -> fits(op, "dst", dst, 1, src.validCols());
            case ALL -> fits(op, "dst", dst, 1, 1);
        }
        if (axis != Fn.Axis.ALL) {
            distinct(op, "dst", dst, "src", src);
        }
    }

    public static void cumSum(Tile dst, Tile src) {
        numeric("cumsum", "src", src);
        sameDtype("cumsum", "dst", dst, "src", src);
        fits("cumsum", "dst", dst, src.validRows(), src.validCols());
    }

    // ---- matmul ----

    /** A is M×K; B is K×N (or N×K with {@code transposeB}); C is fp32 (float inputs) or int32 (int8 inputs). */
    public static void matmul(Tile c, Tile a, Tile b, boolean transposeB, boolean accumulate) {
        // constants, not concatenation: this runs on every matmul call and must not allocate
        String op = transposeB ? (accumulate ? "matmul_bt_acc" : "matmul_bt") : (accumulate ? "matmul_acc" : "matmul");
        DType in = a.dtype();
        DType acc;
        if (in == DType.FP32 || in == DType.BF16 || in == DType.FP16) {
            acc = DType.FP32;
        } else if (in == DType.INT8) {
            acc = DType.INT32;
        } else {
            throw new IllegalArgumentException(op + ": operand a must be fp32, bf16, fp16 or int8, got "
                    + a.describe());
        }
        int m = a.validRows();
        int k = a.validCols();
        int bk = transposeB ? b.validCols() : b.validRows();
        int n = transposeB ? b.validRows() : b.validCols();
        if (b.dtype() != in || bk != k) {
            String want = transposeB ? in.text() + "[*x" + k + "] (cols = a's cols)"
                    : in.text() + "[" + k + "x*] (rows = a's cols)";
            throw new IllegalArgumentException(op + ": operand b must be " + want + " to match a "
                    + a.describe() + ", got " + b.describe());
        }
        if (accumulate) {
            if (c.dtype() != acc || c.validRows() != m || c.validCols() != n) { // the message only when it fails
                expect(op, "c", c, acc, m, n, "the accumulator of a " + m + "x" + n + " product");
            }
        } else {
            dtype(op, "c", c, acc);
            fits(op, "c", c, m, n);
        }
        distinct(op, "c", c, "a", a);
        distinct(op, "c", c, "b", b);
    }

    // ---- conversion and layout ----

    public static void cast(Tile dst, Tile src) {
        fits("cast", "dst", dst, src.validRows(), src.validCols());
    }

    public static void transpose(Tile dst, Tile src) {
        distinct("transpose", "dst", dst, "src", src);
        sameDtype("transpose", "dst", dst, "src", src);
        fits("transpose", "dst", dst, src.validCols(), src.validRows());
    }

    public static void compare(Fn.Compare fn, Tile dst, Tile a, Tile b) {
        String op = "cmp_" + name(fn);
        numeric(op, "a", a);
        sameDtypeAndRegion(op, "b", b, "a", a);
        dtype(op, "dst", dst, DType.BOOL);
        fits(op, "dst", dst, a.validRows(), a.validCols());
    }

    public static void compareScalar(Fn.Compare fn, Tile dst, Tile a) {
        String op = "cmp_" + name(fn) + "s";
        numeric(op, "a", a);
        dtype(op, "dst", dst, DType.BOOL);
        fits(op, "dst", dst, a.validRows(), a.validCols());
    }

    public static void select(Tile dst, Tile mask, Tile a, Tile b) {
        expect("select", "mask", mask, DType.BOOL, a.validRows(), a.validCols(), "the region of a");
        sameDtypeAndRegion("select", "b", b, "a", a);
        sameDtype("select", "dst", dst, "a", a);
        fits("select", "dst", dst, a.validRows(), a.validCols());
    }

    public static void gatherRows(Tile dst, Tile src, Tile index) {
        dtype("gather_rows", "index", index, DType.INT32);
        if (index.validCols() < 1) {
            throw new IllegalArgumentException("gather_rows: operand index must have a column of row numbers, got "
                    + index.describe());
        }
        sameDtype("gather_rows", "dst", dst, "src", src);
        fits("gather_rows", "dst", dst, index.validRows(), src.validCols());
        distinct("gather_rows", "dst", dst, "src", src);
    }

    public static void topK(Tile values, Tile indices, Tile src, int k) {
        numeric("topk", "src", src);
        if (k < 1 || k > src.validCols()) {
            throw new IllegalArgumentException("topk: k must be in [1, " + src.validCols()
                    + "] (the valid columns of src " + src.describe() + "), got k=" + k);
        }
        sameDtype("topk", "values", values, "src", src);
        fits("topk", "values", values, src.validRows(), k);
        dtype("topk", "indices", indices, DType.INT32);
        fits("topk", "indices", indices, src.validRows(), k);
        distinct("topk", "values", values, "src", src);
        distinct("topk", "indices", indices, "src", src);
        distinct("topk", "values", values, "indices", indices);
    }

    public static void quantize(Tile q, Tile scale, Tile src) {
        if (!src.dtype().isFloat()) {
            throw new IllegalArgumentException("quantize: operand src must be a float tile (fp32, fp16, bf16), got "
                    + src.describe());
        }
        dtype("quantize", "q", q, DType.INT8);
        fits("quantize", "q", q, src.validRows(), src.validCols());
        dtype("quantize", "scale", scale, DType.FP32);
        fits("quantize", "scale", scale, src.validRows(), 1);
    }

    public static void dequantize(Tile dst, Tile q, Tile scale) {
        dtype("dequantize", "q", q, DType.INT8);
        expect("dequantize", "scale", scale, DType.FP32, q.validRows(), 1, "one scale per row of q");
        if (!dst.dtype().isFloat()) {
            throw new IllegalArgumentException("dequantize: operand dst must be a float tile (fp32, fp16, bf16), got "
                    + dst.describe());
        }
        fits("dequantize", "dst", dst, q.validRows(), q.validCols());
    }

    public static void iota(Tile dst, Fn.Axis axis) {
        if (axis == Fn.Axis.ALL) {
            throw new IllegalArgumentException("iota: axis must be rows or cols, got all");
        }
        numeric("iota", "dst", dst);
    }

    // ---- helpers ----

    /** The lower-case mnemonic of an element function, as in messages and kernel text. */
    public static String name(Enum<?> fn) {
        return fn.name().toLowerCase(Locale.ROOT);
    }

    /** {@code bf16[64x32]}: a dtype and a region. */
    public static String spec(DType dtype, int rows, int cols) {
        return dtype.text() + "[" + rows + "x" + cols + "]";
    }

    private static String region(Tile t) {
        return spec(t.dtype(), t.validRows(), t.validCols());
    }

    private static void numeric(String op, String operand, Tile t) {
        if (t.dtype() == DType.BOOL) {
            throw new IllegalArgumentException(op + ": operand " + operand
                    + " must be a numeric tile (bool masks only feed select), got " + t.describe());
        }
    }

    private static void dtype(String op, String operand, Tile t, DType want) {
        if (t.dtype() != want) {
            throw new IllegalArgumentException(op + ": operand " + operand + " must be " + want.text()
                    + ", got " + t.describe());
        }
    }

    private static void sameDtype(String op, String operand, Tile t, String refName, Tile ref) {
        if (t.dtype() != ref.dtype()) {
            throw new IllegalArgumentException(op + ": operand " + operand + " must be " + ref.dtype().text()
                    + " to match " + refName + ", got " + t.describe());
        }
    }

    private static void sameDtypeAndRegion(String op, String operand, Tile t, String refName, Tile ref) {
        if (t.dtype() != ref.dtype() || t.validRows() != ref.validRows() || t.validCols() != ref.validCols()) {
            throw new IllegalArgumentException(op + ": operand " + operand + " must be " + region(ref)
                    + " to match " + refName + ", got " + region(t));
        }
    }

    private static void expect(String op, String operand, Tile t, DType dtype, int rows, int cols, String why) {
        if (t.dtype() != dtype || t.validRows() != rows || t.validCols() != cols) {
            throw new IllegalArgumentException(op + ": operand " + operand + " must be " + spec(dtype, rows, cols)
                    + " (" + why + "), got " + region(t));
        }
    }

    /** A destination must be able to hold the result region. */
    private static void fits(String op, String operand, Tile t, int rows, int cols) {
        if (rows > t.rows() || cols > t.cols()) {
            throw new IllegalArgumentException(op + ": operand " + operand + " " + t.dtype().text() + "["
                    + t.rows() + "x" + t.cols() + "] is too small for the " + rows + "x" + cols + " result");
        }
    }

    private static void distinct(String op, String name1, Tile t1, String name2, Tile t2) {
        if (t1 == t2) {
            throw new IllegalArgumentException(op + ": operand " + name1 + " must not be the same tile as "
                    + name2 + " (this op cannot run in place)");
        }
    }
}
