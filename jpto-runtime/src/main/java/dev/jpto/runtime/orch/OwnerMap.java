package dev.jpto.runtime.orch;

import java.util.Arrays;

/**
 * Heap-buffer address → creating task id, orchestrator-owned: how a consumer of a runtime OUTPUT finds its
 * creator (simpler keeps {@code owner_task_id} inside the tensor). Open addressing with linear probing and
 * backward-shift deletion; grows only when half full, so steady state allocates nothing.
 */
final class OwnerMap {
    static final long NONE = -1;
    private long[] keys;
    private long[] values;
    private int mask;
    private int size;

    OwnerMap(int initialCapacityPow2) {
        keys = new long[initialCapacityPow2];
        values = new long[initialCapacityPow2];
        mask = initialCapacityPow2 - 1;
    }

    private static int hash(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    long get(long key) {
        for (int i = hash(key) & mask; ; i = (i + 1) & mask) {
            long k = keys[i];
            if (k == key) {
                return values[i];
            }
            if (k == 0) {
                return NONE;
            }
        }
    }

    void put(long key, long value) {
        if ((size + 1) * 2 > keys.length) {
            grow();
        }
        for (int i = hash(key) & mask; ; i = (i + 1) & mask) {
            long k = keys[i];
            if (k == key) {
                values[i] = value;
                return;
            }
            if (k == 0) {
                keys[i] = key;
                values[i] = value;
                size++;
                return;
            }
        }
    }

    /** Removes {@code key} only if it still maps to {@code value} (a newer owner keeps it). */
    void remove(long key, long value) {
        int i = hash(key) & mask;
        while (true) {
            long k = keys[i];
            if (k == 0) {
                return;
            }
            if (k == key) {
                break;
            }
            i = (i + 1) & mask;
        }
        if (values[i] != value) {
            return;
        }
        // Backward-shift: pull later entries of the probe run into the hole.
        int hole = i;
        int j = i;
        while (true) {
            j = (j + 1) & mask;
            long k = keys[j];
            if (k == 0) {
                break;
            }
            int home = hash(k) & mask;
            boolean movable = hole <= j ? (home <= hole || home > j) : (home <= hole && home > j);
            if (movable) {
                keys[hole] = k;
                values[hole] = values[j];
                hole = j;
            }
        }
        keys[hole] = 0;
        values[hole] = 0;
        size--;
    }

    int size() {
        return size;
    }

    void clear() {
        Arrays.fill(keys, 0);
        size = 0;
    }

    private void grow() {
        long[] ok = keys;
        long[] ov = values;
        keys = new long[ok.length * 2];
        values = new long[ok.length * 2];
        mask = keys.length - 1;
        size = 0;
        for (int i = 0; i < ok.length; i++) {
            if (ok[i] != 0) {
                put(ok[i], ov[i]);
            }
        }
    }
}
