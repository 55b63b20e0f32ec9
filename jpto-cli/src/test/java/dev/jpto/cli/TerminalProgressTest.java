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
}
