package dev.jpto.compiler.dsl;

import dev.jpto.compiler.ir.Affine;
import dev.jpto.compiler.ir.TensorExpr;
import dev.jpto.isa.DType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A tensor in an orchestration function: a program input or output, an intermediate, or a view of one.
 * Views are free (no copy) and may depend on loop variables:
 * {@code x.at(i.times(64), 0).size(64, 128)} or, for a grid of equal blocks, {@code x.block(64, 128).at(i, 0)}.
 */
public final class TensorVar {
    private final TensorExpr expr;
    private final DType dtype;
    private final long[] shape;

    TensorVar(TensorExpr expr, DType dtype, long[] shape) {
        this.expr = expr;
        this.dtype = dtype;
        this.shape = shape.clone();
    }

    public TensorExpr expr() {
        return expr;
    }

    public DType dtype() {
        return dtype;
    }

    public long[] shape() {
        return shape.clone();
    }

    public int rank() {
        return shape.length;
    }

    /** Starts of a slice, one per dimension ({@code int}, {@code long} or {@link Affine}); finish with {@code size}. */
    public SliceAt at(Object... starts) {
        return new SliceAt(this, Orch.affines("slice of " + expr, starts, rank()));
    }

    /** The tensor as a grid of {@code blockShape} blocks; {@code at(block indices)} picks one. */
    public Blocks block(long... blockShape) {
        if (blockShape.length != rank()) {
            throw new IllegalArgumentException("block shape " + Arrays.toString(blockShape) + " of " + expr
                    + " needs " + rank() + " extents (tensor shape " + Arrays.toString(shape) + ")");
        }
        return new Blocks(this, blockShape.clone());
    }

    /** This whole contiguous tensor seen with another shape (same element count). */
    public TensorVar reshape(long... newShape) {
        return new TensorVar(new TensorExpr.Reshape(expr, newShape), dtype, newShape);
    }

    /** Pending slice: starts known, extents next. */
    public record SliceAt(TensorVar base, List<Affine> starts) {
        public TensorVar size(long... extents) {
            return new TensorVar(new TensorExpr.Slice(base.expr, starts, extents), base.dtype, extents);
        }
    }

    /** A grid of equal blocks over a tensor. */
    public record Blocks(TensorVar base, long[] blockShape) {
        public TensorVar at(Object... blockIndex) {
            List<Affine> idx = Orch.affines("block of " + base.expr, blockIndex, base.rank());
            List<Affine> starts = new ArrayList<>();
            for (int d = 0; d < idx.size(); d++) {
                starts.add(idx.get(d).times(blockShape[d]));
            }
            return new TensorVar(new TensorExpr.Slice(base.expr, starts, blockShape), base.dtype, blockShape);
        }
    }

    @Override
    public String toString() {
        return expr + ": " + dtype.text() + Arrays.toString(shape);
    }
}
