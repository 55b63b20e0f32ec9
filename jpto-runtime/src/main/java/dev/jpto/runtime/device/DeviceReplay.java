package dev.jpto.runtime.device;

import dev.jpto.runtime.CoreType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeSet;

/**
 * Replays a task graph on a chip's cores in simulated device time (a discrete-event simulation; integer
 * picoseconds, so the result depends only on the graph and the {@link HardwareSpec}).
 *
 * <ul>
 * <li>The orchestrator submits the tasks in list order, {@code submitNs} each: task i is submitted at
 *     (i + 1)·submit.</li>
 * <li>A task is ready when it is submitted and every predecessor has completed; a task completes
 *     {@code completionNs} after its last block ends (the scheduler notices the end and releases consumers).</li>
 * <li>Whenever a core of a ready block's type is free, the scheduler takes it: the kernel starts
 *     {@code dispatchNs} later and runs the task's cycles; the core is free again when the kernel ends.</li>
 * <li>Ties are broken deterministically: ready blocks in order of (ready time, task id, block), free cores
 *     lowest index first.</li>
 * </ul>
 * Not modelled: back-pressure (the ring sizes never stall the orchestrator), the scheduler threads' own contention,
 * and bandwidth shared between cores (only as the whole-run GM floor of {@link DeviceTimeline#devicePs}: the HBM bytes
 * that miss the {@link L2Cache} at the HBM bandwidth, all GM bytes at the L2's).
 */
public final class DeviceReplay {
    private DeviceReplay() {
    }

    private record Event(long time, int kind, int task, int core) {
        static final int CORE_FREE = 0;
        static final int DONE = 1;
        static final int READY = 2;
    }

    private static final Comparator<Event> EVENT_ORDER = Comparator.comparingLong(Event::time)
            .thenComparingInt(Event::kind).thenComparingInt(Event::task).thenComparingInt(Event::core);

    /**
     * Replays {@code tasks} (in submit order) on {@code spec}'s cores.
     *
     * @throws IllegalArgumentException naming the task when an id repeats or a predecessor is not an earlier task
     */
    public static DeviceTimeline replay(HardwareSpec spec, List<DeviceTask> tasks) {
        int n = tasks.size();
        int[][] preds = predecessorIndices(tasks);
        List<List<Integer>> consumers = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            consumers.add(new ArrayList<>());
        }
        int[] pending = new int[n];
        for (int i = 0; i < n; i++) {
            pending[i] = preds[i].length;
            for (int p : preds[i]) {
                consumers.get(p).add(i);
            }
        }
        HardwareSpec.RuntimeCosts rt = spec.runtime();
        long submitPs = rt.submitNs() * 1000;
        long dispatchPs = rt.dispatchNs() * 1000;
        long completionPs = rt.completionNs() * 1000;
        long[] costPs = new long[n];
        long gmBytes = 0;
        for (int i = 0; i < n; i++) {
            costPs[i] = spec.cyclesToPs(tasks.get(i).cycles());
            gmBytes += tasks.get(i).gmBytes();
        }

        PriorityQueue<Event> events = new PriorityQueue<>(EVENT_ORDER);
        for (int i = 0; i < n; i++) {
            if (pending[i] == 0) {
                events.add(new Event(submitPs * (i + 1), Event.READY, i, -1));
            }
        }
        int types = CoreType.values().length;
        List<TreeSet<Integer>> freeCores = new ArrayList<>(types);
        List<PriorityQueue<long[]>> ready = new ArrayList<>(types); // {readyPs, task id, task index}
        for (CoreType t : CoreType.values()) {
            TreeSet<Integer> free = new TreeSet<>();
            for (int c = 0; c < spec.platform().cores(t); c++) {
                free.add(c);
            }
            freeCores.add(free);
            ready.add(new PriorityQueue<>(Comparator.<long[]>comparingLong(r -> r[0]).thenComparingLong(r -> r[1])));
        }
        int[] nextBlock = new int[n];
        long[] readyAt = new long[n];
        long[] lastEnd = new long[n];
        long makespan = 0;
        List<BlockRun> runs = new ArrayList<>();

