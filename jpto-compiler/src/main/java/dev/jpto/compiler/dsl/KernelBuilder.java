package dev.jpto.compiler.dsl;

import dev.jpto.isa.DType;
import dev.jpto.isa.RoundingMode;
import dev.jpto.isa.kernel.Kernel;
import dev.jpto.isa.kernel.Kernels;
import dev.jpto.isa.kernel.ScalarDecl;
import dev.jpto.isa.kernel.TensorParam;
import dev.jpto.isa.kernel.TileDecl;
import dev.jpto.isa.op.Fn;
import dev.jpto.isa.op.Idx;
import dev.jpto.isa.op.Scalar;
import dev.jpto.isa.op.TileOp;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Builds one InCore kernel, op by op, the way it reads in pypto's Python DSL:
 *
 * <pre>{@code
 * KernelBuilder k = KernelBuilder.kernel("add_tile");
 * KTensor x = k.input("x", FP32, 2), y = k.input("y", FP32, 2), z = k.output("z", FP32, 2);
 * KTile a = k.tile("a", FP32, 64, 128), b = k.tile("b", FP32, 64, 128);
 * k.load(a, x, 0, 0);
 * k.load(b, y, 0, 0);
 * k.add(a, a, b);
 * k.store(a, z, 0, 0);
 * Kernel add = k.build();
 * }</pre>
 *
 * Index operands ({@code Object... offsets}, loop bounds) accept {@code int}, {@code long} or a {@link KIndex}
 * (a scalar parameter, a loop variable, or an affine combination); anything else is rejected naming the op.
 * Scalar parameters are declared before the first loop, because the ISA numbers scalar registers
 * parameters-first.
 *
 * <p>{@link #build()} checks the kernel as a device toolchain would ({@link Kernels#validate}: operand dtypes,
 * tile shapes through the op stream) and names the source line of the offending op, e.g.
 * {@code kernel bias_relu: op #4 (add) at ReluDense.java:89: operand b (tile bad fp32[64x32]) must be 64x64 ...}.
 */
public final class KernelBuilder {
    private final String name;
    private final List<TensorParam> tensors = new ArrayList<>();
    private final List<ScalarDecl> scalars = new ArrayList<>();
    private final List<TileDecl> tiles = new ArrayList<>();
    private final Deque<List<TileOp>> bodies = new ArrayDeque<>();
    /** Where each op was written; by identity, since two equal ops may come from different lines. */
    private final Map<TileOp, SourceLine> sources = new IdentityHashMap<>();
    private boolean built;

    private KernelBuilder(String name) {
        this.name = name;
        bodies.push(new ArrayList<>());
    }

    public static KernelBuilder kernel(String name) {
        return new KernelBuilder(name);
    }

    public String name() {
        return name;
    }

    // ---- declarations ----

    /** A tensor the kernel only reads (pass it with {@code in(...)}). */
    public KTensor input(String tensorName, DType dtype, int rank) {
        return tensor(tensorName, dtype, rank, TensorParam.Access.READ);
    }

    /** A tensor the kernel only writes (pass it with {@code out(...)} or {@code outExisting(...)}). */
    public KTensor output(String tensorName, DType dtype, int rank) {
        return tensor(tensorName, dtype, rank, TensorParam.Access.WRITE);
    }

    /** A tensor the kernel reads and writes, e.g. an accumulator (pass it with {@code inout(...)}). */
    public KTensor inout(String tensorName, DType dtype, int rank) {
        return tensor(tensorName, dtype, rank, TensorParam.Access.READ_WRITE);
    }

    private KTensor tensor(String tensorName, DType dtype, int rank, TensorParam.Access access) {
        open();
        if (rank < 2) {
            throw new IllegalArgumentException("kernel " + name + ": tensor parameter " + tensorName
                    + " must have rank >= 2 (tiles load from the last two dimensions): rank=" + rank);
        }
        for (TensorParam p : tensors) {
            if (p.name().equals(tensorName)) {
                throw new IllegalArgumentException("kernel " + name + ": tensor parameter " + tensorName
                        + " is declared twice");
            }
        }
        tensors.add(new TensorParam(tensorName, dtype, rank, access));
        return new KTensor(this, tensors.size() - 1, tensors.getLast());
    }

    /** A scalar parameter, given per task (a tile index, a length, a scale). */
    public KScalar scalar(String scalarName) {
        open();
        for (ScalarDecl s : scalars) {
            if (!s.param()) {
                throw new IllegalStateException("kernel " + name + ": declare scalar parameter " + scalarName
                        + " before the first forRange (loop variable " + s.name() + " already exists)");
            }
        }
        checkScalarName(scalarName);
        scalars.add(new ScalarDecl(scalarName, true));
        return new KScalar(this, scalarName, scalars.size() - 1);
    }

    /** A {@code rows × cols} tile of {@code dtype}. */
    public KTile tile(String tileName, DType dtype, int rows, int cols) {
        open();
        for (TileDecl t : tiles) {
            if (t.name().equals(tileName)) {
                throw new IllegalArgumentException("kernel " + name + ": tile " + tileName + " is declared twice");
            }
        }
        SourceLine site = SourceLine.ofCaller(); // once per declaration: an overflow names it
        tiles.add(new TileDecl(tileName, dtype, rows, cols, site == null ? "" : site.toString()));
        return new KTile(this, tiles.size() - 1, tiles.getLast());
    }

    // ---- data movement ----

    /** Loads the tile's full shape from the last two dimensions of {@code src} at {@code offsets} (one per dim). */
    public KernelBuilder load(KTile dst, KTensor src, Object... offsets) {
        return emit(new TileOp.Load(own(dst), own(src), offsets("load", src, offsets),
                Idx.of(dst.rows()), Idx.of(dst.cols())));
    }

    /** Loads a {@code validRows × validCols} region (at most the tile's shape), e.g. a ragged last tile. */
    public KernelBuilder loadValid(KTile dst, KTensor src, Object validRows, Object validCols, Object... offsets) {
        return emit(new TileOp.Load(own(dst), own(src), offsets("loadValid", src, offsets),
                index("loadValid rows", validRows), index("loadValid cols", validCols)));
    }

    /** Gathers rows of {@code src} chosen by an int32 index tile (R×1), at {@code offsets}. */
    public KernelBuilder loadRows(KTile dst, KTensor src, KTile indexTile, Object... offsets) {
        return emit(new TileOp.LoadRows(own(dst), own(src), own(indexTile), offsets("loadRows", src, offsets),
                Idx.of(dst.cols())));
    }

    /** Stores the valid region of {@code src} into {@code dst} at {@code offsets}. */
    public KernelBuilder store(KTile src, KTensor dst, Object... offsets) {
        return emit(new TileOp.Store(own(src), own(dst), offsets("store", dst, offsets)));
    }

    public KernelBuilder fill(KTile dst, double value) {
        return emit(new TileOp.Fill(own(dst), Scalar.imm(value)));
    }

    public KernelBuilder fill(KTile dst, KScalar value) {
        return emit(new TileOp.Fill(own(dst), own(value).value()));
    }

    public KernelBuilder copy(KTile dst, KTile src) {
        return emit(new TileOp.Copy(own(dst), own(src)));
    }

    // ---- elementwise ----

    public KernelBuilder binary(Fn.Binary fn, KTile dst, KTile a, KTile b) {
        return emit(new TileOp.Binary(fn, own(dst), own(a), own(b)));
    }

    public KernelBuilder add(KTile dst, KTile a, KTile b) {
        return binary(Fn.Binary.ADD, dst, a, b);
    }

    public KernelBuilder sub(KTile dst, KTile a, KTile b) {
        return binary(Fn.Binary.SUB, dst, a, b);
    }

    public KernelBuilder mul(KTile dst, KTile a, KTile b) {
        return binary(Fn.Binary.MUL, dst, a, b);
    }

    public KernelBuilder div(KTile dst, KTile a, KTile b) {
        return binary(Fn.Binary.DIV, dst, a, b);
    }

    public KernelBuilder max(KTile dst, KTile a, KTile b) {
        return binary(Fn.Binary.MAX, dst, a, b);
    }

    public KernelBuilder min(KTile dst, KTile a, KTile b) {
        return binary(Fn.Binary.MIN, dst, a, b);
    }

    /** {@code dst = a fn value}. */
    public KernelBuilder binaryScalar(Fn.Binary fn, KTile dst, KTile a, double value) {
        return emit(new TileOp.BinaryScalar(fn, own(dst), own(a), Scalar.imm(value)));
    }

    /** {@code dst = a fn s}, with s a scalar register. */
    public KernelBuilder binaryScalar(Fn.Binary fn, KTile dst, KTile a, KScalar s) {
        return emit(new TileOp.BinaryScalar(fn, own(dst), own(a), own(s).value()));
    }

    public KernelBuilder muls(KTile dst, KTile a, double value) {
        return binaryScalar(Fn.Binary.MUL, dst, a, value);
    }

    public KernelBuilder adds(KTile dst, KTile a, double value) {
        return binaryScalar(Fn.Binary.ADD, dst, a, value);
    }

    public KernelBuilder unary(Fn.Unary fn, KTile dst, KTile src) {
        return emit(new TileOp.Unary(fn, own(dst), own(src)));
    }

    public KernelBuilder exp(KTile dst, KTile src) {
        return unary(Fn.Unary.EXP, dst, src);
    }

    public KernelBuilder relu(KTile dst, KTile src) {
        return unary(Fn.Unary.RELU, dst, src);
    }

    public KernelBuilder sqrt(KTile dst, KTile src) {
        return unary(Fn.Unary.SQRT, dst, src);
    }

    /** {@code dst[r][c] = a[r][c] fn col[r][0]}: a column vector (R×1) broadcast along each row. */
    public KernelBuilder rowBroadcast(Fn.Binary fn, KTile dst, KTile a, KTile col) {
        return emit(new TileOp.RowBroadcast(fn, own(dst), own(a), own(col)));
    }

    /** {@code dst[r][c] = a[r][c] fn row[0][c]}: a row vector (1×C) broadcast down each column. */
    public KernelBuilder colBroadcast(Fn.Binary fn, KTile dst, KTile a, KTile row) {
        return emit(new TileOp.ColBroadcast(fn, own(dst), own(a), own(row)));
    }

    // ---- reductions, matmul, layout ----

    public KernelBuilder reduce(Fn.Reduce fn, Fn.Axis axis, KTile dst, KTile src) {
        return emit(new TileOp.Reduce(fn, axis, own(dst), own(src)));
    }

    /** Per row sum: R×C → R×1. */
    public KernelBuilder rowSum(KTile dst, KTile src) {
        return reduce(Fn.Reduce.SUM, Fn.Axis.ROWS, dst, src);
    }

    /** Per row maximum: R×C → R×1. */
    public KernelBuilder rowMax(KTile dst, KTile src) {
        return reduce(Fn.Reduce.MAX, Fn.Axis.ROWS, dst, src);
    }

    /** {@code c = a·b}. */
    public KernelBuilder matmul(KTile c, KTile a, KTile b) {
        return emit(new TileOp.MatMul(own(c), own(a), own(b), false, false));
    }

    /** {@code c += a·b}. */
    public KernelBuilder matmulAcc(KTile c, KTile a, KTile b) {
        return emit(new TileOp.MatMul(own(c), own(a), own(b), false, true));
    }

    /** {@code c = a·bᵀ} (or {@code c += a·bᵀ} when accumulating). */
    public KernelBuilder matmulTransB(KTile c, KTile a, KTile b, boolean accumulate) {
        return emit(new TileOp.MatMul(own(c), own(a), own(b), true, accumulate));
    }

    /** Converts to the destination's dtype; {@code mode} rounds float to integer (float narrowing is nearest even). */
    public KernelBuilder cast(KTile dst, KTile src, RoundingMode mode) {
        return emit(new TileOp.Cast(own(dst), own(src), mode));
    }

    public KernelBuilder cast(KTile dst, KTile src) {
        return cast(dst, src, RoundingMode.RINT);
    }

    public KernelBuilder transpose(KTile dst, KTile src) {
        return emit(new TileOp.Transpose(own(dst), own(src)));
    }

    public KernelBuilder compare(Fn.Compare fn, KTile mask, KTile a, KTile b) {
        return emit(new TileOp.Compare(fn, own(mask), own(a), own(b)));
    }

    public KernelBuilder compareScalar(Fn.Compare fn, KTile mask, KTile a, double b) {
        return emit(new TileOp.CompareScalar(fn, own(mask), own(a), Scalar.imm(b)));
    }

    public KernelBuilder select(KTile dst, KTile mask, KTile a, KTile b) {
        return emit(new TileOp.Select(own(dst), own(mask), own(a), own(b)));
    }

    public KernelBuilder gatherRows(KTile dst, KTile src, KTile indexTile) {
        return emit(new TileOp.GatherRows(own(dst), own(src), own(indexTile)));
    }

    public KernelBuilder topK(KTile values, KTile indices, KTile src, int k) {
        return emit(new TileOp.TopK(own(values), own(indices), own(src), k));
    }

    public KernelBuilder cumSum(KTile dst, KTile src) {
        return emit(new TileOp.CumSum(own(dst), own(src)));
    }

    public KernelBuilder quantize(KTile q, KTile scale, KTile src) {
        return emit(new TileOp.Quantize(own(q), own(scale), own(src)));
    }

    public KernelBuilder dequantize(KTile dst, KTile q, KTile scale) {
        return emit(new TileOp.Dequantize(own(dst), own(q), own(scale)));
    }

    public KernelBuilder iota(KTile dst, Fn.Axis axis, double start) {
        return emit(new TileOp.Iota(own(dst), axis, Scalar.imm(start)));
    }

    // ---- control flow ----

    /** {@code for var in range(start, end, step)} inside the kernel; the body gets the loop variable. */
    public KernelBuilder forRange(String var, Object start, Object end, long step, Consumer<KScalar> body) {
        open();
        if (step <= 0) {
            throw new IllegalArgumentException("kernel " + name + ": forRange " + var + " step must be positive: step="
                    + step);
        }
        Idx from = index("forRange " + var + " start", start);
        Idx to = index("forRange " + var + " end", end);
        checkScalarName(var);
        scalars.add(new ScalarDecl(var, false));
        KScalar v = new KScalar(this, var, scalars.size() - 1);
        bodies.push(new ArrayList<>());
        body.accept(v);
        List<TileOp> ops = bodies.pop();
        return emit(new TileOp.Loop(v.slot(), from, to, step, ops));
    }

    /** {@code for var in range(start, end)}. */
    public KernelBuilder forRange(String var, Object start, Object end, Consumer<KScalar> body) {
        return forRange(var, start, end, 1, body);
    }

    /**
     * The finished kernel, validated. A builder builds once.
     *
     * @throws IllegalArgumentException naming the op, its source line and the operands when the kernel breaks
     *                                  an ISA rule (a dtype an op does not take, mismatched tile shapes, ...)
     */
    public Kernel build() {
        open();
        if (bodies.size() != 1) {
            throw new IllegalStateException("kernel " + name + ": build() inside a forRange body");
        }
        built = true;
        Kernel kernel = new Kernel(name, tensors, scalars, tiles, bodies.peek());
        Kernels.validate(kernel, op -> {
            SourceLine line = sources.get(op);
            return line == null ? null : line.toString();
        });
        return kernel;
    }

    // ---- helpers ----

    static KernelBuilder sameOwner(KernelBuilder a, KernelBuilder b) {
        if (a != null && b != null && a != b) {
            throw new IllegalArgumentException("index combines scalars of kernels " + a.name + " and " + b.name);
        }
        return a != null ? a : b;
    }

    private KernelBuilder emit(TileOp op) {
        open();
        bodies.peek().add(op);
        sources.put(op, SourceLine.ofCaller());
        return this;
    }

    private void open() {
        if (built) {
            throw new IllegalStateException("kernel " + name + " is already built; start a new KernelBuilder");
        }
    }

    private void checkScalarName(String scalarName) {
        for (ScalarDecl s : scalars) {
            if (s.name().equals(scalarName)) {
                throw new IllegalArgumentException("kernel " + name + ": scalar " + scalarName + " is declared twice");
            }
        }
    }

    private int own(KTile t) {
        if (t.owner() != this) {
            throw foreign("tile", t.name());
        }
        return t.index();
    }

    private int own(KTensor t) {
        if (t.owner() != this) {
            throw foreign("tensor", t.name());
        }
        return t.index();
    }

    private KScalar own(KScalar s) {
        if (s.owner() != this) {
            throw foreign("scalar", s.name());
        }
        return s;
    }

    private IllegalArgumentException foreign(String what, String handle) {
        return new IllegalArgumentException("kernel " + name + ": " + what + " " + handle
                + " belongs to another kernel; declare it on this builder");
    }

    private List<Idx> offsets(String op, KTensor t, Object[] offsets) {
        own(t);
        if (offsets.length != t.rank()) {
            throw new IllegalArgumentException("kernel " + name + ": " + op + " of " + t.name() + " (rank " + t.rank()
                    + ") needs " + t.rank() + " offsets, got " + offsets.length);
        }
        List<Idx> out = new ArrayList<>(offsets.length);
        for (int d = 0; d < offsets.length; d++) {
            out.add(index(op + " " + t.name() + " offset " + d, offsets[d]));
        }
        return out;
    }

    private Idx index(String what, Object value) {
        return switch (value) {
            case Integer i -> Idx.of(i);
            case Long l -> Idx.of(l);
            case KIndex k -> {
                if (k.owner() != null && k.owner() != this) {
                    throw foreign("index", k.toString());
                }
                yield k.idx();
            }
            case null -> throw new IllegalArgumentException("kernel " + name + ": " + what + " is null");
            default -> throw new IllegalArgumentException("kernel " + name + ": " + what
                    + " must be an int, a long or a KIndex (scalar, loop variable or expression): got "
                    + value.getClass().getSimpleName() + " " + value);
        };
    }
}
