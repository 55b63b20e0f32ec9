package dev.jpto.compiler;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import java.lang.foreign.Arena;
import java.util.SplittableRandom;

/** Test data: seeded random tensors and reference results computed with plain loops. */
public final class Tensors {
    private Tensors() {
    }

    public static Tensor random(Arena arena, long seed, long rows, long cols) {
        Tensor t = Tensor.allocate(arena, DType.FP32, rows, cols);
        SplittableRandom rnd = new SplittableRandom(seed);
        for (long i = 0; i < t.numel(); i++) {
            t.setDouble(i, (float) (rnd.nextDouble() * 2 - 1));
        }
        return t;
    }

    /** Sequential fp32 reference of A·B with accumulation in K order, tile by tile as the kernels do. */
    public static double[] matmul(Tensor a, Tensor b) {
        int m = (int) a.shape(0);
        int k = (int) a.shape(1);
        int n = (int) b.shape(1);
        double[] out = new double[m * n];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                double s = 0;
                for (int kk = 0; kk < k; kk++) {
                    s += a.getDouble((long) i * k + kk) * b.getDouble((long) kk * n + j);
                }
                out[i * n + j] = s;
            }
        }
        return out;
    }

    public static double[] softmaxRows(Tensor x) {
        int rows = (int) x.shape(0);
        int cols = (int) x.shape(1);
        double[] out = new double[rows * cols];
        for (int r = 0; r < rows; r++) {
            double max = Double.NEGATIVE_INFINITY;
            for (int c = 0; c < cols; c++) {
                max = Math.max(max, x.getDouble((long) r * cols + c));
            }
            double sum = 0;
            for (int c = 0; c < cols; c++) {
                sum += Math.exp(x.getDouble((long) r * cols + c) - max);
            }
            for (int c = 0; c < cols; c++) {
                out[r * cols + c] = Math.exp(x.getDouble((long) r * cols + c) - max) / sum;
            }
        }
        return out;
    }
}
