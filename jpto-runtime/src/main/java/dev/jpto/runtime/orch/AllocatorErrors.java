package dev.jpto.runtime.orch;

import dev.jpto.runtime.Sizes;
import dev.jpto.runtime.ring.HeapRing;
import dev.jpto.runtime.ring.Ring;
import dev.jpto.runtime.sched.Diagnostics;

/**
 * The details of allocator failures (codes 2, 3, 4): what could not be reserved, where (ring, scope depth,
 * task, kernel), the allocator's numbers, why it is a deadlock, and which knob to set to what.
 */
final class AllocatorErrors {
    private AllocatorErrors() {}

    static String headName(Ring ring) {
        int last = ring.lastTaskAlive();
        if (last == ring.tasks.nextLocal()) {
            return "<none>";
        }
        int s = ring.slotOf(last);
        String state = switch (ring.state(s)) {
            case Ring.PENDING -> "PENDING";
            case Ring.COMPLETED -> "COMPLETED";
            default -> "CONSUMED";
        };
        return Diagnostics.taskName(Ring.taskId(ring.id, last)) + " kernel '" + ring.kernelName(s)
                + "' state " + state + " scope depth " + ring.scopeDepth(s);
    }

    static String heap(Ring ring, long bytes, String kernel, String cause, int depth, long[] configured) {
        HeapRing h = ring.heap;
        int r = ring.id;
        long rec = Advice.heap(h.size(), h.used(), bytes);
        return "the task allocator could not reserve " + bytes
                + " heap bytes on ring " + r + " (capacity " + h.size() + ", in use " + h.used() + ", available "
                + h.available() + ", top " + h.top() + ", tail " + h.tail() + ", live tasks "
                + ring.tasks.active(ring.lastTaskAlive()) + "/" + ring.window() + ", scope depth " + depth + ", task "
                + Diagnostics.taskName(Ring.taskId(r, ring.tasks.nextLocal())) + " kernel '"
                + kernel + "'; " + cause + "); set ring_heap for ring " + r + " to at least "
                + Sizes.format(rec) + " (runtime_cfg " + Advice.perRing("ring_heap", configured, r, rec)
                + ", or ring_heap=" + Sizes.format(rec) + " for all rings)";
    }

    static String taskRing(Ring ring, long bytes, String kernel, String cause, int depth, long[] configured) {
        int r = ring.id;
        int active = ring.tasks.active(ring.lastTaskAlive());
        long rec = Advice.taskWindow(ring.window(), active + 1);
        return "the task allocator could not get a task slot on ring " + r
                + " (task window " + ring.window() + ", live tasks " + active + ", one slot is always kept free; heap "
                + "in use " + ring.heap.used() + "/" + ring.heap.size() + ", request " + bytes + " bytes, scope depth "
                + depth + ", task " + Diagnostics.taskName(Ring.taskId(r, ring.tasks.nextLocal()))
                + " kernel '" + kernel + "'; " + cause + "); set ring_task_window for ring " + r + " to at least " + rec
                + " (runtime_cfg " + Advice.perRing("ring_task_window", configured, r, rec) + ")";
    }

    static String depPool(Ring ring, int needed, long raw, String kernel, String cause, long[] configured) {
        int r = ring.id;
        long rec = Advice.depPool(ring.deps.capacity(), ring.deps.used() + needed);
        return "Dependency Pool Deadlock: the dependency pool of ring " + r
                + " could not supply " + needed + " entries (capacity " + ring.deps.capacity() + ", in use "
                + ring.deps.used() + ", high-water " + ring.deps.highWater() + ", top " + ring.deps.top() + ", tail "
                + ring.deps.tail() + ", last_task_alive " + ring.lastTaskAlive() + ", task "
                + Diagnostics.taskName(raw) + " kernel '" + kernel + "'; " + cause
                + "); set ring_dep_pool for ring " + r + " to at least " + rec + " (runtime_cfg "
                + Advice.perRing("ring_dep_pool", configured, r, rec) + ")";
    }

}
