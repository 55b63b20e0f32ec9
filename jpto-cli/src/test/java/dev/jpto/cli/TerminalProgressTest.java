package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TerminalProgressTest {
    @Test
    void drawsTheBarInPlaceAndClearsItAtTheEnd() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        TerminalProgress p = new TerminalProgress(new PrintStream(buf, true, StandardCharsets.UTF_8));
        p.begin("benchmark round", 4);
        p.advance(4);
        String drawn = buf.toString(StandardCharsets.UTF_8);
        assertThat(drawn).doesNotContain("\n")
                .contains("\r[RUN] benchmark round [" + ".".repeat(30) + "] 0/4")
                .endsWith("\r[RUN] benchmark round [" + "#".repeat(30) + "] 4/4");
        p.end();
        assertThat(buf.toString(StandardCharsets.UTF_8)).endsWith("\r").doesNotContain("\n");
    }

    @Test
    void showsTheRunningStageUntilItIsCleared() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        TerminalProgress p = new TerminalProgress(new PrintStream(buf, true, StandardCharsets.UTF_8));
        p.stage("compute golden");
        assertThat(buf.toString(StandardCharsets.UTF_8)).isEqualTo("\r[RUN] compute golden …");
        p.end();
        String all = buf.toString(StandardCharsets.UTF_8);
        assertThat(all).endsWith("\r").matches("(?s)\r\\[RUN\\] compute golden …\r +\r");
        p.end();
        assertThat(buf.toString(StandardCharsets.UTF_8)).isEqualTo(all);
    }

    @Test
    void theBarShowsAnEtaFromTheStepsSoFarAndColourOnlyWhenAsked() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        long[] now = {0};
        TerminalProgress p = new TerminalProgress(new PrintStream(buf, true, StandardCharsets.UTF_8), true, false,
                () -> now[0]);
        p.begin("benchmark round", 10);
        now[0] = 8_000_000_000L; // 2 rounds in 8 s: 8 more take 32 s
        p.advance(2);
        assertThat(buf.toString(StandardCharsets.UTF_8))
                .endsWith("\r[RUN] benchmark round [\u001b[36m" + "#".repeat(6) + "\u001b[0m" + ".".repeat(24)
                        + "] 2/10 ETA 32s");
        now[0] = 40_000_000_000L;
        p.advance(10);
        assertThat(buf.toString(StandardCharsets.UTF_8)).endsWith("] 10/10" + " ".repeat(7)); // over " ETA 32s"
        p.end();

        ByteArrayOutputStream plain = new ByteArrayOutputStream();
        TerminalProgress q = new TerminalProgress(new PrintStream(plain, true, StandardCharsets.UTF_8), false, false,
                () -> now[0]);
        q.begin("benchmark round", 200);
        now[0] += 90_000_000_000L; // 1 round in 90 s: 199 more take 5h
        q.advance(1);
        assertThat(plain.toString(StandardCharsets.UTF_8)).doesNotContain("\u001b").endsWith("] 1/200 ETA 298m30s");
    }

    @Test
    void aLongStageShowsItsElapsedTimeWhenRedrawn() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        long[] now = {0};
        TerminalProgress p = new TerminalProgress(new PrintStream(buf, true, StandardCharsets.UTF_8), false, false,
                () -> now[0]);
        p.stage("generate inputs");
        now[0] = 37_400_000_000L;
        p.stage("compute golden"); // a shorter line pads over the longer one before it
        now[0] += 2_000_000_000L;
        p.advance(0); // no counted steps: a redraw like the ticker's
        assertThat(buf.toString(StandardCharsets.UTF_8)).startsWith("\r[RUN] generate inputs …\r[RUN] compute golden …")
                .endsWith("\r[RUN] compute golden … 2s");
    }

    @Test
    void anythingButTheTerminalGetsPlainLines() {
        PrintStream notTheTerminal = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        assertThat(TerminalProgress.forTerminal(notTheTerminal, notTheTerminal, java.util.Map.of()))
                .isNotInstanceOf(TerminalProgress.class);
        assertThat(TerminalProgress.forTerminal(System.out, System.err, java.util.Map.of("CI", "true")))
                .isNotInstanceOf(TerminalProgress.class);
    }

    @Test
    void inputGenerationCountsBytesWithAnEta() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        long[] now = {0};
        long[] filled = {0};
        TerminalProgress p = new TerminalProgress(new PrintStream(buf, true, StandardCharsets.UTF_8), false, false,
                () -> now[0]);
        p.stage("generate inputs");
        p.counting("generate inputs", () -> filled[0], () -> 4L << 20, dev.jpto.lib.runner.Progress.BYTES);
        now[0] = 3_000_000_000L; // 1 MiB of 4 in 3 s: 3 MiB more take 9 s
        filled[0] = 1L << 20;
        p.advance(0); // a redraw, as the ticker's
        assertThat(buf.toString(StandardCharsets.UTF_8)).endsWith("\r[RUN] generate inputs [" + "#".repeat(7)
                + ".".repeat(23) + "] 1MiB/4MiB ETA 9s");
        p.end();
    }

    @Test
    void aChipRunCountsTasksCompletedOfThoseSubmittedSoFar() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        long[] now = {0};
        long[] completed = {0};
        long[] submitted = {40};
        TerminalProgress p = new TerminalProgress(new PrintStream(buf, true, StandardCharsets.UTF_8), false, false,
                () -> now[0]);
        p.counting("runtime", () -> completed[0], () -> submitted[0], dev.jpto.lib.runner.Progress.TASKS);
        completed[0] = 10;
        now[0] = 500_000_000L; // redraws are at most every 100 ms
        p.advance(0);
        assertThat(buf.toString(StandardCharsets.UTF_8)).endsWith("\r[RUN] runtime [" + "#".repeat(7)
                + ".".repeat(23) + "] 10/40 tasks (submitted so far)");
        submitted[0] = 60; // the orchestration went on submitting
        completed[0] = 30;
        now[0] = 2_000_000_000L;
        p.advance(0);
        assertThat(buf.toString(StandardCharsets.UTF_8)).endsWith("] 30/60 tasks (submitted so far) 2s");
        p.end();
        assertThat(buf.toString(StandardCharsets.UTF_8)).endsWith("\r").doesNotContain("\n");
    }
}