        while (!events.isEmpty()) {
            long now = events.peek().time();
            while (!events.isEmpty() && events.peek().time() == now) {
                Event e = events.poll();
                switch (e.kind()) {
                    case Event.CORE_FREE -> freeCores.get(e.task()).add(e.core());
                    case Event.DONE -> {
                        makespan = Math.max(makespan, now);
                        for (int c : consumers.get(e.task())) {
                            if (--pending[c] == 0) {
                                events.add(new Event(Math.max(now, submitPs * (c + 1)), Event.READY, c, -1));
                            }
                        }
                    }
                    default -> {
                        DeviceTask t = tasks.get(e.task());
                        readyAt[e.task()] = now;
                        ready.get(t.coreType().ordinal()).add(new long[] {now, t.id(), e.task()});
                    }
                }
            }
            for (CoreType type : CoreType.values()) {
                TreeSet<Integer> free = freeCores.get(type.ordinal());
                PriorityQueue<long[]> queue = ready.get(type.ordinal());
                while (!free.isEmpty() && !queue.isEmpty()) {
                    int i = (int) queue.peek()[2];
                    DeviceTask t = tasks.get(i);
                    int block = nextBlock[i]++;
                    if (nextBlock[i] == t.blocks()) {
                        queue.poll();
                    }
                    int core = free.pollFirst();
                    long start = now + dispatchPs;
                    long end = start + costPs[i];
                    runs.add(new BlockRun(t.id(), t.kernel(), block, type, core, submitPs * (i + 1), readyAt[i], now,
                            start, end));
                    events.add(new Event(end, Event.CORE_FREE, type.ordinal(), core));
                    lastEnd[i] = Math.max(lastEnd[i], end);
                    if (nextBlock[i] == t.blocks()) {
                        events.add(new Event(lastEnd[i] + completionPs, Event.DONE, i, -1));
                    }
                }
            }
        }
        CriticalPath cp = criticalPath(tasks, preds, costPs, dispatchPs + completionPs);
        long hbmBytes = gmBytes;
        for (long hit : L2Cache.hitBytes(spec, tasks)) {
            hbmBytes -= hit;
        }
        long gmFloor = Math.max(spec.chipTransferPs(hbmBytes), spec.l2TransferPs(gmBytes));
        return new DeviceTimeline(runs, makespan, gmFloor, gmBytes, hbmBytes, cp.ids, cp.lengthPs);
    }

    private record CriticalPath(List<Long> ids, long lengthPs) {
    }

    /** The longest dependency chain; among equal lengths the lower task id. */
    private static CriticalPath criticalPath(List<DeviceTask> tasks, int[][] preds, long[] costPs, long perTaskPs) {
        int n = tasks.size();
        if (n == 0) {
            return new CriticalPath(List.of(), 0);
        }
        long[] dist = new long[n];
        int[] via = new int[n];
        int last = -1;
        for (int i = 0; i < n; i++) {
            via[i] = -1;
            for (int p : preds[i]) {
                if (via[i] < 0 || dist[p] > dist[via[i]]
                        || dist[p] == dist[via[i]] && tasks.get(p).id() < tasks.get(via[i]).id()) {
                    via[i] = p;
                }
            }
            dist[i] = (via[i] < 0 ? 0 : dist[via[i]]) + perTaskPs + costPs[i];
            if (last < 0 || dist[i] > dist[last] || dist[i] == dist[last] && tasks.get(i).id() < tasks.get(last).id()) {
                last = i;
            }
        }
        List<Long> path = new ArrayList<>();
        for (int i = last; i >= 0; i = via[i]) {
            path.addFirst(tasks.get(i).id());
        }
        return new CriticalPath(path, dist[last]);
    }

    private static int[][] predecessorIndices(List<DeviceTask> tasks) {
        Map<Long, Integer> index = new HashMap<>();
        int[][] preds = new int[tasks.size()][];
        for (int i = 0; i < tasks.size(); i++) {
            DeviceTask t = tasks.get(i);
            LinkedHashSet<Integer> ps = new LinkedHashSet<>();
            for (long p : t.preds()) {
                Integer at = index.get(p);
                if (at == null) {
                    throw new IllegalArgumentException("task " + t.id() + " (" + t.kernel() + ") waits for task " + p
                            + ", which is not submitted before it; predecessors must be earlier tasks of the list");
                }
                ps.add(at);
            }
            preds[i] = ps.stream().mapToInt(Integer::intValue).toArray();
            if (index.putIfAbsent(t.id(), i) != null) {
                throw new IllegalArgumentException("task id " + t.id() + " (" + t.kernel() + ") appears twice");
            }
        }
        return preds;
    }
}
