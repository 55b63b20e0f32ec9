package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.sweep.SweepProgress;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The sweep's bar on a terminal, and plain lines elsewhere (issue 27: done/failed/remaining and an ETA). */
class SweepBarTest {
    private final ByteArrayOutputStream outBuf = new ByteArrayOutputStream();
    private final ByteArrayOutputStream barBuf = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(outBuf, true, StandardCharsets.UTF_8);
    private final PrintStream bar = new PrintStream(barBuf, true, StandardCharsets.UTF_8);

    @Test
    void theBarCountsDoneFailedRemainingAndTheEta() {
        assertThat(SweepBar.text(new SweepProgress.Tally(12, 1, 36, 185))).isEqualTo(
                "[SWEEP] [##########....................] 12/36 done, 1 failed, 24 remaining, ETA 3m05s");
        assertThat(SweepBar.text(new SweepProgress.Tally(36, 0, 36, 0))).isEqualTo(
                "[SWEEP] [##############################] 36/36 done, 0 failed, 0 remaining");
    }

    @Test
    void theBarIsRedrawnOnItsStreamAndAnUnexpectedCaseGetsALineOfItsOwn() {
        SweepBar b = new SweepBar(out, bar, false);
        b.result(new SweepProgress.Tally(1, 0, 2, 4), "basic.vector_add/tiny a2a3sim seed=0 PASS", true);
        assertThat(outBuf.toString(StandardCharsets.UTF_8)).isEmpty(); // an expected case only moves the bar
        b.result(new SweepProgress.Tally(2, 1, 2, 0), "basic.matmul/tiny HEAP_RING_DEADLOCK (expected PASS)", false);
        b.end();
        assertThat(outBuf.toString(StandardCharsets.UTF_8)).isEqualTo(
                "[SWEEP] UNEXPECTED basic.matmul/tiny HEAP_RING_DEADLOCK (expected PASS)" + System.lineSeparator());
        String drawn = barBuf.toString(StandardCharsets.UTF_8);
        assertThat(drawn).startsWith("\r[SWEEP] [###############...............] 1/2 done, 0 failed, 1 remaining, "
                + "ETA 4s").contains("\r[SWEEP] [##############################] 2/2 done, 1 failed, 0 remaining")
                .endsWith("\r").doesNotContain("\n");
    }

    @Test
    void withoutATerminalEachResultIsAPlainLine() {
        SweepProgress p = SweepBar.forTerminal(out, bar, Map.of());
        assertThat(p).isNotInstanceOf(SweepBar.class); // a test's stream is not the terminal
        p.result(new SweepProgress.Tally(3, 1, 8, 12), "basic.matmul/tiny ring_heap=1024 a2a3sim seed=0 PASS", true);
        assertThat(outBuf.toString(StandardCharsets.UTF_8)).isEqualTo("[SWEEP] 3/8 done, 1 failed, 5 remaining, "
                + "ETA 12 s: basic.matmul/tiny ring_heap=1024 a2a3sim seed=0 PASS" + System.lineSeparator());
        assertThat(barBuf.toString(StandardCharsets.UTF_8)).isEmpty();
    }
}
