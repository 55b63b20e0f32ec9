package dev.jpto.runtime.chip;

import dev.jpto.runtime.orch.OrchestratorImpl;
import dev.jpto.runtime.ring.HeapRing;

/**
 * The heap ring's packing and placement rules (spec b.1, b.3), public for tools that size rings without running a
 * program (the compiler's ring planner). The constants are the orchestrator's own, and {@link Model} is the
 * runtime's {@link HeapRing} itself, so a planner cannot drift from what the allocator does.
 */
public final class HeapLayout {
    /** {@code PTO2_PACKED_OUTPUT_ALIGN}: each OUTPUT buffer of a task is rounded up to this many bytes. */
    public static final long OUTPUT_ALIGN = OrchestratorImpl.OUTPUT_ALIGN;
    /** {@code PTO2_ALIGN_SIZE}: a task's packed outputs are rounded up to this many bytes. */
    public static final long TASK_ALIGN = OrchestratorImpl.TASK_ALIGN;

    private HeapLayout() {}

    /** Heap bytes one OUTPUT of {@code byteSize} bytes takes inside its task (an empty one still takes one unit). */
    public static long outputBytes(long byteSize) {
        return align(Math.max(1, byteSize), OUTPUT_ALIGN);
    }

    /** Heap bytes a task reserves for outputs whose {@link #outputBytes} sum to {@code packedOutputs}. */
    public static long taskBytes(long packedOutputs) {
        return align(packedOutputs, TASK_ALIGN);
    }

    private static long align(long v, long a) {
        return (v + a - 1) & -a;
    }

    /** A heap ring of {@code size} bytes with the allocator's placement, wrap, rebase and reclaim rules. */
    public static final class Model {
        /** {@link #tryBump} result when the request does not fit now. */
        public static final long FULL = HeapRing.FULL;
        private final HeapRing ring;

        /** @throws IllegalArgumentException if {@code size} is below the runtime minimum */
        public Model(long size) {
            this.ring = new HeapRing(size);
        }

        /** Reserves {@code n} bytes (a {@link #taskBytes} value) for task {@code localId}: the offset, or FULL. */
        public long tryBump(long n, long localId) {
            return ring.tryBump(n, localId);
        }

        /** Moves the tail to the packed end of task {@code newestReclaimed}, as when last_alive passes it. */
        public void reclaim(long newestReclaimed, long packedEnd) {
            ring.reclaim(newestReclaimed, packedEnd);
        }
    }
}
