package dev.jpto.models.basic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import java.lang.foreign.Arena;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The goldens against cases worked out by hand. */
class GoldenMathTest {
    private final Arena arena = Arena.ofConfined();

    @AfterEach
    void close() {
        arena.close();
    }

    private Tensor tensor(double[] values, long... shape) {
        Tensor t = Tensor.allocate(arena, DType.FP32, shape);
        for (int i = 0; i < values.length; i++) {
            t.setDouble(i, values[i]);
        }
        return t;
    }

    @Test
    void matmulOfTwoByTwo() {
        Tensor c = tensor(new double[4], 2, 2);
        Matmul.golden(Map.of("a", tensor(new double[] {1, 2, 3, 4}, 2, 2), "b", tensor(new double[] {5, 6, 7, 8}, 2, 2)),
                Map.of("c", c));
        assertThat(c.toDoubleArray()).containsExactly(19, 22, 43, 50);
    }

    @Test
    void softmaxOfARow() {
        Tensor y = tensor(new double[3], 1, 3);
        Softmax.golden(Map.of("x", tensor(new double[] {0, Math.log(2), Math.log(5)}, 1, 3)), Map.of("y", y));
        double[] v = y.toDoubleArray();
        assertThat(v[0]).isCloseTo(1.0 / 8, within(1e-7));
        assertThat(v[1]).isCloseTo(2.0 / 8, within(1e-7));
        assertThat(v[2]).isCloseTo(5.0 / 8, within(1e-7));
    }

    @Test
    void rmsnormOfARow() {
        // mean(x²) = (9 + 16) / 2 = 12.5; eps 0
        Tensor y = tensor(new double[2], 1, 2);
        RmsNorm.golden(Map.of("x", tensor(new double[] {3, 4}, 1, 2), "gamma", tensor(new double[] {1, 2}, 1, 2)),
                Map.of("y", y), 0);
        double r = Math.sqrt(12.5);
        assertThat(y.toDoubleArray()[0]).isCloseTo(3 / r, within(1e-6));
        assertThat(y.toDoubleArray()[1]).isCloseTo(8 / r, within(1e-6));
    }

    @Test
    void causalAttentionOfTwoPositions() {
        // one head, d = 1: row 0 sees key 0 only (o = v0); row 1 weighs keys 0 and 1 by softmax(q1·k·scale)
        Tensor o = tensor(new double[2], 1, 2, 1);
        FlashAttention.golden(Map.of("q", tensor(new double[] {5, 1}, 1, 2, 1),
                "k", tensor(new double[] {0, Math.log(3)}, 1, 2, 1),
                "v", tensor(new double[] {10, 20}, 1, 2, 1)), Map.of("o", o), 1.0);
        // weights ∝ exp(0), exp(ln 3) = 1 : 3
        assertThat(o.toDoubleArray()[0]).isEqualTo(10);
        assertThat(o.toDoubleArray()[1]).isCloseTo((10 * 1 + 20 * 3) / 4.0, within(1e-5));
    }

    @Test
    void vectorAddOfTwoElements() {
        Tensor z = tensor(new double[2], 1, 2);
        VectorAdd.golden(Map.of("x", tensor(new double[] {1.5, -2}, 1, 2), "y", tensor(new double[] {0.25, 2}, 1, 2)),
                Map.of("z", z));
        assertThat(z.toDoubleArray()).containsExactly(1.75, 0);
    }
}
