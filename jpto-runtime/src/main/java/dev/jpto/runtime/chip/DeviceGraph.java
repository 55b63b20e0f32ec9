package dev.jpto.runtime.chip;

import dev.jpto.runtime.device.DeviceTask;
import dev.jpto.runtime.device.GmFootprint;
import dev.jpto.runtime.orch.SubmitLog;
import dev.jpto.runtime.sched.CostLog;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Builds the task graph the device estimate replays from a run's submit log and its scheduler threads' costs. */
final class DeviceGraph {
    private DeviceGraph() {
    }

    /**
     * The run's tasks in submit order, each with the cost its kernel reported (none: zero cycles) and its producers.
     * A producer outside the run cannot occur; it is skipped rather than failing a run that succeeded.
     */
    static List<DeviceTask> tasks(SubmitLog log, CostLog[] costs) {
        int n = log.size();
        Map<Long, Integer> index = HashMap.newHashMap(n);
        for (int i = 0; i < n; i++) {
            index.put(log.id(i), i);
        }
        long[] cycles = new long[n];
        long[] gmBytes = new long[n];
        List<List<GmFootprint>> footprints = new ArrayList<>(Collections.nCopies(n, null));
        for (CostLog c : costs) {
            for (int k = 0; k < c.size(); k++) {
                Integer i = index.get(c.taskId(k));
                if (i != null) { // one entry per block and lane: a block's cycles, every block's bytes and lines
                    cycles[i] = Math.max(cycles[i], c.cycles(k));
                    gmBytes[i] += c.gmBytes(k);
                    if (footprints.get(i) == null) {
                        footprints.set(i, new ArrayList<>(1));
                    }
                    footprints.get(i).add(c.footprint(k));
                }
            }
        }
        List<DeviceTask> tasks = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            List<GmFootprint> parts = footprints.get(i);
            List<Long> preds = new ArrayList<>(log.predCount(i));
            for (int k = 0; k < log.predCount(i); k++) {
                Integer p = index.get(log.pred(i, k));
                if (p != null && p < i) {
                    preds.add(log.pred(i, k));
                }
            }
            tasks.add(new DeviceTask(log.id(i), log.kernel(i), log.coreType(i), cycles[i], gmBytes[i], preds,
                    log.blocks(i), parts == null ? GmFootprint.NONE : GmFootprint.unionAll(parts)));
        }
        return tasks;
    }
}
