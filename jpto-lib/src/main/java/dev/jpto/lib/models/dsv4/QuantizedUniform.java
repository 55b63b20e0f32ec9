package dev.jpto.lib.models.dsv4;

import dev.jpto.isa.Tensor;
import dev.jpto.lib.gen.ParallelFill;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.IntStream;

/**
 * A bf16 weight {@code W = bf16((U − shift)·scale)} of shape [rows, cols] (element i takes draw i of its stream),
 * quantised symmetrically to int8 per row or per column: {@code amax = max |W|} over the group,
 * {@code sq = 127/max(amax, 1e-4)} (fp32), codes {@code clamp(rint(W·sq), ±127)}, scales {@code 1/sq}.
 *
 * <p>Uniform draws are counter-based, so W is never held whole: one parallel pass takes the group maxima, a second
 * regenerates W chunk by chunk into the codes. The codes and scales tensors share the maxima ({@link ScaleCache}).
 */
final class QuantizedUniform {
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
                for (int i = 0; i < n; i++) {
                    long flat = first + i;
                    int g = (int) (perRow ? flat / cols : flat % cols);
                    out[i] = Dsv4Numerics.i8q(weight(out[i]) * sq[g]);
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
                    float m = 0;
                    for (int k = 0; k < cols; k++) {
                        m = Math.max(m, Math.abs(weight(u[k])));
                    }
                    amax[row - r0] = m;
                } else {
                    for (int k = 0; k < cols; k++) {
                        amax[k] = Math.max(amax[k], Math.abs(weight(u[k])));
                    }
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
