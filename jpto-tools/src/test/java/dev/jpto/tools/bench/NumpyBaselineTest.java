package dev.jpto.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class NumpyBaselineTest {
    @Test
    void parsesTheScriptsFiguresLine() {
        String out = "some warning\njpto-numpy numpy=2.4.6 core=OpenBLAS-SkylakeX best_cpu=0.012500000"
                + " best_wall=0.013000000 median_wall=0.014000000\n";
        NumpyBaseline.Outcome o = NumpyBaseline.parse(out, 0, 1024);
        assertThat(o).isInstanceOf(NumpyBaseline.Measured.class);
        NumpyBaseline.Measured m = (NumpyBaseline.Measured) o;
        assertThat(m.numpyVersion()).isEqualTo("2.4.6");
        assertThat(m.core()).isEqualTo("OpenBLAS-SkylakeX");
        // 2 · 1024³ FLOP in 12.5 ms
        assertThat(m.gflops()).isCloseTo(171.798691842, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(String.join("\n", NumpyBaseline.lines(m, "fp32", 85.9, "GFLOP/s")))
                .contains("171.80 GFLOP/s  numpy 2.4.6 float32 matmul 1024x1024x1024 (OpenBLAS-SkylakeX, 1 thread)",
                        "vs numpy 0.50x  jpto vector GFLOP/s / numpy GFLOP/s")
                .doesNotContain("has no");
        assertThat(String.join("\n", NumpyBaseline.lines(m, "int8", 171.8, "GOP/s")))
                .contains("numpy has no int8 matmul kernel, so its fp32 one", "vs numpy 1.00x  jpto vector GOP/s");
    }

    @Test
    void saysWhyThereIsNoFigure() {
        assertThat(NumpyBaseline.parse("jpto-numpy missing No module named 'numpy'\n", 0, 64))
                .isEqualTo(new NumpyBaseline.Unavailable("numpy is not installed for this python (No module named"
                        + " 'numpy')"));
        assertThat(NumpyBaseline.parse("Traceback ...\nMemoryError\n", 1, 64))
                .isEqualTo(new NumpyBaseline.Unavailable("python exited with 1 and no figures: MemoryError"));
        assertThat(NumpyBaseline.parse("jpto-numpy numpy=2 core=x best_cpu=zero best_wall=1 median_wall=1", 0, 64))
                .isEqualTo(new NumpyBaseline.Unavailable("numpy's output line is not understood: jpto-numpy numpy=2"
                        + " core=x best_cpu=zero best_wall=1 median_wall=1"));
        assertThat(NumpyBaseline.parse("jpto-numpy numpy=2 core=x best_cpu=0 best_wall=1 median_wall=1", 0, 64))
                .isInstanceOf(NumpyBaseline.Unavailable.class);
        assertThat(NumpyBaseline.lines(new NumpyBaseline.Unavailable("why"), "fp32", 1, "GFLOP/s"))
                .containsExactly("  numpy   no baseline: why");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aMissingPythonIsReportedNotThrown() {
        NumpyBaseline.Outcome o = new NumpyBaseline("/nonexistent/python3", Duration.ofSeconds(30)).run(32, 0, 1);
        assertThat(o).isInstanceOf(NumpyBaseline.Unavailable.class);
        assertThat(((NumpyBaseline.Unavailable) o).reason())
                .startsWith("/nonexistent/python3 could not be started (")
                .endsWith("); install python3 with numpy or pass --python");
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void runsNumpyOnATinyShapeWhenItIsInstalled() throws Exception {
        Assumptions.assumeTrue(numpyInstalled(), "python3 with numpy is not installed here");
        NumpyBaseline.Outcome o = new NumpyBaseline("python3", Duration.ofSeconds(100)).run(64, 1, 3);
        assertThat(o).isInstanceOf(NumpyBaseline.Measured.class);
        NumpyBaseline.Measured m = (NumpyBaseline.Measured) o;
        assertThat(m.size()).isEqualTo(64);
        assertThat(m.numpyVersion()).matches("\\d+\\.\\d+.*");
        assertThat(m.bestCpuSeconds()).isPositive();
        assertThat(m.bestSeconds()).isPositive().isLessThanOrEqualTo(m.medianSeconds());
    }

    private static boolean numpyInstalled() throws InterruptedException {
        try {
            Process p = new ProcessBuilder("python3", "-c", "import numpy").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return false;
            }
            return p.exitValue() == 0;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    @Test
    void timeoutGrowsWithTheWork() {
        assertThat(NumpyBaseline.timeoutFor(64, 0, 1)).isEqualTo(Duration.ofSeconds(61));
        // 2 · 1024³ · 25 FLOP at 1 GFLOP/s = 53.7 s
        assertThat(NumpyBaseline.timeoutFor(1024, 5, 20)).isEqualTo(Duration.ofSeconds(114));
    }
}
