package dev.jpto.runtime.orch;

import dev.jpto.isa.Tensor;
import dev.jpto.runtime.RingField;
import dev.jpto.runtime.ring.Ring;
import java.util.Arrays;

/**
 * Applies the scheduler's {@code last_task_alive} to the orchestrator-side allocators (spec b.3): heap tail
 * from the newest retired task's packed end, owner-map entries of retired outputs, fanin spill runs, the
 * retired slots' argument references, and the dep pool tail every
 * {@value #DEP_POOL_CLEANUP_INTERVAL} tasks. Orchestrator thread only.
 */
final class Reclaimer {
    /** {@code PTO2_DEP_POOL_CLEANUP_INTERVAL}. */
    static final int DEP_POOL_CLEANUP_INTERVAL = 64;

    private final OwnerMap owners;
    /** The scheduler's {@code last_task_alive} as last applied, per ring. */
    private final int[] reclaimedUpTo = new int[RingField.RINGS];
    private final int[] depReclaimedAt = new int[RingField.RINGS];
    /** Peak live tasks per ring up to the last change of its tail (see {@link #taskWindowMax}). */
    private final long[] windowMax = new long[RingField.RINGS];

    Reclaimer(OwnerMap owners) {
        this.owners = owners;
    }

    void reset() {
        Arrays.fill(reclaimedUpTo, 0);
        Arrays.fill(depReclaimedAt, 0);
        Arrays.fill(windowMax, 0);
    }

    /**
     * Peak live tasks of {@code ring} ({@code current − last_task_alive} after each allocation, as the allocator saw
     * the tail). While the applied tail stands still the count only grows, so its peak under each tail is the count
     * just before the tail moves: folded in there, not computed on every submit.
     */
    long taskWindowMax(Ring ring) {
        return Math.max(windowMax[ring.id], ring.tasks.active(reclaimedUpTo[ring.id]));
    }

    /** The tail last applied to {@code ring}'s allocators: their view of which tasks are still live. */
    int reclaimedUpTo(int ring) {
        return reclaimedUpTo[ring];
    }

    /** Applies {@code ring}'s current tail; true if anything retired since the last call. */
    boolean reclaim(Ring ring) {
        int r = ring.id;
        int last = ring.lastTaskAlive();
        int prev = reclaimedUpTo[r];
        if (last == prev) {
            return false;
        }
        windowMax[r] = Math.max(windowMax[r], ring.tasks.active(prev));
        for (int id = prev; id != last; id++) {
            int s = ring.slotOf(id);
            ring.args[s] = null; // let the arguments of a retired task go (kernels: at the end of the run)
            Tensor[] outs = ring.outputs[s];
            if (outs != null) {
                long raw = Ring.taskId(r, id);
                for (int i = 0; i < outs.length; i++) {
                    if (outs[i] != null) {
                        owners.remove(outs[i].bufferAddress(), raw);
                        outs[i] = null;
                    }
                }
            }
        }
        int newest = ring.slotOf(last - 1);
        ring.heap.reclaim(last - 1, ring.heapEnd(newest));
        ring.faninSpill.reclaimTo(ring.spillEnd(newest)); // spill runs are in task order, like the heap
        if (last - depReclaimedAt[r] >= DEP_POOL_CLEANUP_INTERVAL) {
            ring.deps.reclaimTo(ring.depMark(newest));
            depReclaimedAt[r] = last;
        }
        reclaimedUpTo[r] = last;
        return true;
    }
}
