package dev.jpto.lib.models.dsv4;

import dev.jpto.isa.Tensor;

import java.util.Arrays;

/**
 * How one program input is generated, as data: a generator reads the variant and fills the tensor. Every value
 * is produced in fp32/fp64 and then stored with the tensor's dtype (round to nearest even for bf16, the
 * round-half-even saturating cast for integers), as the original's harness casts {@code init_value} results.
 *
 * <p>Seed rule: the random variants draw from one stream per tensor, seeded by
 * {@link #streamSeed(long, String)} from the run seed and the tensor's name, so that adding or reordering tensors
 * never changes the values of the others. Elements are drawn in C order.
 */
public sealed interface Init {

    /** A one-line human description (for {@code jpto list}, docs and error messages). */
    String describe();

    /** {@code mean + std·N(0,1)}. */
    record Normal(double mean, double std) implements Init {
        public String describe() {
            return mean == 0 ? "N(0,1)·" + std : mean + " + N(0,1)·" + std;
        }
    }

    /** Uniform on {@code [lo, hi)}. */
    record Uniform(double lo, double hi) implements Init {
        public String describe() {
            return "U[" + lo + ", " + hi + ")";
        }
    }

    /** Uniform integers on {@code [lo, hi]} (inclusive). */
    record IntRange(long lo, long hi) implements Init {
        public String describe() {
            return "integers uniform on [" + lo + ", " + hi + "]";
        }
    }

    /** All zeros (also what pure outputs start as). */
    record Zeros() implements Init {
        public String describe() {
            return "zeros";
        }
    }

    /** Every element equal to {@code value}. */
    record Const(double value) implements Init {
        public String describe() {
            return "all " + value;
        }
    }

    /** Fixed values in C order (length must equal the element count). */
    record Values(double... values) implements Init {
        public Values {
            values = values.clone();
        }

        @Override
        public double[] values() {
            return values.clone();
        }

        public String describe() {
            return "fixed " + Arrays.toString(values);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Values v && Arrays.equals(values, v.values);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(values);
        }

        @Override
        public String toString() {
            return "Values" + Arrays.toString(values);
        }
    }

    /**
     * A rule that is not a plain distribution (quantised weights, RoPE tables, block tables, slot mappings,
     * cache prefixes). {@code rule} states it in words; {@code fill} implements it against any random source.
     */
    record Custom(String rule, Fill fill) implements Init {
        public String describe() {
            return rule;
        }
    }

    /** Fills a tensor; may draw from named streams and read inputs generated earlier in parameter order. */
    @FunctionalInterface
    interface Fill {
        void fill(Tensor target, Context context);
    }

    /** What a {@link Fill} may use: per-tensor random streams and the tensors generated before this one. */
    interface Context {
        /** A fresh stream seeded by {@link #streamSeed(long, String)} for {@code tensorName}. */
        RandomSource stream(String tensorName);

        /** An input generated earlier (parameter order). */
        Tensor tensor(String name);
    }

    /** The random primitives the rules need. */
    interface RandomSource {
        /** Uniform on [0, 1). */
        double uniform();

        /** Standard normal. */
        double normal();
    }

    /** Seed of the stream of tensor {@code name} in a run seeded with {@code runSeed} (SplitMix64 finaliser). */
    static long streamSeed(long runSeed, String name) {
        long z = runSeed * 0x9E3779B97F4A7C15L + name.hashCode();
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
