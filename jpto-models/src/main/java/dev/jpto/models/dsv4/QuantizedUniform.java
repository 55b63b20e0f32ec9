package dev.jpto.models.dsv4;

import dev.jpto.isa.Tensor;
import dev.jpto.lib.gen.ParallelFill;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.IntStream;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * A bf16 weight {@code W = bf16((U − shift)·scale)} of shape [rows, cols] (element i takes draw i of its stream),
 * quantised symmetrically to int8 per row or per column: {@code amax = max |W|} over the group,
 * {@code sq = 127/max(amax, 1e-4)} (fp32), codes {@code clamp(rint(W·sq), ±127)}, scales {@code 1/sq}.
 *
 * <p>Uniform draws are counter-based, so W is never held whole: one parallel pass takes the group maxima, a second
 * regenerates W chunk by chunk into the codes. The codes and scales tensors share the maxima ({@link ScaleCache}).
 */
final class QuantizedUniform {
    private static final VectorSpecies<Double> D = DoubleVector.SPECIES_PREFERRED;
    /** fp32 lanes as many as D's: the weights are computed in double, then narrowed lane for lane. */
    private static final VectorSpecies<Float> F = VectorSpecies.of(float.class,
            VectorShape.forBitSize(Math.max(64, D.vectorBitSize() / 2)));
    private static final boolean VECTOR = F.length() == D.length();
    private static final float RINT_MAGIC = 12582912f; // 1.5·2^23
    private final String name;
    private final int rows;
    private final int cols;
    private final double shift;
    private final double scale;
    private final boolean perRow;
    private final ScaleCache cache;

    QuantizedUniform(String name, int rows, int cols, double shift, double scale, boolean perRow) {
        if (rows <= 0 || cols <= 0) {
            throw new IllegalArgumentException(name + ": quantised weight needs positive dims, got [" + rows + ", "
                    + cols + "]");
        }
        this.name = name;
        this.rows = rows;
        this.cols = cols;
        this.shift = shift;
        this.scale = scale;
        this.perRow = perRow;
        this.cache = new ScaleCache(name, "quantised uniform " + name + " [" + rows + ", " + cols + "] (U-" + shift
                + ")·" + scale + (perRow ? " per row" : " per column"), this::pass);
    }

    /** Fills the int8 codes [rows, cols]. */
    Init.Fill codes() {
        return (t, c) -> {
            if (t.numel() != (long) rows * cols) {
                throw new IllegalArgumentException(name + ": the codes need " + rows + "x" + cols
                        + " elements, target " + t);
            }
            cache.codes(c, t);
        };
    }

    /** Fills the fp32 dequant scales 1/sq, one per group. */
    Init.Fill scales() {
        return (t, c) -> cache.store(t, cache.scales(c));
    }

    private double[] pass(Init.Context c, Tensor codes) {
        float[] sq = multipliers(c);
        if (codes != null) {
            ParallelFill.doubles(codes, (first, out, n) -> {
                Init.RandomSource r = c.stream(name);
                r.skip(first);
                r.uniforms(out, 0, n);
                int row = (int) (first / cols);
                int col = (int) (first % cols); // walked, not divided per element (a 64-bit division is slow)
                int i = 0;
                while (i < n) {
                    int run = Math.min(n - i, cols - col); // the rest of this row
                    quantise(out, i, run, sq, perRow ? row : -1, col);
                    i += run;
                    col = 0;
                    row++;
                }
            });
        }
        double[] s = new double[sq.length];
        for (int g = 0; g < s.length; g++) {
            s[g] = 1.0f / sq[g];
        }
        return s;
    }

    private float weight(double u) {
        return Dsv4Numerics.bf16((float) ((u - shift) * scale));
    }

    /**
     * {@link #weight} of {@code F.length()} uniforms from {@code u[at]}: the same IEEE operations lane-wise (the
     * double → float cast rounds to nearest even; bf16 rounding as {@code DType.floatToBf16} for finite values).
     */
    private FloatVector weights(double[] u, int at) {
        FloatVector f = (FloatVector) DoubleVector.fromArray(D, u, at).sub(shift).mul(scale)
                .convertShape(VectorOperators.D2F, F, 0);
        IntVector bits = f.reinterpretAsInts();
        IntVector lsb = bits.lanewise(VectorOperators.LSHR, 16).and(1);
        return bits.add(0x7FFF).add(lsb).and(0xFFFF0000).reinterpretAsFloats();
    }

