package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report opened in a real browser (headless Chromium): no script errors, and the charts hold the run's numbers,
 * read back through the DOM (#chart-facts, which the page fills from each chart's own option) and compared with the
 * run's files. Screenshots stay in target/report-screenshots/.
 */
@Timeout(600)
class ReportBrowserTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path SCREENSHOTS = Path.of("target", "report-screenshots");

    @TempDir
    Path tmp;

    private final CliSession cli = new CliSession();

    @Test
    void aPassingRunsReportDrawsItsRingsTimelineKernelsAndGraph() throws Exception {
        HeadlessChromium chromium = HeadlessChromium.find(tmp);
        Path dir = tmp.resolve("run");
        assertThat(cli.run("run", "basic.matmul", "--preset", "tiny", "--output-dir", dir.toString(), "--report"))
                .as(cli.err()).isZero();
        Path html = dir.resolve("report.html");
        assertThat(cli.out()).contains("[REPORT] " + html);
        assertThat(Files.size(html)).isBetween(500_000L, 3_000_000L);
        assertThat(Files.readString(html)).doesNotContain("<script src", "<link ").contains("Apache License");

        JsonNode facts = factsWithoutErrors(chromium, html);
        JsonNode header = scopeStatsHeader(dir);
        JsonNode ring0 = facts.path("rings").path("0");
        assertThat(ring0.path("heap_max").asLong()).isEqualTo(header.get("heap_max").get(0).asLong()).isPositive();
        assertThat(ring0.path("heap_capacity").asLong()).isEqualTo(header.get("heap").get(0).asLong());
        assertThat(ring0.path("task_window_max").asLong()).isEqualTo(header.get("task_window_max").get(0).asLong());
        assertThat(ring0.path("stop").isNull()).isTrue();
        assertThat(facts.path("summary").path("outcome").asText()).isEqualTo("PASS");

        List<String> pmu = Files.readAllLines(dir.resolve("pmu.csv"));
        int tasks = pmu.size() - 1;
        assertThat(facts.path("timeline").path("host").path("bars").asInt()).isEqualTo(tasks);
        assertThat(facts.path("timeline").path("device").path("bars").asInt()).isEqualTo(tasks);
        assertThat(facts.path("timeline").path("host").path("critical").asInt()).isPositive();
        JsonNode deps = JSON.readTree(dir.resolve("deps.json").toFile());
        assertThat(facts.path("graph").path("nodes").asInt()).isEqualTo(deps.get("tasks").size()).isEqualTo(tasks);
        assertThat(facts.path("graph").path("edges").asInt()).isEqualTo(distinctEdges(deps));
        assertThat(facts.path("kernels").path("rows").asInt())
                .isEqualTo((int) pmu.stream().skip(1).map(l -> l.split(",")[4]).distinct().count());

        chromium.screenshot(html, SCREENSHOTS.resolve("basic.matmul-tiny.png"), 1400, 3400);
        assertThat(Files.size(SCREENSHOTS.resolve("basic.matmul-tiny.png"))).isGreaterThan(20_000);
    }

    @Test
    void aDeadlockedRunsReportShowsWhereTheHeapRingStoppedAndWhatNeverRan() throws Exception {
        HeadlessChromium chromium = HeadlessChromium.find(tmp);
        Path dir = tmp.resolve("deadlock");
        assertThat(cli.run("run", "basic.matmul", "--preset", "tiny", "--output-dir", dir.toString(), "--report",
                "--runtime-cfg", "ring_heap=64KiB")).as(cli.err()).isEqualTo(ExitCodes.RUNTIME);
        assertThat(cli.err()).contains("HEAP_RING_DEADLOCK");
        JsonNode run = JSON.readTree(dir.resolve("run.json").toFile());
        assertThat(run.path("error").path("code").asText()).isEqualTo("HEAP_RING_DEADLOCK");

        Path html = dir.resolve("report.html");
        JsonNode facts = factsWithoutErrors(chromium, html);
        JsonNode header = scopeStatsHeader(dir);
        JsonNode ring0 = facts.path("rings").path("0");
        assertThat(ring0.path("heap_max").asLong()).isEqualTo(header.get("heap_max").get(0).asLong())
                .isEqualTo(64 << 10);
        assertThat(ring0.path("heap_capacity").asLong()).isEqualTo(64 << 10);
        assertThat(ring0.path("stop").get(1).asLong()).as("the stop point sits at the heap in use")
                .isEqualTo(64 << 10);
        assertThat(facts.path("summary").path("outcome").asText()).isEqualTo("ERROR");
        JsonNode deps = JSON.readTree(dir.resolve("deps.json").toFile());
        int ran = facts.path("timeline").path("host").path("bars").asInt();
        // how many of the submitted tasks ran before the deadlock was declared depends on timing
        assertThat(facts.path("failure").path("not_run").asInt()).isEqualTo(deps.get("tasks").size() - ran);
        assertThat(facts.path("failure").path("message").asText()).contains("HEAP_RING_DEADLOCK");

        chromium.screenshot(html, SCREENSHOTS.resolve("basic.matmul-tiny-deadlock.png"), 1400, 3000);
    }

    @Test
    void aScriptErrorInThePageIsCaughtInTheDom() throws Exception {
        HeadlessChromium chromium = HeadlessChromium.find(tmp);
        // a timeline without its series: the ring chart's code throws, which the page must report, not hide
        Path dir = Files.createDirectories(tmp.resolve("broken/scope_stats"));
        Files.writeString(dir.resolve("scope_stats.jsonl"),
                "{\"version\":6,\"fatal\":false,\"platform\":\"a2a3sim\"}\n");
        Files.writeString(dir.resolve("ring_timeline.json"), "{\"version\":1}");
        assertThat(cli.run("report", dir.getParent().toString())).as(cli.err()).isZero();
        HeadlessChromium.Page page = chromium.dump(dir.getParent().resolve("report.html"));
        assertThat(page.text("report-errors")).contains("rings: TypeError");
    }

    @Test
    void aDirectoryWithoutARunIsRefused() throws Exception {
        assertThat(cli.run("report", tmp.toString())).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).contains("holds none of the files a run writes");
        assertThat(tmp.resolve("report.html")).doesNotExist();
        assertThat(cli.run("report", tmp.resolve("missing").toString())).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).contains("is not a directory");
        assertThat(cli.run("run", "basic.matmul", "--preset", "tiny", "--report")).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).contains("--report writes DIR/report.html: give --output-dir DIR");
    }

    @Test
    void aRunReusingTheDirRemovesTheEarlierReportAndTimeline() throws Exception {
        Path dir = tmp.resolve("reuse");
        assertThat(cli.run("run", "basic.matmul", "--preset", "tiny", "--output-dir", dir.toString(), "--report"))
                .as(cli.err()).isZero();
        assertThat(dir.resolve("report.html")).isRegularFile();
        assertThat(dir.resolve("run.json")).isRegularFile();
        assertThat(dir.resolve("scope_stats/ring_timeline.json")).isRegularFile();
        assertThat(cli.run("run", "basic.matmul", "--preset", "tiny", "--output-dir", dir.toString()))
                .as(cli.err()).isZero();
        assertThat(dir.resolve("report.html")).doesNotExist();
        assertThat(dir.resolve("run.json")).doesNotExist();
        assertThat(dir.resolve("scope_stats")).doesNotExist();
    }

    /** The page's #chart-facts, after checking that it ran without a script error or a console error. */
    private static JsonNode factsWithoutErrors(HeadlessChromium chromium, Path html) throws Exception {
        HeadlessChromium.Page page = chromium.dump(html);
        assertThat(page.text("report-errors")).isEqualTo("[]");
        assertThat(page.consoleErrors()).isEmpty();
        return JSON.readTree(page.text("chart-facts"));
    }

    private static JsonNode scopeStatsHeader(Path dir) throws Exception {
        return JSON.readTree(Files.readAllLines(dir.resolve("scope_stats/scope_stats.jsonl")).getFirst());
    }

    private static int distinctEdges(JsonNode deps) {
        Set<String> pairs = new HashSet<>();
        deps.get("edges").forEach(e -> pairs.add(e.get("pred").asText() + ">" + e.get("succ").asText()));
        return pairs.size();
    }
}
