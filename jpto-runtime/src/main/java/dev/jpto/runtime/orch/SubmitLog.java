package dev.jpto.runtime.orch;

import dev.jpto.runtime.CoreType;
import java.util.Arrays;

/**
 * Every task the orchestrator submitted in the current run, in submit order, with its kernel, core type and
 * producers: the graph the device estimate replays. Unlike the runtime's fanins it keeps edges to producers that had
 * already retired when the consumer was submitted (the host ran them early; the device may not have): per buffer the
 * last task that wrote it is remembered for the whole run. Kept between runs (no allocation in a steady run).
 */
public final class SubmitLog {
    private static final long EMPTY = -1;

    private long[] ids = new long[256];
    private String[] kernels = new String[256];
    private CoreType[] coreTypes = new CoreType[256];
    /** Task i's producers are {@code preds[predStart[i] .. predStart[i + 1])}. */
    private int[] predStart = new int[257];
    private long[] preds = new long[512];
    private int size;
    private int predSize;

    /** Open addressing: buffer address → last writer's task id. */
    private long[] keys = new long[1024];
    private long[] writers = new long[1024];
    private int used;

    {
        Arrays.fill(keys, EMPTY);
    }

    void reset() {
        size = 0;
        predSize = 0;
        if (used > 0) {
            Arrays.fill(keys, EMPTY);
            used = 0;
        }
    }

    /** Starts task {@code id}'s record; its producers follow through {@link #addPred}. */
    void begin(long id, String kernel, CoreType coreType) {
        if (size + 1 == ids.length) {
            int n = ids.length * 2;
            ids = Arrays.copyOf(ids, n);
            kernels = Arrays.copyOf(kernels, n);
            coreTypes = Arrays.copyOf(coreTypes, n);
            predStart = Arrays.copyOf(predStart, n + 1);
        }
        ids[size] = id;
        kernels[size] = kernel;
        coreTypes[size] = coreType;
        predStart[size] = predSize;
        size++;
        predStart[size] = predSize;
    }

    /** Adds a producer of the task begun last (duplicates are harmless: the replay folds them). */
    void addPred(long producer) {
        if (predSize == preds.length) {
            preds = Arrays.copyOf(preds, predSize * 2);
        }
        preds[predSize++] = producer;
        predStart[size] = predSize;
    }

    /** The last task that wrote the buffer at {@code address} in this run, or -1. */
    long lastWriter(long address) {
        int i = slot(address);
        return keys[i] == EMPTY ? -1 : writers[i];
    }

    void wrote(long address, long taskId) {
        int i = slot(address);
        if (keys[i] == EMPTY) {
            if (2 * (used + 1) > keys.length) {
                grow();
                i = slot(address);
            }
            keys[i] = address;
            used++;
        }
        writers[i] = taskId;
    }

    private int slot(long address) {
        int mask = keys.length - 1;
        int i = (int) (mix(address) & mask);
        while (keys[i] != EMPTY && keys[i] != address) {
            i = (i + 1) & mask;
        }
        return i;
    }

    private static long mix(long a) {
        long h = a * 0x9E3779B97F4A7C15L;
        return h ^ (h >>> 29);
    }

    private void grow() {
        long[] oldKeys = keys;
        long[] oldWriters = writers;
        keys = new long[oldKeys.length * 2];
        writers = new long[oldKeys.length * 2];
        Arrays.fill(keys, EMPTY);
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldKeys[j] != EMPTY) {
                int i = slot(oldKeys[j]);
                keys[i] = oldKeys[j];
                writers[i] = oldWriters[j];
            }
        }
    }

    public int size() {
        return size;
    }

    public long id(int i) {
        return ids[i];
    }

    public String kernel(int i) {
        return kernels[i];
    }

    public CoreType coreType(int i) {
        return coreTypes[i];
    }

    public int predCount(int i) {
        return predStart[i + 1] - predStart[i];
    }

    public long pred(int i, int k) {
        return preds[predStart[i] + k];
    }
}
