package dev.jpto.isa.engine;

import static dev.jpto.isa.engine.Tiles.of;
import static dev.jpto.isa.engine.Tiles.values;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tile;
import org.junit.jupiter.api.Test;

/** The golden contract on the Vector API engine (transcendentals within 1 ulp, as documented on VectorEngine). */
class VectorEngineTest extends TileEngineContract {
    @Override
    protected TileEngine engine() {
        return new VectorEngine();
    }

    @Override
    protected int transcendentalUlps() {
        return 1;
    }

    @Test
    void matmulOfTwoFullBlocksPlusEdges() {
        // 9×33 · 33×33 of small integers: exact in fp32, so the naive sum is the expectation
        int m = 9;
        int k = 33;
        int n = 33;
        double[] av = new double[m * k];
        double[] bv = new double[k * n];
        for (int i = 0; i < av.length; i++) {
            av[i] = (i * 7) % 5 - 2;
        }
        for (int i = 0; i < bv.length; i++) {
            bv[i] = (i * 3) % 7 - 3;
        }
        Tile a = of(DType.BF16, m, k, av);
        Tile b = of(DType.BF16, k, n, bv);
        Tile c = Tile.allocate(DType.FP32, m, n);
        e.matmul(c, a, b, false, false);
        double[] got = values(c);
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                double s = 0;
                for (int p = 0; p < k; p++) {
                    s += av[i * k + p] * bv[p * n + j];
                }
                assertThat(got[i * n + j]).as("c[%d][%d]", i, j).isEqualTo(s);
            }
        }
    }
}
