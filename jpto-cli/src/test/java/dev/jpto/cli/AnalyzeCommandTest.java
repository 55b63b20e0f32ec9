package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code jpto analyze}: its numbers against ones computed here from the run's files by other means. */
@Timeout(300)
class AnalyzeCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final CliSession CLI = new CliSession();

    @TempDir
    static Path tmp;
    private static Path dir;
    private static List<String> lines;

    @BeforeAll
    static void runAndAnalyze() {
        dir = tmp.resolve("run");
        assertThat(CLI.run("run", "basic.matmul", "--preset", "tiny", "--output-dir", dir.toString(), "--report"))
                .as(CLI.err()).isZero();
        assertThat(CLI.run("analyze", dir.toString())).as(CLI.err()).isZero();
        lines = CLI.out().lines().toList();
    }

    @Test
    void theCriticalPathIsTheLongestChainByBruteForce() throws Exception {
        Map<String, Double> dur = new HashMap<>();
        double first = Double.MAX_VALUE;
        double last = 0;
        for (JsonNode e : JSON.readTree(dir.resolve("chip_swimlane.json").toFile()).get("traceEvents")) {
            if (e.path("cat").asText().equals("task")) {
                dur.put(e.get("args").get("task_id_raw").asText(), e.get("dur").asDouble());
                first = Math.min(first, e.get("ts").asDouble());
                last = Math.max(last, e.get("ts").asDouble() + e.get("dur").asDouble());
            }
        }
        Map<String, List<String>> succ = new HashMap<>();
        for (JsonNode e : JSON.readTree(dir.resolve("deps.json").toFile()).get("edges")) {
            succ.computeIfAbsent(e.get("pred").asText(), k -> new ArrayList<>()).add(e.get("succ").asText());
        }
        double longest = 0;
        for (String start : dur.keySet()) {
            longest = Math.max(longest, longestFrom(start, dur, succ));
        }
        String line = line("critical path (host)");
        assertThat(number(line, "tasks, ([0-9.]+) us")).isCloseTo(longest, Offset.offset(0.1));
        assertThat(number(line, "of the ([0-9.]+) us")).isCloseTo(last - first, Offset.offset(0.1));
        assertThat(line("critical path (device (estimated))")).isNotNull();
    }

    @Test
    void schedulerThreadsAreBusyForTheTasksTimeAndEveryMicrosecondIsCounted() throws Exception {
        double busy = 0;
        double first = Double.MAX_VALUE;
        double last = 0;
        java.util.Set<Integer> threads = new java.util.HashSet<>();
        for (JsonNode e : JSON.readTree(dir.resolve("chip_swimlane.json").toFile()).get("traceEvents")) {
            if (e.path("cat").asText().equals("task")) {
                busy += e.get("dur").asDouble();
                threads.add(e.get("args").get("thread").asInt());
                first = Math.min(first, e.get("ts").asDouble());
                last = Math.max(last, e.get("ts").asDouble() + e.get("dur").asDouble());
            }
        }
        String line = line("scheduler threads: " + threads.size() + ", 12 tasks");
        assertThat(number(line, "busy ([0-9.]+) us")).isCloseTo(busy, Offset.offset(1.0));
        double idle = number(line, "idle ([0-9.]+) us");
        assertThat(busy + idle).isCloseTo(threads.size() * (last - first), Offset.offset(1.0));
        assertThat(number(line, "of which ([0-9.]+) ") + number(line, "and ([0-9.]+) with nothing ready"))
                .isCloseTo(idle, Offset.offset(1.0));
    }

    @Test
    void eachRingsPeakIsScopeStatsHighWaterWithTheScopeThatSetIt() throws Exception {
        JsonNode header = JSON.readTree(Files.readAllLines(dir.resolve("scope_stats/scope_stats.jsonl")).getFirst());
        String line = line("ring 0:");
        assertThat(line).contains("heap peak " + dev.jpto.runtime.Sizes.readable(header.get("heap_max").get(0).asLong())
                + " of 256MiB").contains("set in the scope at depth 0 opened at <root>")
                .contains(String.format(Locale.ROOT, "task slots peak %d of 16384",
                        header.get("task_window_max").get(0).asLong()));
    }

    @Test
    void aDirectoryWithoutARunIsAUsageError() {
        assertThat(CLI.run("analyze", tmp.resolve("none").toString())).isEqualTo(ExitCodes.USAGE);
        assertThat(CLI.err()).contains("is not a directory");
    }

    private static double longestFrom(String t, Map<String, Double> dur, Map<String, List<String>> succ) {
        double best = 0;
        for (String s : succ.getOrDefault(t, List.of())) {
            best = Math.max(best, longestFrom(s, dur, succ));
        }
        return dur.getOrDefault(t, 0.0) + best;
    }

    private static String line(String prefix) {
        return lines.stream().filter(l -> l.startsWith(prefix)).findFirst()
                .orElseThrow(() -> new AssertionError("no line '" + prefix + "…' in:\n" + String.join("\n", lines)));
    }

    private static double number(String line, String regex) {
        Matcher m = Pattern.compile(regex).matcher(line);
        if (!m.find()) {
            throw new AssertionError("'" + regex + "' not in: " + line);
        }
        return Double.parseDouble(m.group(1));
    }
}
