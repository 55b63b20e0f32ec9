package dev.jpto.lib.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ProgressTest {
    @Test
    void plainLinesAtEveryTenthButNotTheLastStep() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        Progress p = Progress.lines(new PrintStream(buf, true, StandardCharsets.UTF_8));
        p.begin("benchmark round", 100);
        for (int i = 1; i <= 100; i++) {
            p.advance(i);
        }
        p.end();
        assertThat(buf.toString(StandardCharsets.UTF_8).lines().toList()).containsExactly(
                "[RUN] benchmark round 10/100", "[RUN] benchmark round 20/100", "[RUN] benchmark round 30/100",
                "[RUN] benchmark round 40/100", "[RUN] benchmark round 50/100", "[RUN] benchmark round 60/100",
                "[RUN] benchmark round 70/100", "[RUN] benchmark round 80/100", "[RUN] benchmark round 90/100");
    }

    @Test
    void fewRoundsPrintOneLineEach() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        Progress p = Progress.lines(new PrintStream(buf, true, StandardCharsets.UTF_8));
        p.begin("benchmark round", 3);
        p.advance(1);
        p.advance(2);
        p.advance(3);
        assertThat(buf.toString(StandardCharsets.UTF_8).lines().toList())
                .containsExactly("[RUN] benchmark round 1/3", "[RUN] benchmark round 2/3");
    }
}
