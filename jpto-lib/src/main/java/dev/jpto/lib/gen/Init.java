package dev.jpto.lib.gen;

/**
 * How a tensor's initial values are generated: data, so a program's presets can list them and print them.
 * {@link Generators} turns an {@code Init} plus a seed and the tensor's name into values.
 */
public sealed interface Init permits Init.Uniform, Init.Normal, Init.IntRange, Init.Constant {
    /** Uniform real values in {@code [lo, hi)} before rounding to the dtype (rounding may reach {@code hi}). */
    record Uniform(double lo, double hi) implements Init {
        public Uniform {
            if (!Double.isFinite(lo) || !Double.isFinite(hi) || !(lo < hi) || !Double.isFinite(hi - lo)) {
                throw new IllegalArgumentException("uniform needs finite lo < hi: lo=" + lo + " hi=" + hi
                        + (lo == hi ? " (use a constant for a single value)" : ""));
            }
        }

        @Override
        public String describe() {
            return "uniform(" + lo + ", " + hi + ")";
        }
    }

    /** Normal (Gaussian) values with the given mean and standard deviation, by Box–Muller. */
    record Normal(double mean, double std) implements Init {
        public Normal {
            if (!Double.isFinite(mean) || !Double.isFinite(std) || std < 0) {
                throw new IllegalArgumentException("normal needs a finite mean and a finite std >= 0: mean=" + mean
                        + " std=" + std);
            }
        }

        @Override
        public String describe() {
            return "normal(" + mean + ", " + std + ")";
        }
    }

    /** Uniform integers in {@code [lo, hiExclusive)}, like {@code torch.randint(lo, hi)}. */
    record IntRange(long lo, long hiExclusive) implements Init {
        public IntRange {
            if (lo >= hiExclusive) {
                throw new IllegalArgumentException("integers need lo < hi (hi is exclusive): lo=" + lo + " hi="
                        + hiExclusive + (lo == hiExclusive ? " (try hi=" + (lo + 1) + " for the single value " + lo
                        + ")" : ""));
            }
        }

        @Override
        public String describe() {
            return "integers[" + lo + ", " + hiExclusive + ")";
        }
    }

    /** Every element the same value; zeros and ones are constants. */
    record Constant(double value) implements Init {
        @Override
        public String describe() {
            return value == 0 ? "zeros" : value == 1 ? "ones" : "constant(" + value + ")";
        }
    }

    /** A short text for logs and presets, e.g. {@code normal(0.0, 1.0)}. */
    String describe();

    static Init uniform(double lo, double hi) {
        return new Uniform(lo, hi);
    }

    static Init normal(double mean, double std) {
        return new Normal(mean, std);
    }

    static Init integers(long lo, long hiExclusive) {
        return new IntRange(lo, hiExclusive);
    }

    static Init constant(double value) {
        return new Constant(value);
    }

    static Init zeros() {
        return new Constant(0);
    }

    static Init ones() {
        return new Constant(1);
    }
}
