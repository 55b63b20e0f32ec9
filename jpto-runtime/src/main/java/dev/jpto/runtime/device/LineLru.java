package dev.jpto.runtime.device;

import java.util.Arrays;

/**
 * An exact least-recently-used set of {@code capacity} line keys, on primitive arrays: an open-addressing table
 * (linear probing, backward-shift deletion) from key to node, and the nodes in a doubly linked list from least to
 * most recently used. The L2 model touches every line of every task of a run; a {@code LinkedHashMap<Long, …>}
 * in access order boxed each key and was 8 % of {@code dsv4.prefill_mtp}'s warm samples at pro.
 */
final class LineLru {
    private static final int EMPTY = -1;

    private final int capacity;
    private final long[] slotKey;
    private final int[] slotNode;
    private final int mask;
    private final int shift;
    private final long[] nodeKey;
    private final int[] prev;
    private final int[] next;
    private int size;
    private int oldest = EMPTY;
    private int newest = EMPTY;

    /** An empty set that holds at most {@code capacity} lines (none when capacity ≤ 0). */
    LineLru(long capacity) {
        this.capacity = (int) Math.max(0, Math.min(capacity, 1 << 28));
        int slots = Integer.highestOneBit(Math.max(2, this.capacity) * 2 - 1) << 1;
        this.slotKey = new long[slots];
        this.slotNode = new int[slots];
        Arrays.fill(slotNode, EMPTY);
        this.mask = slots - 1;
        this.shift = 64 - Integer.numberOfTrailingZeros(slots);
        this.nodeKey = new long[this.capacity];
        this.prev = new int[this.capacity];
        this.next = new int[this.capacity];
    }

    /**
     * Uses {@code key}: true when it was held (it becomes the most recently used), false when it was not (it is
     * added as the most recently used, the least recently used line leaving a full set).
     */
    boolean touch(long key) {
        if (capacity == 0) {
            return false;
        }
        int slot = home(key);
        while (slotNode[slot] != EMPTY) {
            if (slotKey[slot] == key) {
                int node = slotNode[slot];
                unlink(node);
                append(node);
                return true;
            }
            slot = (slot + 1) & mask;
        }
        int node;
        if (size == capacity) {
            node = oldest;
            unlink(node);
            remove(nodeKey[node]);
            slot = home(key); // the removal may have shifted entries into the probe sequence
            while (slotNode[slot] != EMPTY) {
                slot = (slot + 1) & mask;
            }
        } else {
            node = size++;
        }
        nodeKey[node] = key;
        slotKey[slot] = key;
        slotNode[slot] = node;
        append(node);
        return false;
    }

    private int home(long key) {
        return (int) ((key * 0x9E3779B97F4A7C15L) >>> shift);
    }

    /** Removes {@code key}'s table entry, shifting later entries of its probe run back into the gap. */
    private void remove(long key) {
        int gap = home(key);
        while (slotKey[gap] != key || slotNode[gap] == EMPTY) {
            gap = (gap + 1) & mask;
        }
        for (int j = (gap + 1) & mask; slotNode[j] != EMPTY; j = (j + 1) & mask) {
            int h = home(slotKey[j]);
            boolean stays = gap <= j ? gap < h && h <= j : gap < h || h <= j;
            if (!stays) {
                slotKey[gap] = slotKey[j];
                slotNode[gap] = slotNode[j];
                gap = j;
            }
        }
        slotNode[gap] = EMPTY;
    }

    private void unlink(int node) {
        int p = prev[node];
        int n = next[node];
        if (p == EMPTY) {
            oldest = n;
        } else {
            next[p] = n;
        }
        if (n == EMPTY) {
            newest = p;
        } else {
            prev[n] = p;
        }
    }

    private void append(int node) {
        prev[node] = newest;
        next[node] = EMPTY;
        if (newest == EMPTY) {
            oldest = node;
        } else {
            next[newest] = node;
        }
        newest = node;
    }
}
