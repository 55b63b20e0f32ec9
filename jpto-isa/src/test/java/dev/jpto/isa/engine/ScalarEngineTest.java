package dev.jpto.isa.engine;

import static dev.jpto.isa.engine.Tiles.of;
import static dev.jpto.isa.engine.Tiles.values;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tile;
import dev.jpto.isa.op.Fn;
import org.junit.jupiter.api.Test;

/** The contract on the reference engine, plus the evaluation orders only the reference promises. */
class ScalarEngineTest extends TileEngineContract {
    @Override
    protected TileEngine engine() {
        return new ScalarEngine();
    }

    @Test
    void sumAccumulatesSequentiallyInFp32() {
        // 1e8 + 1 + 1 loses both ones in fp32 (ulp(1e8) = 8); -1e8 at the end gives 0, not 2
        Tile seq = of(DType.FP32, 1, 4, 1e8, 1, 1, -1e8);
        Tile s = Tile.allocate(DType.FP32, 1, 1);
        e.reduce(Fn.Reduce.SUM, Fn.Axis.ROWS, s, seq);
        assertThat(values(s)).containsExactly(0);
        Tile c = Tile.allocate(DType.FP32, 1, 4);
        e.cumSum(c, seq);
        assertThat(values(c)).containsExactly(1e8, 1e8, 1e8, 0);
    }

    @Test
    void matmulUsesOneFusedMultiplyAddPerStep() {
        // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24; minus (1 + 2^-11): an fma keeps 2^-24, separate mul+add loses it
        double x = 1 + 0x1p-12;
        Tile a = of(DType.FP32, 1, 2, -(1 + 0x1p-11), x);
        Tile b = of(DType.FP32, 2, 1, 1, x);
        Tile c = Tile.allocate(DType.FP32, 1, 1);
        e.matmul(c, a, b, false, false);
        assertThat(values(c)).containsExactly(0x1p-24);
    }
}
