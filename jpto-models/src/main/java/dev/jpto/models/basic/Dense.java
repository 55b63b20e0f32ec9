package dev.jpto.models.basic;

import dev.jpto.isa.Tensor;

/** Plain row-major double copies of tensors, for goldens written as loops. */
final class Dense {
    private Dense() {
    }

    /** The tensor's values in C order, exactly as stored (bf16/fp16 widened). */
    static double[] read(Tensor t) {
        return t.toDoubleArray();
    }

    /** Stores {@code values} (C order) into {@code t}, each rounded once to t's dtype. */
    static void write(Tensor t, double[] values) {
        if (values.length != t.numel()) {
            throw new IllegalArgumentException("golden wrote " + values.length + " values into " + t);
        }
        for (int i = 0; i < values.length; i++) {
            t.setDouble(i, values[i]);
        }
    }

    static int dim(Tensor t, int d) {
        return Math.toIntExact(t.shape(d));
    }
}
