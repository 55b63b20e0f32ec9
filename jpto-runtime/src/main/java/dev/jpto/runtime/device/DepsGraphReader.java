package dev.jpto.runtime.device;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jpto.runtime.CoreType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Builds the replay's task graph from a run's {@code deps.json} ({@code enable_dep_gen}): its tasks in submit order
 * with their core types, and their predecessors from its edges (duplicates merged). The device cost of each task
 * comes from {@code costs}. The file is data: only its tasks and edges are read.
 *
 * <p>deps.json has no edge to a producer that had already retired when its consumer was submitted; such an order is
 * lost here (the replay may then start the consumer earlier than the device would).
 */
public final class DepsGraphReader {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The device cost of a recorded task. */
    @FunctionalInterface
    public interface TaskCosts {
        TaskCost of(long taskId, String kernel, CoreType coreType);
    }

    private DepsGraphReader() {
    }

    /**
     * Reads {@code depsJson}.
     *
     * @throws IllegalArgumentException naming the file and the JSON path of a missing or malformed field
     * @throws UncheckedIOException     naming the file when it cannot be read
     */
    public static List<DeviceTask> read(Path depsJson, TaskCosts costs) {
        JsonNode root;
        try {
            root = JSON.readTree(depsJson.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + depsJson + ": " + e.getMessage(), e);
        }
        JsonNode tasks = array(depsJson, root, "tasks");
        JsonNode edges = array(depsJson, root, "edges");
        Map<Long, Set<Long>> preds = new HashMap<>();
        for (int i = 0; i < edges.size(); i++) {
            JsonNode e = edges.get(i);
            long pred = id(depsJson, e, "edges[" + i + "].pred");
            long succ = id(depsJson, e, "edges[" + i + "].succ");
            preds.computeIfAbsent(succ, k -> new LinkedHashSet<>()).add(pred);
        }
        List<DeviceTask> out = new ArrayList<>(tasks.size());
        for (int i = 0; i < tasks.size(); i++) {
            JsonNode t = tasks.get(i);
            String at = "tasks[" + i + "]";
            long id = id(depsJson, t, at + ".task_id");
            String kernel = text(depsJson, t, at + ".kernel");
            String type = text(depsJson, t, at + ".core_type");
            CoreType coreType;
            try {
                // a mixed task holds a cluster per block: replayed on its cube core
                coreType = type.equals("MIX") ? CoreType.AIC : CoreType.valueOf(type.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException(depsJson + ": " + at + ".core_type is '" + type
                        + "'; allowed: AIC, AIV, MIX");
            }
            JsonNode blockNode = t.get("block_num");
            if (blockNode != null && (!blockNode.canConvertToInt() || !blockNode.isIntegralNumber()
                    || blockNode.asInt() < 1)) {
                throw new IllegalArgumentException(depsJson + ": " + at + ".block_num is " + blockNode
                        + "; allowed: an integer >= 1 (absent: 1)");
            }
            int blocks = blockNode == null ? 1 : blockNode.asInt();
            TaskCost cost = costs.of(id, kernel, coreType);
            out.add(new DeviceTask(id, kernel, coreType, cost.cycles(), cost.gmBytes(),
                    List.copyOf(preds.getOrDefault(id, Set.of())), blocks));
        }
        return out;
    }

    private static JsonNode array(Path file, JsonNode root, String field) {
        JsonNode a = root == null ? null : root.get(field);
        if (a == null || !a.isArray()) {
            throw new IllegalArgumentException(file + ": '" + field + "' must be an array (is this a deps.json?)");
        }
        return a;
    }

    /** A 64-bit id, written as a decimal string. */
    private static long id(Path file, JsonNode node, String path) {
        String s = text(file, node, path);
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(file + ": " + path + " must be a decimal task id, got '" + s + "'");
        }
    }

    private static String text(Path file, JsonNode node, String path) {
        JsonNode v = node.get(path.substring(path.lastIndexOf('.') + 1));
        if (v == null || !v.isTextual()) {
            throw new IllegalArgumentException(file + ": " + path + " is missing or not a string");
        }
        return v.asText();
    }
}
