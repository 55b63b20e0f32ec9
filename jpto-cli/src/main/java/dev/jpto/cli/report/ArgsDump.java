package dev.jpto.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jpto.isa.Tensor;
import dev.jpto.lib.npy.Npy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeSet;

/** An args dump ({@code --dump-args}): the index {@code args_dump/args_dump.json} and the .npy files it names. */
public final class ArgsDump {
    static final String INDEX = "args_dump/args_dump.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One dumped argument of one task, before dispatch or after completion. */
    public record Entry(long taskId, String kernel, int arg, String role, String stage, String dtype, String shape,
                        String file, boolean truncated) {
        String task() {
            return ReportModel.hex(taskId);
        }
    }

    private final Path dir;
    private final List<Entry> entries;

    private ArgsDump(Path dir, List<Entry> entries) {
        this.dir = dir;
        this.entries = entries;
    }

    /**
     * Reads the index under {@code dir}.
     *
     * @throws IllegalArgumentException when there is none
     */
    public static ArgsDump read(Path dir) throws IOException {
        Path index = dir.resolve(INDEX);
        if (!Files.isRegularFile(index)) {
            throw new IllegalArgumentException(dir + " holds no args dump (no " + INDEX + "): run with --output-dir "
                    + dir + " --dump-args");
        }
        List<Entry> entries = new ArrayList<>();
        for (JsonNode a : JSON.readTree(index.toFile()).path("args")) {
            entries.add(new Entry(Long.decode(a.path("task_id").asText()), a.path("kernel").asText(),
                    a.path("arg_index").asInt(), a.path("role").asText(), a.path("stage").asText(),
                    a.path("dtype").asText(), a.path("shape").toString(), a.path("file").asText(),
                    a.path("truncated").asBoolean()));
        }
        return new ArgsDump(dir, List.copyOf(entries));
    }

    /**
     * The entries of task {@code task} (0x-hex or decimal), kernel {@code kernel} and argument {@code arg}, each
     * filter optional.
     *
     * @throws IllegalArgumentException naming what exists when a filter matches nothing
     */
    public List<Entry> select(Optional<String> task, Optional<String> kernel, OptionalInt arg) {
        List<Entry> out = entries;
        if (task.isPresent()) {
            long id = parseTask(task.get());
            out = out.stream().filter(e -> e.taskId() == id).toList();
            if (out.isEmpty()) {
                throw new IllegalArgumentException("--task " + task.get() + ": no such task in the dump; dumped tasks: "
                        + sample(entries.stream().map(Entry::task).toList()));
            }
        }
        if (kernel.isPresent()) {
            List<Entry> before = out;
            out = out.stream().filter(e -> e.kernel().equals(kernel.get())).toList();
            if (out.isEmpty()) {
                throw new IllegalArgumentException("--kernel " + kernel.get() + ": no such kernel in the dump"
                        + (task.isPresent() ? " for that task" : "") + "; dumped kernels: "
                        + sample(before.stream().map(Entry::kernel).toList()));
            }
        }
        if (arg.isPresent()) {
            List<Entry> before = out;
            out = out.stream().filter(e -> e.arg() == arg.getAsInt()).toList();
            if (out.isEmpty()) {
                throw new IllegalArgumentException("--arg " + arg.getAsInt() + ": no such argument dumped; arguments: "
                        + sample(before.stream().map(e -> String.valueOf(e.arg())).toList()));
            }
        }
        return out;
    }

    /** The table {@code jpto dump ls} prints. */
    public static List<String> table(List<Entry> entries) {
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "%-18s %-24s %3s %-15s %-6s %-5s %-16s %s", "task", "kernel", "arg",
                "role", "stage", "dtype", "shape", "file"));
        for (Entry e : entries) {
            lines.add(String.format(Locale.ROOT, "%-18s %-24s %3d %-15s %-6s %-5s %-16s %s%s", e.task(), e.kernel(),
                    e.arg(), e.role(), e.stage(), e.dtype(), e.shape(), e.file(), e.truncated() ? " (truncated)" : ""));
        }
        return lines;
    }

    /** {@code jpto dump show}: per entry its header, statistics and first {@code count} values. */
    public List<String> show(List<Entry> selected, int count) throws IOException {
        List<String> lines = new ArrayList<>();
        for (Entry e : selected) {
            Path file = dir.resolve(e.file()).normalize();
            if (!file.startsWith(dir.normalize())) {
                throw new IllegalArgumentException(INDEX + " names " + e.file() + ", outside " + dir + "; refused");
            }
            Tensor t = Npy.read(file);
            double min = Double.POSITIVE_INFINITY;
            double max = Double.NEGATIVE_INFINITY;
            double sum = 0;
            long nan = 0;
            long finite = 0;
            StringBuilder first = new StringBuilder();
            for (long i = 0; i < t.numel(); i++) {
                double v = t.getDouble(i);
                if (Double.isNaN(v)) {
                    nan++;
                } else if (Double.isFinite(v)) {
                    finite++;
                    sum += v;
                }
                if (!Double.isNaN(v)) {
                    min = Math.min(min, v);
                    max = Math.max(max, v);
                }
                if (i < count) {
                    first.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.6g", v));
                }
            }
            lines.add(e.task() + " " + e.kernel() + " arg " + e.arg() + " " + e.role() + " " + e.stage() + " "
                    + e.dtype() + e.shape() + " (" + e.file() + (e.truncated() ? ", truncated" : "") + ")");
            lines.add(String.format(Locale.ROOT, "  numel=%d min=%.6g max=%.6g mean=%.6g nan=%d inf=%d", t.numel(),
                    min, max, finite == 0 ? Double.NaN : sum / finite, nan, t.numel() - finite - nan));
            lines.add("  [" + first + (t.numel() > count ? ", …" : "") + "]");
        }
        return lines;
    }

    private static long parseTask(String text) {
        try {
            return Long.decode(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--task " + text + ": not a task id; give it as jpto prints it, e.g. "
                    + "0x0000000100000007 (ring 1, local 7), or as a decimal number");
        }
    }

    private static String sample(List<String> values) {
        TreeSet<String> distinct = new TreeSet<>(values);
        List<String> first = distinct.stream().limit(8).toList();
        return String.join(", ", first) + (distinct.size() > first.size() ? ", … (" + distinct.size() + ")" : "");
    }
}
