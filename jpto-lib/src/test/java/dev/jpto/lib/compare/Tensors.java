package dev.jpto.lib.compare;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import java.lang.foreign.Arena;

/** Small tensors for comparator tests. */
final class Tensors {
    private Tensors() {
    }

    static Tensor of(Arena arena, DType dtype, long[] shape, double... values) {
        Tensor t = Tensor.allocate(arena, dtype, shape);
        if (values.length != t.numel()) {
            throw new IllegalArgumentException(values.length + " values for shape of " + t.numel());
        }
        for (int i = 0; i < values.length; i++) {
            t.setDouble(i, values[i]);
        }
        return t;
    }

    static Tensor f32(Arena arena, double... values) {
        return of(arena, DType.FP32, new long[] {values.length}, values);
    }

    static Tensor filled(Arena arena, int n, double value) {
        double[] v = new double[n];
        java.util.Arrays.fill(v, value);
        return f32(arena, v);
    }

    /** One fp32 ulp above {@code x} (x positive). */
    static double up(double x) {
        return Math.nextUp((float) x);
    }

    /** One fp32 ulp below {@code x} (x positive). */
    static double down(double x) {
        return Math.nextDown((float) x);
    }
}
