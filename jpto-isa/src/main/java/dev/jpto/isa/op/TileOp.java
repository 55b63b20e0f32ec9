package dev.jpto.isa.op;

import dev.jpto.isa.RoundingMode;
import java.util.List;

/**
 * The tile op set. Operands are indices: {@code tile} fields index the kernel's tile declarations,
 * {@code tensor} fields its tensor parameters, and {@link Idx}/{@link Scalar} operands its scalar
 * registers. Elementwise families carry their function as an enum ({@link Fn}), so each record is one
 * operand shape and every consumer switches exhaustively over both.
 *
 * <p>Semantics (shared by both engines; {@code engine.ScalarEngine} is the reference and
 * {@code engine.OpChecks} the operand rules):
 * <ul>
 * <li><b>Valid regions.</b> Ops read the valid region of their sources; the result region is written into
 * the destination, whose valid region becomes the result's (elements outside it are left as they were). A
 * destination only needs the capacity (rows × cols) for the result, not the same shape. Two sources of an
 * elementwise op must have the same dtype and the same valid region. Fill and iota write the destination's
 * current valid region. Ops may run in place (dst = a source) except where noted.
 * <li><b>Float tiles</b> (fp32, fp16, bf16) compute in fp32 and round the result to the tile's dtype,
 * nearest even; transcendentals are evaluated in double and rounded to fp32 once. A scalar operand of a
 * float op is rounded to fp32 first. MAX/MIN follow {@link Math#max(float, float)}: NaN if either side is
 * NaN, and -0.0 &lt; +0.0. Which NaN a float op returns (sign and payload) is not specified: engines agree
 * on NaN-ness, not on NaN bits. Comparisons are IEEE: any comparison with NaN is false except NE, which is true.
 * <li><b>Integer tiles</b> (int8, uint8, int16, int32, int64) compute in 64 bits and wrap to their width
 * (two's complement; uint8 modulo 256). DIV truncates toward zero and {@code x / 0 = 0} (the device has no
 * trap; {@code MIN / -1} wraps to MIN). A scalar operand of an integer op is rounded to nearest even and
 * saturated to int64; compare-with-scalar on integers compares the exact values. Of the unary functions,
 * integers support NEG, ABS and RELU ({@code abs(MIN)} wraps to MIN).
 * <li><b>Bool tiles</b> hold 0/1; they are produced by compare and cast, consumed by select (any non-zero
 * mask element selects a), and may be filled, copied, loaded, stored, gathered and transposed; arithmetic
 * on them is rejected.
 * <li><b>Conversions</b> (cast, and load/store between different dtypes): same dtype copies the bits;
 * float → float rounds to nearest even; float → integer rounds by the rounding mode (load/store: RINT) and
 * saturates, NaN → 0, ±Inf → max/min; integer → float rounds once to nearest even; integer → integer
 * saturates; anything → bool is "non-zero" (NaN → 0).
 * <li><b>Tensor regions</b>: the last two tensor dimensions are rows and columns (a rank-1 tensor is one
 * row); there is one offset per tensor dimension and the region must lie inside the tensor.
 * <li><b>Dtypes accepted</b>: load, load_rows, store, fill, copy, cast, transpose, select and gather_rows take
 * any dtype; elementwise, broadcast, reduce, cumsum, compare, top-k and iota any numeric dtype (not bool);
 * the transcendental unary functions float only; matmul fp32/bf16/fp16 (C fp32) or int8 (C int32);
 * quantize float → int8 with an fp32 scale; dequantize int8 × fp32 → float. Index tiles are int32, masks bool.
 * <li><b>Errors</b>: a broken rule (dtype, region, capacity, aliasing, an index outside its range) throws
 * {@link IllegalArgumentException} naming the op, the operand, what was expected and what was given; the
 * operands are checked before anything is written.
 * </ul>
 */
public sealed interface TileOp {

    /**
     * Loads {@code validRows × validCols} elements from the last two dimensions of a tensor at {@code offsets}
     * (converting to the tile's dtype); dst's valid region becomes {@code validRows × validCols}.
     */
    record Load(int dst, int tensor, List<Idx> offsets, Idx validRows, Idx validCols) implements TileOp {
        public Load {
            offsets = List.copyOf(offsets);
        }
    }

    /**
     * Loads rows gathered by an index tile (int32, column 0 of its valid rows): row i of dst = tensor row
     * {@code offsets[rank-2] + index[i]}, columns {@code offsets[rank-1] ..+validCols}. A row number outside the
     * tensor is an error. dst's valid region becomes {@code index.validRows × validCols}. Tensor rank ≥ 2.
     */
    record LoadRows(int dst, int tensor, int index, List<Idx> offsets, Idx validCols) implements TileOp {
        public LoadRows {
            offsets = List.copyOf(offsets);
        }
    }

    /** Stores the valid region of {@code src} into a tensor at {@code offsets} (converting to the tensor's dtype). */
    record Store(int src, int tensor, List<Idx> offsets) implements TileOp {
        public Store {
            offsets = List.copyOf(offsets);
        }
    }

    /** Sets every element of dst's valid region to a value, rounded once to dst's dtype (integers: RINT, saturating). */
    record Fill(int dst, Scalar value) implements TileOp {
    }

    /** Copies src to dst (same dtype, bit-exact). */
    record Copy(int dst, int src) implements TileOp {
    }

    /** {@code dst = a fn b} elementwise; a, b, dst share a dtype (not bool); a and b the valid region. */
    record Binary(Fn.Binary fn, int dst, int a, int b) implements TileOp {
    }

