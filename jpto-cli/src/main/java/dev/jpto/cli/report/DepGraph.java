package dev.jpto.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The dependency graph of {@code deps.json}: tasks in submission order (every edge points from an earlier task to a
 * later one) and edges as index pairs.
 */
record DepGraph(long[] ids, String[] kernels, String[] coreTypes, int[][] preds, int edgeCount) {

    static DepGraph of(JsonNode doc) {
        JsonNode tasks = doc.path("tasks");
        int n = tasks.size();
        long[] ids = new long[n];
        String[] kernels = new String[n];
        String[] cores = new String[n];
        Map<Long, Integer> index = new HashMap<>(n * 2);
        for (int i = 0; i < n; i++) {
            JsonNode t = tasks.get(i);
            ids[i] = Long.parseLong(t.path("task_id").asText());
            kernels[i] = t.path("kernel").asText();
            cores[i] = t.path("core_type").asText();
            index.put(ids[i], i);
        }
        List<List<Integer>> preds = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            preds.add(new ArrayList<>(2));
        }
        int edges = 0;
        for (JsonNode e : doc.path("edges")) {
            Integer p = index.get(Long.parseLong(e.path("pred").asText()));
            Integer s = index.get(Long.parseLong(e.path("succ").asText()));
            if (p != null && s != null && !preds.get(s).contains(p)) {
                preds.get(s).add(p);
                edges++;
            }
        }
        int[][] pr = new int[n][];
        for (int i = 0; i < n; i++) {
            pr[i] = preds.get(i).stream().mapToInt(Integer::intValue).toArray();
        }
        return new DepGraph(ids, kernels, cores, pr, edges);
    }

    int size() {
        return ids.length;
    }

    /**
     * Longest-path layering: a task's layer is one more than its deepest producer's (sources are layer 0), so every
     * edge points to a higher layer. Linear in tasks and edges, since producers come first.
     */
    int[] layers() {
        int[] layer = new int[size()];
        for (int i = 0; i < size(); i++) {
            for (int p : preds[i]) {
                layer[i] = Math.max(layer[i], layer[p] + 1);
            }
        }
        return layer;
    }

    /** Position of {@code id} in submission order, or −1. */
    int indexOf(long id) {
        for (int i = 0; i < size(); i++) {
            if (ids[i] == id) {
                return i;
            }
        }
        return -1;
    }
}
