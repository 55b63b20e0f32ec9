package dev.jpto.lib.gen;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import java.lang.foreign.Arena;

/**
 * Seeded, platform-independent input generation. Each tensor draws from its own stream
 * {@link SplitMix64#stream(long, String) stream(seed, name)}, so adding or reordering tensors never changes
 * another tensor's data, and the same (seed, name, init, shape) gives the same bits on every machine.
 *
 * <p>Elements are produced in C order of the target view, each value computed in double and then stored with
 * the dtype's rounding ({@link DType#storeDouble}: fp32/fp16/bf16 round to nearest even; integers round half to
 * even), except {@link Init.IntRange}, which stores exact longs. Per element:
 * <ul>
 *   <li>uniform(lo, hi): {@code lo + (hi − lo) · nextDouble()};</li>
 *   <li>normal(mean, std): Box–Muller on pairs of elements, with {@link StrictMath} for reproducibility:
 *       {@code u1 = nextDoubleOC(), u2 = nextDouble(), r = sqrt(−2 ln u1)}; element 2j gets
 *       {@code mean + std · r·cos(2πu2)}, element 2j+1 gets {@code mean + std · r·sin(2πu2)};</li>
 *   <li>integers[lo, hi): {@code lo + nextBounded(hi − lo)};</li>
 *   <li>constant: the value (no draws).</li>
 * </ul>
 * The target must be able to hold every value the init can produce (integer ranges, the fp16 and bf16 range);
 * otherwise the call fails rather than saturating or overflowing to Inf silently. Normal values into integer
 * dtypes are refused (unbounded). Uniform values into an integer dtype round half to even, so the two end values
 * are half as likely as the others: prefer {@link Init.IntRange} there.
 */
public final class Generators {
    private Generators() {
    }

    /** A new contiguous tensor of {@code dtype} and {@code shape} in {@code arena}, filled from {@code init}. */
    public static Tensor generate(Arena arena, String name, DType dtype, long[] shape, Init init, long seed) {
        Tensor t = Tensor.allocate(arena, dtype, shape);
        fill(t, name, init, seed);
        return t;
    }

    /**
     * Fills {@code target} (any view) in place with the values of tensor {@code name} under {@code seed}: the bits
     * of {@link #fillSequential}, computed in parallel chunks (each jumps its copy of the stream to its first draw)
     * with vectorised draws where the target is contiguous.
     */
    public static void fill(Tensor target, String name, Init init, long seed) {
        checkFits(target.dtype(), init, name);
        SplitMix64 stream = SplitMix64.stream(seed, name);
        switch (init) {
            case Init.Uniform u -> {
                double lo = u.lo();
                double width = u.hi() - u.lo();
                ParallelFill.doubles(target, (first, out, n) -> {
                    SplitMix64 r = stream.copy();
                    r.skip(first);
                    r.nextDoubles(out, 0, n);
                    for (int i = 0; i < n; i++) {
                        out[i] = lo + width * out[i];
                    }
                });
            }
            case Init.Normal g -> ParallelFill.doubles(target, (first, out, n) -> {
                // element pair (2j, 2j+1) takes draws 2j (u1, open-closed) and 2j+1 (u2); chunks start even
                SplitMix64 r = stream.copy();
                r.skip(first);
                r.nextDoubles(out, 0, n); // an odd last element draws its u2 after these
                for (int i = 0; i < n; i += 2) {
                    double u1 = out[i] + 0x1.0p-53; // nextDoubleOpenClosed: (k + 1)·2^-53, exact
                    double theta = 2.0 * StrictMath.PI * (i + 1 < n ? out[i + 1] : r.nextDouble());
                    double rad = StrictMath.sqrt(-2.0 * StrictMath.log(u1));
                    out[i] = g.mean() + g.std() * (rad * StrictMath.cos(theta));
                    if (i + 1 < n) {
                        out[i + 1] = g.mean() + g.std() * (rad * StrictMath.sin(theta));
                    }
                }
            });
            // a rejected draw shifts every later element's draws, so no chunk knows its start: sequential (the
            // integer inputs are index-sized, not weight-sized)
            case Init.IntRange ir -> fillSequential(target, name, init, seed);
            case Init.Constant c -> ParallelFill.doubles(target, (first, out, n) ->
                    java.util.Arrays.fill(out, 0, n, c.value()));
        }
    }

