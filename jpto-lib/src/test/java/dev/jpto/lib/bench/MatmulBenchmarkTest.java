package dev.jpto.lib.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.isa.engine.VectorEngine;
import java.lang.foreign.Arena;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MatmulBenchmarkTest {
    @Test
    void tiledMatmulComputesTheProductOfTheTensors() {
        try (Arena arena = Arena.ofConfined()) {
            int n = 64;
            Random rnd = new Random(3);
            Tensor a = Tensor.allocate(arena, DType.BF16, n, n);
            Tensor b = Tensor.allocate(arena, DType.BF16, n, n);
            for (long i = 0; i < a.numel(); i++) {
                a.setDouble(i, rnd.nextInt(9) - 4);
                b.setDouble(i, rnd.nextInt(9) - 4);
            }
            Tensor c = Tensor.allocate(arena, DType.FP32, n, n);
            TiledMatmul m = new TiledMatmul(new VectorEngine(), a, b, c, 16);
            m.run(m.cTiles());
            // small integers: every partial sum is exact in fp32, so the naive product is the expectation
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    double s = 0;
                    for (int k = 0; k < n; k++) {
                        s += a.getDouble((long) i * n + k) * b.getDouble((long) k * n + j);
                    }
                    assertThat(c.getDouble((long) i * n + j)).isEqualTo(s);
                }
            }
            assertThat(m.flops(m.cTiles())).isEqualTo(2L * n * n * n);
        }
    }

    @Test
    void benchmarkReportsBothEnginesAndThePeak() {
        CpuPeak peak = CpuPeak.of(2.5, 2, 16);
        MatmulBenchmark.Result r = MatmulBenchmark.run(new MatmulBenchmark.Options(64, DType.FP32, 32, 0, 1, 1, peak));
        assertThat(r.agree()).isTrue();
        assertThat(r.vector().cTiles()).isEqualTo(4);
        assertThat(r.scalar().cTiles()).isEqualTo(1);
        assertThat(r.scalar().flops()).isEqualTo(2L * 32 * 32 * 64);
        assertThat(r.vector().gflops()).isPositive();
        assertThat(String.join("\n", r.lines())).contains("vector", "scalar", "ratio", "160.0 GFLOP/s = 2.50 GHz");
    }

    @Test
    void peakIsClockTimesUnitsTimesLanesTimesTwo() {
        assertThat(CpuPeak.of(2.6, 2, 16).gflops()).isEqualTo(166.4, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void badOptionsSayWhatToChange() {
        CpuPeak peak = CpuPeak.of(2.6, 2, 16);
        assertThatThrownBy(() -> new MatmulBenchmark.Options(1000, DType.FP32, 128, 1, 1, 1, peak))
                .hasMessage("size must be a positive multiple of the tile edge 128: size=1000 (try 1024)");
        assertThatThrownBy(() -> new MatmulBenchmark.Options(256, DType.INT8, 128, 1, 1, 1, peak))
                .hasMessage("dtype must be fp32, bf16 or fp16 for the matmul benchmark: dtype=int8 (try fp32)");
        assertThatThrownBy(() -> new MatmulBenchmark.Options(256, DType.FP32, 128, 1, 1, 5, peak))
                .hasMessageContaining("scalar tiles must be at most the 4 C tiles");
    }
}
