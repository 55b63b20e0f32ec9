package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class BenchCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = JptoCommand.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void matmulPrintsBothEnginesTheRatioAndThePeak() {
        int code = run("bench", "matmul", "--size", "64", "--tile", "32", "--warmups", "0", "--runs", "1",
                "--ghz", "2.6", "--dtype", "bf16");
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains("matmul bf16 64x64x64", "GFLOP/s  VectorEngine", "GFLOP/s  ScalarEngine",
                "ratio", "bit-identical", "% of the measured single-core FP32 FMA peak", "  nominal ");
        // The peak follows from --ghz and this machine's vector width (8 lanes on AVX2, 16 on AVX-512).
        int lanes = jdk.incubator.vector.FloatVector.SPECIES_PREFERRED.length();
        assertThat(out.toString()).contains(String.format(java.util.Locale.ROOT,
                "%.1f GFLOP/s = 2.60 GHz (--ghz) x 2 FMA units (assumed) x %d fp32 lanes", 2.6 * 2 * lanes * 2, lanes));
    }

    @Test
    void badSizeIsAUsageErrorWithAFix() {
        assertThat(run("bench", "matmul", "--size", "1000", "--ghz", "2.6")).isEqualTo(JptoCommand.EXIT_USAGE);
        assertThat(err.toString()).contains("size must be a positive multiple of the tile edge 128: size=1000 (try 1024)");
    }

    @Test
    void numbersThatAreNotPositiveAreRefusedNamingTheirFlag() {
        assertThat(run("bench", "matmul", "--ghz", "-1")).isEqualTo(JptoCommand.EXIT_USAGE);
        assertThat(err.toString()).contains("jpto bench matmul: --ghz must be a positive clock in GHz: ghz=-1.0"
                + " (try 3.0)");
        assertThat(run("bench", "matmul", "--tile", "0", "--ghz", "2.6")).isEqualTo(JptoCommand.EXIT_USAGE);
        assertThat(err.toString()).contains("jpto bench matmul: tile must be >= 1: tile=0 (try 128)");
        assertThat(run("bench", "matmul", "--size", "-128", "--ghz", "2.6")).isEqualTo(JptoCommand.EXIT_USAGE);
        assertThat(err.toString()).contains("size must be a positive multiple of the tile edge 128: size=-128"
                + " (try 128)");
        assertThat(run("bench", "matmul", "--fma-units", "0", "--ghz", "2.6")).isEqualTo(JptoCommand.EXIT_USAGE);
        assertThat(err.toString()).contains("--fma-units must be >= 1: fma-units=0 (try 2)");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void int8RunsBitExactInOpsPerSecond() {
        int code = run("bench", "matmul", "--size", "64", "--tile", "32", "--warmups", "0", "--runs", "1",
                "--ghz", "2.6", "--dtype", "int8", "--scalar-tiles", "4");
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains("matmul int8 64x64x64", "each int32 C tile", "GOP/s  VectorEngine",
                "GOP/s  ScalarEngine", "the C tiles both engines computed are bit-identical");
    }

    @Test
    void unknownBaselineIsAUsageError() {
        assertThat(run("bench", "matmul", "--baseline", "mkl", "--ghz", "2.6")).isEqualTo(JptoCommand.EXIT_USAGE);
        assertThat(err.toString()).contains("--baseline must be numpy: baseline=mkl (try --baseline numpy)");
    }

    @Test
    void aMissingPythonStillPrintsJptosFigures() {
        int code = run("bench", "matmul", "--size", "64", "--tile", "32", "--warmups", "0", "--runs", "1",
                "--ghz", "2.6", "--baseline", "numpy", "--python", "/nonexistent/python3");
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains("GFLOP/s  VectorEngine", "bit-identical",
                "  numpy   no baseline: /nonexistent/python3 could not be started (");
    }

    @Test
    void unknownDtypeListsTheValidOnes() {
        assertThat(run("bench", "matmul", "--dtype", "fp8", "--ghz", "2.6")).isEqualTo(JptoCommand.EXIT_USAGE);
        assertThat(err.toString()).contains("unknown dtype 'fp8'; valid:");
    }

    @Test
    void runtimeRunsOnlyTheNamedShapes() {
        int code = run("bench", "runtime", "--shape", "chain", "--tasks", "256", "--block", "64", "--warmups", "1",
                "--warmup-seconds", "0", "--runs", "2", "--threads", "2");
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains(">= 1 warm-ups and >= 0.0 s per shape", "  chain ")
                .doesNotContain("independent", "dag2");
    }

    @Test
    void runtimeRejectsAnUnknownShapeNamingTheValidOnes() {
        assertThat(run("bench", "runtime", "--shape", "tree")).isEqualTo(JptoCommand.EXIT_USAGE);
        assertThat(err.toString()).contains("--shape tree is not a shape; use independent, chain or dag2");
    }
}
