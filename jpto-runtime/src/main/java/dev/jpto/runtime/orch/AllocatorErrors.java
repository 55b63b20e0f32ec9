package dev.jpto.runtime.orch;

import dev.jpto.runtime.RingField;
import dev.jpto.runtime.RingShortfall;
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

    /** A ring failure: what happened, and the capacity that was short. */
    record Failure(String facts, RingShortfall shortfall) {
    }

    static Failure heap(Ring ring, long bytes, String kernel, String cause, int depth, long[] configured) {
        HeapRing h = ring.heap;
        int r = ring.id;
        // the live bytes and the request must fit at once; a failure below that is wrap loss: more than capacity
        RingShortfall need = RingShortfall.of(RingField.HEAP, r, h.size(), h.used() + bytes, configured);
        return new Failure("the task allocator could not reserve " + bytes
                + " heap bytes on ring " + r + " (capacity " + h.size() + ", in use " + h.used() + ", available "
                + h.available() + ", top " + h.top() + ", tail " + h.tail() + ", live tasks "
                + ring.tasks.active(ring.lastTaskAlive()) + "/" + ring.window() + ", scope depth " + depth + ", task "
                + Diagnostics.taskName(Ring.taskId(r, ring.tasks.nextLocal())) + " kernel '"
                + kernel + "'; " + cause + ")", need);
    }

    /** The task window that holds {@code live} tasks (the new one included) on {@code ring}: one slot stays free. */
    static RingShortfall taskWindow(Ring ring, long live, long[] configured) {
        return RingShortfall.of(RingField.TASK_WINDOW, ring.id, ring.window(), live + 1, configured);
    }

    static Failure taskRing(Ring ring, long bytes, String kernel, String cause, int depth, long[] configured) {
        int r = ring.id;
        int active = ring.tasks.active(ring.lastTaskAlive());
        return new Failure("the task allocator could not get a task slot on ring " + r
                + " (task window " + ring.window() + ", live tasks " + active + ", one slot is always kept free; heap "
                + "in use " + ring.heap.used() + "/" + ring.heap.size() + ", request " + bytes + " bytes, scope depth "
                + depth + ", task " + Diagnostics.taskName(Ring.taskId(r, ring.tasks.nextLocal()))
                + " kernel '" + kernel + "'; " + cause + ")", taskWindow(ring, active + 1, configured));
    }

    static Failure depPool(Ring ring, int needed, long raw, String kernel, String cause, long[] configured) {
        int r = ring.id;
        RingShortfall need = RingShortfall.of(RingField.DEP_POOL, r, ring.deps.capacity(),
                ring.deps.used() + needed, configured);
        return new Failure("Dependency Pool Deadlock: the dependency pool of ring " + r
                + " could not supply " + needed + " entries (capacity " + ring.deps.capacity() + ", in use "
                + ring.deps.used() + ", high-water " + ring.deps.highWater() + ", top " + ring.deps.top() + ", tail "
                + ring.deps.tail() + ", last_task_alive " + ring.lastTaskAlive() + ", task "
                + Diagnostics.taskName(raw) + " kernel '" + kernel + "'; " + cause + ")", need);
    }
}
