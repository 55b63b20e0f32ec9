package dev.jpto.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SweepCompareTest {
    @TempDir
    Path tmp;

    private final ByteArrayOutputStream log = new ByteArrayOutputStream();

    private static CaseResult result(String id, long seed, String outcome, String code, long millis,
                                     double effectiveUs) {
        return new CaseResult(id, "basic.matmul", "tiny", Map.of("ring_heap", "1024"), "a2a3sim", seed, "PASS",
                outcome, outcome.equals("PASS") ? 0 : 3, code, "", List.of(), Map.of("compile", 1L, "runtime",
                millis - 1), effectiveUs, -1, List.of(), List.of(), "m");
    }

    private Path run(String name, CaseResult... results) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve(name));
        ResultsFile file = ResultsFile.open(dir);
        for (CaseResult r : results) {
            file.append(r);
        }
        return dir;
    }

    private int compare(double threshold, Path oldRun, Path newRun) {
        return new SweepCompare(new PrintStream(log, true, StandardCharsets.UTF_8), threshold).compare(oldRun, newRun);
    }

    private String log() {
        return log.toString(StandardCharsets.UTF_8);
    }

    @Test
    void statusChangesAndRegressionsBeyondTheThresholdAreListedAndMakeExit1() throws IOException {
        Path before = run("old", result("a", 0, "PASS", "", 10, -1), result("b", 1, "PASS", "", 3, -1),
                result("c", 2, "PASS", "", 100, -1), result("d", 3, "PASS", "", 50, 100.0),
                result("e", 4, "PASS", "", 50, 100.0), result("gone", 5, "PASS", "", 5, -1));
        Path after = run("new", result("a", 0, "ERROR", "HEAP_RING_DEADLOCK", 10, -1),
                result("b", 1, "PASS", "", 4, -1), // +33 %, but 1 ms is the resolution
                result("c", 2, "PASS", "", 130, -1), // +30 % of the stage time
                result("d", 3, "PASS", "", 90, 125.0), // +25 % benchmark median
                result("e", 4, "PASS", "", 90, 115.0), // +15 %: below 20 %, the stage time is not looked at
                result("new", 6, "PASS", "", 5, -1));
        assertThat(compare(20, before, after)).as(log()).isEqualTo(1);
        assertThat(log().lines().toList()).containsExactly(
                "[COMPARE] OLD " + before + ": 6 result(s); NEW " + after + ": 6 result(s); 5 case(s) in both",
                "[COMPARE] STATUS basic.matmul/tiny ring_heap=1024 a2a3sim seed=0: PASS -> HEAP_RING_DEADLOCK",
                "[COMPARE] SLOWER basic.matmul/tiny ring_heap=1024 a2a3sim seed=2: time_ms 100.0 -> 130.0 (+30%)",
                "[COMPARE] SLOWER basic.matmul/tiny ring_heap=1024 a2a3sim seed=3: effective_us 100.0 -> 125.0 (+25%)",
                "[COMPARE] not compared: 1 case(s) only in OLD, 1 only in NEW",
                "[COMPARE] 1 status change(s), 2 slower by more than 20%");
    }

    @Test
    void theSameResultsCompareCleanWithExit0AndAResultsFileMayBeNamed() throws IOException {
        Path before = run("old", result("a", 0, "PASS", "", 10, 100.0));
        Path after = run("new", result("a", 0, "PASS", "", 40, 105.0));
        assertThat(compare(10, before, after.resolve("results.jsonl"))).as(log()).isZero();
        assertThat(log()).endsWith("[COMPARE] 0 status change(s), 0 slower by more than 10%" + System.lineSeparator());
    }

    @Test
    void aDirectoryWithoutResultsOrABadThresholdIsRefused() throws IOException {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        Path before = run("old", result("a", 0, "PASS", "", 10, -1));
        assertThatThrownBy(() -> compare(10, before, empty)).isInstanceOf(SweepFileException.class)
                .hasMessage("NEW " + empty + ": no results.jsonl there; give a sweep's --out directory");
        Path other = Files.writeString(before.resolve("summary.md"), "# Sweep summary\n");
        assertThatThrownBy(() -> compare(10, other, before))
                .isInstanceOf(SweepFileException.class).hasMessageContaining("give a sweep's --out directory");
        assertThatThrownBy(() -> compare(0, before, before)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--threshold must be a percentage above 0: --threshold 0.0 (try 10)");
    }
}