    /** max |W| over one row of uniforms (max is order-independent: any lane split gives the same value). */
    private float rowMax(double[] u) {
        int k = 0;
        float m = 0;
        if (VECTOR) {
            FloatVector acc = FloatVector.zero(F);
            for (; k + F.length() <= u.length; k += F.length()) {
                acc = acc.max(weights(u, k).abs());
            }
            m = acc.reduceLanes(VectorOperators.MAX);
        }
        for (; k < u.length; k++) {
            m = Math.max(m, Math.abs(weight(u[k])));
        }
        return m;
    }

    /** amax[k] = max(amax[k], |W[k]|) over one row of uniforms. */
    private void columnMax(double[] u, float[] amax) {
        int k = 0;
        if (VECTOR) {
            for (; k + F.length() <= u.length; k += F.length()) {
                FloatVector.fromArray(F, amax, k).max(weights(u, k).abs()).intoArray(amax, k);
            }
        }
        for (; k < u.length; k++) {
            amax[k] = Math.max(amax[k], Math.abs(weight(u[k])));
        }
    }

    /**
     * The codes of {@code len} uniforms {@code v[at..]} of one row from column {@code col} on, in place:
     * {@code i8q(W·sq)} with sq of the row ({@code row >= 0}) or of each column. Lane-wise, rint of |x| &lt; 2^22 in
     * fp32 is {@code (x + 1.5·2^23) − 1.5·2^23} (the sum's ulp is 1, rounded to nearest even), and W·sq is within ±128.
     */
    private void quantise(double[] v, int at, int len, float[] sq, int row, int col) {
        int i = 0;
        if (VECTOR) {
            for (; i + F.length() <= len; i += F.length()) {
                FloatVector q = row >= 0 ? FloatVector.broadcast(F, sq[row]) : FloatVector.fromArray(F, sq, col + i);
                FloatVector x = weights(v, at + i).mul(q);
                FloatVector r = x.add(RINT_MAGIC).sub(RINT_MAGIC).max(-127f).min(127f);
                ((DoubleVector) r.convertShape(VectorOperators.F2D, D, 0)).intoArray(v, at + i);
            }
        }
        for (; i < len; i++) {
            v[at + i] = Dsv4Numerics.i8q(weight(v[at + i]) * sq[row >= 0 ? row : col + i]);
        }
    }

    /** sq per group; the maxima are order-independent, so any split over threads gives the same values. */
    private float[] multipliers(Init.Context c) {
        int tasks = Math.min(rows, 4 * ForkJoinPool.getCommonPoolParallelism() + 4);
        float[][] partial = new float[tasks][];
        IntStream.range(0, tasks).parallel().forEach(task -> {
            int r0 = (int) ((long) rows * task / tasks);
            int r1 = (int) ((long) rows * (task + 1) / tasks);
            float[] amax = new float[perRow ? r1 - r0 : cols];
            double[] u = new double[cols];
            Init.RandomSource r = c.stream(name);
            r.skip((long) r0 * cols);
            for (int row = r0; row < r1; row++) {
                r.uniforms(u, 0, cols);
                if (perRow) {
                    amax[row - r0] = rowMax(u);
                } else {
                    columnMax(u, amax);
                }
            }
            partial[task] = amax;
        });
        float[] sq = new float[perRow ? rows : cols];
        for (int task = 0; task < tasks; task++) {
            float[] a = partial[task];
            if (perRow) {
                System.arraycopy(a, 0, sq, (int) ((long) rows * task / tasks), a.length);
            } else {
                for (int k = 0; k < cols; k++) {
                    sq[k] = Math.max(sq[k], a[k]);
                }
            }
        }
        for (int g = 0; g < sq.length; g++) {
            sq[g] = Dsv4Numerics.quantMultiplier(sq[g]);
        }
        return sq;
    }
}
