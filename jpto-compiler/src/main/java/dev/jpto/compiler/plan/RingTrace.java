package dev.jpto.compiler.plan;

import java.util.Arrays;

/**
 * What the planner records per task of one ring, in submission (local id) order: the heap bytes it reserves,
 * the dependency edges it may wire, and {@code pinnedFrom} — the oldest task of the ring whose scope is still
 * open when it is allocated (itself if none is). Tasks from {@code pinnedFrom} on cannot be reclaimed before the
 * orchestrator moves on, whatever the kernels do: that is the live set a ring must hold.
 */
final class RingTrace {
    final int ring;
    private long[] bytes = new long[64];
    private int[] edges = new int[64];
    private int[] pinnedFrom = new int[64];
    private int size;

    RingTrace(int ring) {
        this.ring = ring;
    }

    /** Appends the next task; returns its local id. */
    int add(long taskBytes, int taskEdges, int oldestPinned) {
        if (size == bytes.length) {
            int n = size * 2;
            bytes = Arrays.copyOf(bytes, n);
            edges = Arrays.copyOf(edges, n);
            pinnedFrom = Arrays.copyOf(pinnedFrom, n);
        }
        bytes[size] = taskBytes;
        edges[size] = taskEdges;
        pinnedFrom[size] = oldestPinned;
        return size++;
    }

    int tasks() {
        return size;
    }

    long bytes(int local) {
        return bytes[local];
    }

    int edges(int local) {
        return edges[local];
    }

    int pinnedFrom(int local) {
        return pinnedFrom[local];
    }

    /** Largest heap request of one task. */
    long maxBytes() {
        long m = 0;
        for (int i = 0; i < size; i++) {
            m = Math.max(m, bytes[i]);
        }
        return m;
    }

    long totalBytes() {
        long s = 0;
        for (int i = 0; i < size; i++) {
            s = Math.addExact(s, bytes[i]);
        }
        return s;
    }
}