    /** {@code dst = a fn b} with a scalar b (see the scalar rules above). */
    record BinaryScalar(Fn.Binary fn, int dst, int a, Scalar b) implements TileOp {
    }

    /**
     * {@code dst = fn(src)}, same dtype. RSQRT = 1/√x, RECIPROCAL = 1/x (fp32 division), RELU = max(x, +0.0),
     * SILU = x/(1+e^-x), SIGMOID = 1/(1+e^-x), GELU = 0.5x(1+tanh(√(2/π)(x+0.044715x³))) (evaluated as the equal
     * x/(1+e^(-2√(2/π)(x+0.044715x³))), see {@link Elementwise#gelu}). Float-only except
     * NEG, ABS, RELU.
     */
    record Unary(Fn.Unary fn, int dst, int src) implements TileOp {
    }

    /**
     * {@code dst[r][c] = a[r][c] fn b[r][0]}: b is a column vector (valid R×1, a's dtype), broadcast along each
     * row. dst must not be b.
     */
    record RowBroadcast(Fn.Binary fn, int dst, int a, int b) implements TileOp {
    }

    /**
     * {@code dst[r][c] = a[r][c] fn b[0][c]}: b is a row vector (valid 1×C, a's dtype), broadcast down each
     * column. dst must not be b.
     */
    record ColBroadcast(Fn.Binary fn, int dst, int a, int b) implements TileOp {
    }

    /**
     * Reduces along {@code axis} (R×C → R×1, 1×C or 1×1), dst in src's dtype. Floats accumulate in fp32 in
     * row-major order (the vector engine may reassociate: within the documented ulp bound); integers wrap. MAX/MIN
     * propagate NaN. An empty range gives the identity: 0, -Inf / the dtype's min, +Inf / the dtype's max. For
     * ROWS and COLS dst must not be src.
     */
    record Reduce(Fn.Reduce fn, Fn.Axis axis, int dst, int src) implements TileOp {
    }

    /**
     * {@code C = A·B}, or {@code C = A·Bᵀ} when {@code transposeB}; {@code accumulate} adds to C.
     * fp32/bf16/fp16 inputs accumulate in fp32 (C is fp32); int8 inputs accumulate in int32 (C is int32,
     * wrapping). A and B share a dtype; A is M×K, B is K×N (N×K when transposed); C gets valid M×N, and must
     * already be valid M×N when accumulating. The reference accumulates with one fused multiply-add per k,
     * k ascending, starting from C (accumulate) or 0. C must not be A or B.
     */
    record MatMul(int c, int a, int b, boolean transposeB, boolean accumulate) implements TileOp {
    }

    /** Converts src to dst's dtype by the conversion rules above; {@code mode} applies to float → integer. */
    record Cast(int dst, int src, RoundingMode mode) implements TileOp {
    }

    /** {@code dst[c][r] = src[r][c]} (bit-exact), valid region C×R. dst must not be src. */
    record Transpose(int dst, int src) implements TileOp {
    }

    /** dst (bool) = a fn b, a and b of one numeric dtype and one valid region (IEEE for NaN). */
    record Compare(Fn.Compare fn, int dst, int a, int b) implements TileOp {
    }

    /** dst (bool) = a fn b with a scalar b (float tiles compare with b rounded to fp32; integers exactly). */
    record CompareScalar(Fn.Compare fn, int dst, int a, Scalar b) implements TileOp {
    }

    /** dst = mask ? a : b (bit-exact); mask is bool with a's valid region; a, b, dst share a dtype. */
    record Select(int dst, int mask, int a, int b) implements TileOp {
    }

    /**
     * Row i of dst = row {@code index[i]} of src (index: int32, column 0 of its valid rows); a row number outside
     * src's valid rows is an error. dst gets valid {@code index.validRows × src.validCols}; dst must not be src.
     */
    record GatherRows(int dst, int src, int index) implements TileOp {
    }

    /**
     * Per row: the k largest values (descending) and their column indices (int32); ties → lower index first.
     * Order is {@link Float#compare} for floats (NaN above +Inf, +0.0 above -0.0) and numeric for integers;
     * {@code 1 <= k <= src.validCols}. values (src's dtype) and indices get valid {@code R × k}; neither may be src.
     */
    record TopK(int values, int indices, int src, int k) implements TileOp {
    }

    /** Inclusive cumulative sum along each row: floats keep the running sum in fp32 and round each output; integers wrap. */
    record CumSum(int dst, int src) implements TileOp {
    }

    /**
     * Per row of a float src: amax = max |x| (fp32, NaN propagates), scale = amax/127 (fp32, valid R×1),
     * q = rint(x/scale) (fp32 division) saturated to int8 (valid R×C). A zero row gets scale 0, q 0; a row with
     * NaN gets scale NaN and q 0 everywhere (NaN → 0).
     */
    record Quantize(int q, int scale, int src) implements TileOp {
    }

    /** dst = q × scale[r] in fp32, rounded to dst's float dtype; q int8, scale fp32 valid R×1. */
    record Dequantize(int dst, int q, int scale) implements TileOp {
    }

    /** dst[r][c] = start + (axis == ROWS ? r : c), computed in double and rounded once to dst's dtype; over dst's valid region. */
    record Iota(int dst, Fn.Axis axis, Scalar start) implements TileOp {
    }

    /** Runs {@code body} with scalar register {@code slot} = start, start+step, … while &lt; end. */
    record Loop(int slot, Idx start, Idx end, long step, List<TileOp> body) implements TileOp {
        public Loop {
            if (step <= 0) {
                throw new IllegalArgumentException("loop step must be positive: step=" + step);
            }
            body = List.copyOf(body);
        }
    }
}
