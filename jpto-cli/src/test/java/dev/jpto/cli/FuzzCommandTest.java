package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code jpto fuzz}: a bounded session prints its summary and exits 0; a session without a bound is a usage error. */
class FuzzCommandTest {
    private final ByteArrayOutputStream outBuf = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBuf = new ByteArrayOutputStream();

    private int jpto(String... args) {
        return Main.run(new PrintStream(outBuf, true, StandardCharsets.UTF_8),
                new PrintStream(errBuf, true, StandardCharsets.UTF_8), args);
    }

    private String out() {
        return outBuf.toString(StandardCharsets.UTF_8);
    }

    @Test
    void countRunsThatManyProgramsAndSummarises() {
        assertThat(jpto("fuzz", "--count", "6", "--seed", "42", "--verbose")).as(out() + errBuf).isZero();
        assertThat(out()).contains("[FUZZ] seed=42 count=6")
                .contains("[FUZZ] seed 42 ").contains("[FUZZ] seed 47 ").doesNotContain("[FUZZ] seed 48 ")
                .contains("[FUZZ] programs=6 passes=").contains("hangs=0 wrong_results=0 unexpected_errors=0")
                .contains("[FUZZ] error codes: ").contains("[FUZZ] PASS: no findings");
    }

    @Test
    void aSessionNeedsABound() {
        assertThat(jpto("fuzz", "--seed", "3")).isEqualTo(2);
        assertThat(errBuf.toString(StandardCharsets.UTF_8))
                .contains("give --seconds N or --count K").contains("jpto fuzz --seed 3 --count 1");
    }

    @Test
    void negativeBoundsAreUsageErrors() {
        assertThat(jpto("fuzz", "--count", "-1")).isEqualTo(2);
        assertThat(errBuf.toString(StandardCharsets.UTF_8)).contains("--count=-1");
        assertThat(jpto("fuzz", "--count", "1", "--deadline", "0")).isEqualTo(2);
        assertThat(jpto("fuzz", "--count", "x")).isEqualTo(2);
    }
}
