package dev.jpto.isa.op;

import dev.jpto.isa.RoundingMode;
import java.util.List;

/**
 * The tile op set. Operands are indices: {@code tile} fields index the kernel's tile declarations,
 * {@code tensor} fields its tensor parameters, and {@link Idx}/{@link Scalar} operands its scalar
 * registers. Elementwise families carry their function as an enum ({@link Fn}), so each record is one
 * operand shape and every consumer switches exhaustively over both.
 *
 * <p>Semantics (shared by both engines): ops read and write the valid region; the destination's valid
 * region becomes the result's. Floating-point tiles compute in fp32 and round the result to the tile's
 * dtype (nearest even); integer tiles wrap (two's complement), except casts, which saturate.
 */
public sealed interface TileOp {

    /** Loads {@code validRows × validCols} elements from the last two dimensions of a tensor at {@code offsets}. */
    record Load(int dst, int tensor, List<Idx> offsets, Idx validRows, Idx validCols) implements TileOp {
        public Load {
            offsets = List.copyOf(offsets);
        }
    }

    /** Loads rows gathered by an index tile (int32, R×1): row i of dst = tensor row {@code index[i]}, at {@code offsets}. */
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

    /** Sets every element of the valid region to a value. */
    record Fill(int dst, Scalar value) implements TileOp {
    }

    /** Copies src to dst (same dtype). */
    record Copy(int dst, int src) implements TileOp {
    }

    record Binary(Fn.Binary fn, int dst, int a, int b) implements TileOp {
    }

    record BinaryScalar(Fn.Binary fn, int dst, int a, Scalar b) implements TileOp {
    }

    record Unary(Fn.Unary fn, int dst, int src) implements TileOp {
    }

    /** {@code dst[r][c] = a[r][c] fn b[r][0]}: b is a column vector (R×1), broadcast along each row. */
    record RowBroadcast(Fn.Binary fn, int dst, int a, int b) implements TileOp {
    }

    /** {@code dst[r][c] = a[r][c] fn b[0][c]}: b is a row vector (1×C), broadcast down each column. */
    record ColBroadcast(Fn.Binary fn, int dst, int a, int b) implements TileOp {
    }

    record Reduce(Fn.Reduce fn, Fn.Axis axis, int dst, int src) implements TileOp {
    }

    /**
     * {@code C = A·B}, or {@code C = A·Bᵀ} when {@code transposeB}; {@code accumulate} adds to C.
     * fp32/bf16/fp16 inputs accumulate in fp32 (C is fp32); int8 inputs accumulate in int32 (C is int32).
     */
    record MatMul(int c, int a, int b, boolean transposeB, boolean accumulate) implements TileOp {
    }

    record Cast(int dst, int src, RoundingMode mode) implements TileOp {
    }

    record Transpose(int dst, int src) implements TileOp {
    }

    /** dst (bool) = a fn b. */
    record Compare(Fn.Compare fn, int dst, int a, int b) implements TileOp {
    }

    record CompareScalar(Fn.Compare fn, int dst, int a, Scalar b) implements TileOp {
    }

    /** dst = mask ? a : b. */
    record Select(int dst, int mask, int a, int b) implements TileOp {
    }

    /** Row i of dst = row {@code index[i]} of src (index: int32, R×1). */
    record GatherRows(int dst, int src, int index) implements TileOp {
    }

    /** Per row: the k largest values (descending) and their column indices (int32); ties → lower index first. */
    record TopK(int values, int indices, int src, int k) implements TileOp {
    }

    /** Inclusive cumulative sum along each row. */
    record CumSum(int dst, int src) implements TileOp {
    }

    /** Per row: scale = amax/127 (fp32, R×1), q = rint(x/scale) saturated to int8. A zero row gets scale 0, q 0. */
    record Quantize(int q, int scale, int src) implements TileOp {
    }

    /** dst = q × scale (per row). */
    record Dequantize(int dst, int q, int scale) implements TileOp {
    }

    /** dst[r][c] = start + (axis == ROWS ? r : c). */
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
