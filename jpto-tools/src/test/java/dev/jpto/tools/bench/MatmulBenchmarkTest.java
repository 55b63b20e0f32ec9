package dev.jpto.tools.bench;

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
        String report = String.join("\n", r.lines());
        assertThat(report).contains("vector", "scalar", "ratio", "160.0 GFLOP/s = 2.50 GHz",
                "% of the measured single-core FP32 FMA peak");
        // the headline percentage is of the measured FMA loop, the nominal one only follows it
        assertThat(report).contains(String.format(java.util.Locale.ROOT, "  vector  %.1f %% of the measured",
                r.percentOfProbe()));
        assertThat(report.indexOf("  peak    " + String.format(java.util.Locale.ROOT, "%.1f", r.fmaProbeGflops())))
                .isPositive().isLessThan(report.indexOf("  nominal 160.0 GFLOP/s"));
    }

    @Test
    void int8MatmulIsBitExactAgainstTheScalarEngineAndAnIntegerReference() {
        CpuPeak peak = CpuPeak.of(2.5, 2, 16);
        // 4 of 4 C tiles on the scalar engine: the whole product is compared bit for bit
        MatmulBenchmark.Result r = MatmulBenchmark.run(new MatmulBenchmark.Options(64, DType.INT8, 32, 0, 1, 4, peak));
        assertThat(r.agree()).isTrue();
        assertThat(r.scalar().cTiles()).isEqualTo(4);
        assertThat(String.join("\n", r.lines())).contains("matmul int8 64x64x64", "each int32 C tile", "GOP/s",
                "bit-identical", "(int8 multiply-adds against fp32 FMAs)");
        try (Arena arena = Arena.ofConfined()) {
            int n = 48;
            Random rnd = new Random(5);
            Tensor a = Tensor.allocate(arena, DType.INT8, n, n);
            Tensor b = Tensor.allocate(arena, DType.INT8, n, n);
            for (long i = 0; i < a.numel(); i++) {
                a.setDouble(i, rnd.nextInt(256) - 128);
                b.setDouble(i, rnd.nextInt(256) - 128);
            }
            Tensor c = Tensor.allocate(arena, DType.INT32, n, n);
            TiledMatmul m = new TiledMatmul(new VectorEngine(), a, b, c, 16);
            m.run(m.cTiles());
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    long s = 0;
                    for (int k = 0; k < n; k++) {
                        s += (long) a.getDouble((long) i * n + k) * (long) b.getDouble((long) k * n + j);
                    }
                    assertThat(c.getDouble((long) i * n + j)).isEqualTo(s);
                }
            }
        }
    }

    @Test
    void ratiosKeepTheirDigits() {
        assertThat(Ratios.text(0.35)).isEqualTo("0.35x");
        assertThat(Ratios.text(0.0123)).isEqualTo("0.0123x");
        assertThat(Ratios.text(1.0)).isEqualTo("1.00x");
        assertThat(Ratios.text(67.34)).isEqualTo("67.3x");
        assertThat(Ratios.text(1234.4)).isEqualTo("1234x");
    }

    @Test
    void peakIsClockTimesUnitsTimesLanesTimesTwo() {
        assertThat(CpuPeak.of(2.6, 2, 16).gflops()).isEqualTo(166.4, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void peakRefusesAClockOrUnitCountThatIsNotPositive() {
        assertThatThrownBy(() -> CpuPeak.of(-1, 2, 16)).hasMessage("--ghz must be a positive clock in GHz: ghz=-1.0"
                + " (try 3.0)");
        assertThatThrownBy(() -> CpuPeak.of(Double.NaN, 2, 16)).hasMessageStartingWith("--ghz must be a positive");
        assertThatThrownBy(() -> CpuPeak.of(Double.POSITIVE_INFINITY, 2, 16))
                .hasMessageStartingWith("--ghz must be a positive");
        assertThatThrownBy(() -> CpuPeak.of(3, 0, 16)).hasMessage("--fma-units must be >= 1: fma-units=0 (try 2)");
    }

    @Test
    void badOptionsSayWhatToChange() {
        CpuPeak peak = CpuPeak.of(2.6, 2, 16);
        assertThatThrownBy(() -> new MatmulBenchmark.Options(1000, DType.FP32, 128, 1, 1, 1, peak))
                .hasMessage("size must be a positive multiple of the tile edge 128: size=1000 (try 1024)");
        assertThatThrownBy(() -> new MatmulBenchmark.Options(256, DType.INT16, 128, 1, 1, 1, peak))
                .hasMessage("dtype must be fp32, bf16, fp16 or int8 for the matmul benchmark: dtype=int16 (try fp32)");
        assertThatThrownBy(() -> new MatmulBenchmark.Options(256, DType.FP32, 0, 1, 1, 1, peak))
                .hasMessage("tile must be >= 1: tile=0 (try 128)");
        assertThatThrownBy(() -> new MatmulBenchmark.Options(-128, DType.FP32, 128, 1, 1, 1, peak))
                .hasMessage("size must be a positive multiple of the tile edge 128: size=-128 (try 128)");
        assertThatThrownBy(() -> new MatmulBenchmark.Options(-300, DType.FP32, 128, 1, 1, 1, peak))
                .hasMessage("size must be a positive multiple of the tile edge 128: size=-300 (try 384)");
        assertThatThrownBy(() -> new MatmulBenchmark.Options(0, DType.FP32, 64, 1, 1, 1, peak))
                .hasMessage("size must be a positive multiple of the tile edge 64: size=0 (try 64)");
        assertThatThrownBy(() -> new MatmulBenchmark.Options(1 << 20, DType.FP32, 128, 1, 1, 1, peak))
                .hasMessage("size must be at most 16384 (4 tensors of size x size): size=1048576 would take"
                        + " 16384.0 GiB (try 4096)");
        assertThatThrownBy(() -> new MatmulBenchmark.Options(256, DType.FP32, 128, 1, 1, 5, peak))
                .hasMessageContaining("scalar tiles must be at most the 4 C tiles");
    }
}
