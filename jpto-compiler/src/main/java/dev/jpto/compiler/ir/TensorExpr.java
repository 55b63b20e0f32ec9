package dev.jpto.compiler.ir;

import java.util.Arrays;
import java.util.List;

/** A tensor value in the orchestration: a named tensor, or a view of one. Views never copy. */
public sealed interface TensorExpr {
    /** The whole of a declared tensor (input, output or intermediate). */
    record Ref(String name) implements TensorExpr {
        @Override
        public String toString() {
            return name;
        }
    }

    /** {@code base[starts[d] : starts[d] + extents[d]]} in every dimension; starts may depend on loop variables. */
    record Slice(TensorExpr base, List<Affine> starts, long[] extents) implements TensorExpr {
        public Slice {
            starts = List.copyOf(starts);
            extents = extents.clone();
        }

        @Override
        public long[] extents() {
            return extents.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Slice s && base.equals(s.base) && starts.equals(s.starts)
                    && Arrays.equals(extents, s.extents);
        }

        @Override
        public int hashCode() {
            return (base.hashCode() * 31 + starts.hashCode()) * 31 + Arrays.hashCode(extents);
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder(base.toString()).append('[');
            for (int d = 0; d < extents.length; d++) {
                if (d > 0) {
                    sb.append(", ");
                }
                sb.append(starts.get(d)).append(" +: ").append(extents[d]);
            }
            return sb.append(']').toString();
        }
    }

    /** A whole contiguous tensor seen with another shape of the same element count. */
    record Reshape(TensorExpr base, long[] shape) implements TensorExpr {
        public Reshape {
            shape = shape.clone();
        }

        @Override
        public long[] shape() {
            return shape.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Reshape r && base.equals(r.base) && Arrays.equals(shape, r.shape);
        }

        @Override
        public int hashCode() {
            return base.hashCode() * 31 + Arrays.hashCode(shape);
        }

        @Override
        public String toString() {
            return base + ".reshape" + Arrays.toString(shape);
        }
    }

    /** The name of the tensor this expression is a view of. */
    default String root() {
        return switch (this) {
            case Ref r -> r.name();
            case Slice s -> s.base().root();
            case Reshape r -> r.base().root();
        };
    }
}
