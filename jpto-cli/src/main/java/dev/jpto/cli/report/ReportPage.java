package dev.jpto.cli.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jpto.lib.runner.RunOutputDir;
import dev.jpto.runtime.io.AtomicFile;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes {@code DIR/report.html}: the page template with its style, the report script, Apache ECharts and its
 * licence, and the data, all inlined so that the one file opens offline in any browser.
 */
public final class ReportPage {
    /** The vendored ECharts (the pom's echarts.version), unpacked beside this class at build time. */
    static final String ECHARTS_VERSION = "5.3.1";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern PLACEHOLDER =
            Pattern.compile("\\{\\{(style|echarts|script|data|licence|echarts_version|title)}}");

    private ReportPage() {
    }

    /** What one report took: the page written, its size and how long reading and writing took. */
    public record Written(Path file, long bytes, long nanos) {
    }

    /**
     * Reads the run in {@code dir} and writes its report there.
     *
     * @throws IllegalArgumentException when {@code dir} holds no run
     */
    public static Written write(Path dir) throws IOException {
        long t0 = System.nanoTime();
        RunDir run = RunDir.read(dir);
        ObjectNode model = ReportModel.of(run, HostPeak.measure());
        String html = html(model, title(run));
        Path file = dir.resolve(RunOutputDir.REPORT);
        AtomicFile.writeString(file, html);
        return new Written(file, html.getBytes(StandardCharsets.UTF_8).length, System.nanoTime() - t0);
    }

    private static String title(RunDir run) {
        return run.run().map(r -> "jpto report: " + r.path("program").asText() + " --preset "
                + r.path("preset").asText()).orElse("jpto report: " + run.dir().toAbsolutePath());
    }

    static String html(ObjectNode model, String title) {
        String data;
        try {
            data = JSON.writeValueAsString(model);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
        String licence = resource("echarts/LICENSE") + "\n\n" + resource("echarts/NOTICE") + "\n\n"
                + "licenses/LICENSE-d3:\n" + resource("echarts/LICENSE-d3");
        Map<String, String> parts = Map.of(
                "style", resource("report.css"),
                "echarts", script(resource("echarts/echarts.min.js")),
                "script", script(resource("report.js")),
                "data", script(data),
                "licence", escape(licence),
                "echarts_version", ECHARTS_VERSION,
                "title", escape(title));
        // one pass over the template: the inlined texts are never searched for placeholders
        Matcher m = PLACEHOLDER.matcher(resource("report.html"));
        StringBuilder page = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(page, Matcher.quoteReplacement(parts.get(m.group(1))));
        }
        m.appendTail(page);
        return page.toString();
    }

    /** Text inside a script element must not close it. */
    private static String script(String text) {
        return text.replace("</", "<\\/");
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static String resource(String name) {
        try (InputStream in = ReportPage.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("the jpto build lacks its report resource " + name
                        + " (rebuild: the jar bundles it)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the report resource " + name, e);
        }
    }
}
