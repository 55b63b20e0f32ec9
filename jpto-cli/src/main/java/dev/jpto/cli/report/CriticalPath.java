package dev.jpto.cli.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The chain of dependent tasks with the largest sum of task times: no schedule on any number of cores finishes the
 * graph sooner. Tasks missing from the trace (never ran) count zero.
 *
 * @param tasks the chain's task indices (into the {@link DepGraph}), first to last
 * @param lengthUs the sum of their times
 */
record CriticalPath(List<Integer> tasks, double lengthUs) {

    static CriticalPath of(DepGraph g, Trace trace) {
        Map<Long, Double> dur = new HashMap<>();
        for (TraceTask t : trace.tasks()) {
            dur.put(t.id(), t.durUs());
        }
        int n = g.size();
        double[] finish = new double[n];
        int[] via = new int[n];
        int last = -1;
        for (int i = 0; i < n; i++) {
            via[i] = -1;
            double before = 0;
            for (int p : g.preds()[i]) {
                if (finish[p] > before) {
                    before = finish[p];
                    via[i] = p;
                }
            }
            finish[i] = before + dur.getOrDefault(g.ids()[i], 0.0);
            if (last < 0 || finish[i] > finish[last]) {
                last = i;
            }
        }
        List<Integer> chain = new ArrayList<>();
        for (int i = last; i >= 0; i = via[i]) {
            chain.add(i);
        }
        Collections.reverse(chain);
        return new CriticalPath(List.copyOf(chain), last < 0 ? 0 : finish[last]);
    }
}