    /**
     * The reference definition of every init (one sequential pass over the stream, elements in C order): what
     * {@link #fill} reproduces bit for bit, and the baseline its benchmark and tests compare against.
     */
    public static void fillSequential(Tensor target, String name, Init init, long seed) {
        checkFits(target.dtype(), init, name);
        SplitMix64 rng = SplitMix64.stream(seed, name);
        long n = target.numel();
        switch (init) {
            case Init.Uniform u -> {
                double width = u.hi() - u.lo();
                for (long i = 0; i < n; i++) {
                    store(target, i, u.lo() + width * rng.nextDouble());
                }
            }
            case Init.Normal g -> {
                for (long i = 0; i < n; i += 2) {
                    double r = StrictMath.sqrt(-2.0 * StrictMath.log(rng.nextDoubleOpenClosed()));
                    double theta = 2.0 * StrictMath.PI * rng.nextDouble();
                    store(target, i, g.mean() + g.std() * (r * StrictMath.cos(theta)));
                    if (i + 1 < n) {
                        store(target, i + 1, g.mean() + g.std() * (r * StrictMath.sin(theta)));
                    }
                }
            }
            case Init.IntRange ir -> {
                long bound = ir.hiExclusive() - ir.lo(); // unsigned: any lo < hi fits
                for (long i = 0; i < n; i++) {
                    long v = ir.lo() + rng.nextBounded(bound);
                    target.dtype().storeLong(target.buffer(), offset(target, i), v);
                }
            }
            case Init.Constant c -> {
                for (long i = 0; i < n; i++) {
                    store(target, i, c.value());
                }
            }
        }
    }

    private static void store(Tensor t, long flat, double v) {
        t.dtype().storeDouble(t.buffer(), offset(t, flat), v);
    }

    private static long offset(Tensor t, long flat) {
        return t.isContiguous() ? (t.offset() + flat) * t.dtype().byteSize() : t.byteOffsetOfFlat(flat);
    }

    /** The target must hold every value the init can produce: no silent saturation or overflow to Inf. */
    private static void checkFits(DType dtype, Init init, String name) {
        String where = "tensor '" + name + "' (" + dtype.text() + "): " + init.describe();
        if (dtype.isFloat()) {
            double limit = maxFinite(dtype);
            double extent = switch (init) {
                case Init.Uniform u -> Math.max(Math.abs(u.lo()), Math.abs(u.hi()));
                case Init.IntRange ir ->
                        Math.max(Math.abs((double) ir.lo()), Math.abs((double) (ir.hiExclusive() - 1)));
                case Init.Constant c -> Double.isFinite(c.value()) ? Math.abs(c.value()) : 0; // ±Inf, NaN on purpose
                case Init.Normal g -> 0; // unbounded by nature; mean ± a few std is the caller's business
            };
            if (extent > limit) {
                throw new IllegalArgumentException(where + " reaches " + extent + ", beyond the largest finite "
                        + dtype.text() + " " + limit + "; narrow the range or use fp32");
            }
            return;
        }
        long min = dtype.minValue();
        long max = dtype.maxValue();
        String range = dtype.text() + " range [" + min + ", " + max + "]";
        switch (init) {
            case Init.IntRange ir -> {
                if (ir.lo() < min || ir.hiExclusive() - 1 > max) {
                    throw new IllegalArgumentException(where + " does not fit the " + range
                            + "; narrow the range or use a wider dtype");
                }
            }
            case Init.Uniform u -> {
                if (u.lo() < min || u.hi() > max) {
                    throw new IllegalArgumentException(where + " does not fit the " + range
                            + "; narrow the range or use a wider dtype");
                }
            }
            case Init.Constant c -> {
                if (c.value() != Math.rint(c.value()) || c.value() < min || c.value() > max) {
                    throw new IllegalArgumentException(where + " is not a value of the " + range);
                }
            }
            case Init.Normal g -> throw new IllegalArgumentException(where + " is unbounded and " + dtype.text()
                    + " is an integer dtype (values would saturate); use integers(lo, hi) or uniform(lo, hi)");
        }
    }

    private static double maxFinite(DType dtype) {
        return switch (dtype) {
            case FP16 -> 65504.0;
            case BF16 -> DType.bf16ToFloat((short) 0x7F7F);
            default -> Float.MAX_VALUE;
        };
    }
}
