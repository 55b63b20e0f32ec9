package dev.jpto.tools.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C during a fuzz session (the CLI's interrupt hook interrupts the session's thread): the session stops, the
 * interrupted program is no finding (before, each later program became a false HANG, shrunk, with a reproducer
 * directory left behind), the summary so far is printed marked interrupted, and no scratch directory remains.
 */
@Timeout(120)
class FuzzInterruptTest {
    @TempDir
    Path temp;

    @Test
    void anInterruptStopsTheSessionWithoutFindingsAndLeavesNoDirectories() throws Exception {
        AtomicInteger references = new AtomicInteger();
        // the reference runs on the session's thread: the third program is interrupted, as Ctrl-C would, while
        // it is being prepared, before its chip run
        FuzzRunner.Reference interruptThird = (program, args) -> {
            if (references.incrementAndGet() == 3) {
                Thread.currentThread().interrupt();
            }
            return ReferenceExecutor.run(program, args);
        };
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        Fuzzer.Settings s = Fuzzer.Settings.of(500, 40, Duration.ZERO).withVerbose(true);
        FuzzSummary[] summary = new FuzzSummary[1];
        boolean[] stillInterrupted = new boolean[1];
        Thread session = Thread.ofPlatform().name("fuzz-session").start(() -> {
            summary[0] = Fuzzer.run(s, new PrintStream(buf, true, StandardCharsets.UTF_8), interruptThird, temp);
            stillInterrupted[0] = Thread.currentThread().isInterrupted();
        });
        session.join(Duration.ofSeconds(100));
        String text = buf.toString(StandardCharsets.UTF_8);
        assertThat(session.isAlive()).as(text).isFalse();

        assertThat(summary[0].wasInterrupted()).as(text).isTrue();
        assertThat(summary[0].programs()).as(text).isEqualTo(2);
        assertThat(summary[0].findings()).as(text).isZero();
        assertThat(references.get()).as("no program runs after the interrupt").isEqualTo(3);
        assertThat(stillInterrupted[0]).as("the interrupt status is kept for the caller").isTrue();
        assertThat(text).contains("[FUZZ] seed 500 ").contains("[FUZZ] seed 501 ").doesNotContain("[FUZZ] seed 502 ")
                .contains("[FUZZ] programs=2 passes=")
                .contains("[FUZZ] INTERRUPTED after 2 program(s) (the one running then is not counted): no findings "
                        + "so far")
                .doesNotContain("FINDING").doesNotContain("HANG ").doesNotContain("shrinking")
                .doesNotContain("[FUZZ] PASS");
        try (Stream<Path> left = Files.list(temp)) {
            assertThat(left.toList()).as("scratch and reproducer directories are removed").isEmpty();
        }
    }

    @Test
    void theScratchDirectoryIsNamedAndRemovedAfterAnUninterruptedSession() throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        FuzzSummary summary = Fuzzer.run(Fuzzer.Settings.of(600, 2, Duration.ZERO),
                new PrintStream(buf, true, StandardCharsets.UTF_8), ReferenceExecutor::run, temp);
        String text = buf.toString(StandardCharsets.UTF_8);
        assertThat(summary.wasInterrupted()).isFalse();
        assertThat(summary.programs()).isEqualTo(2);
        assertThat(text).contains("scratch work dirs under " + temp.resolve("jpto-fuzz-")).contains("[FUZZ] PASS");
        try (Stream<Path> left = Files.list(temp)) {
            assertThat(left.toList()).isEmpty();
        }
    }
}
