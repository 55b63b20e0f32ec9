package dev.jpto.runtime.orch;

import dev.jpto.isa.Tensor;
import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.tensormap.Overlap;
import dev.jpto.runtime.tensormap.TensorMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every task the orchestrator submitted in the current run, in submit order, with its kernel, core type and
 * producers: the graph the device estimate replays. The producers come from the program alone, never from the host's
 * timing: unlike the runtime's TensorMap, which forgets writers once they retire (the host ran them early; the device
 * may not have), this log keeps every write of the run until a later write covers it, and finds a read's producers
 * with the TensorMap's own overlap rule. Its arrays are kept between runs.
 */
public final class SubmitLog {
    private long[] ids = new long[256];
    private String[] kernels = new String[256];
    private CoreType[] coreTypes = new CoreType[256];
    private int[] blocks = new int[256];
    /** Task i's producers are {@code preds[predStart[i] .. predStart[i + 1])}. */
    private int[] predStart = new int[257];
    private long[] preds = new long[512];
    private int size;
    private int predSize;

    /** Per buffer address: the writes not yet covered by a later write, in submit order. */
    private final Map<Long, List<Write>> writes = new HashMap<>();
    private final long[][] scratch = new long[4][TensorMap.MAX_DIMS];

    /** A task's write of a view. */
    private record Write(long task, Tensor view) {
    }

    void reset() {
        size = 0;
        predSize = 0;
        Arrays.fill(kernels, null);
        writes.clear();
    }

    /** Starts task {@code id}'s record; its producers follow through {@link #read}. */
    void begin(long id, String kernel, CoreType coreType, int blockNum) {
        if (size + 1 == ids.length) {
            int n = ids.length * 2;
            ids = Arrays.copyOf(ids, n);
            kernels = Arrays.copyOf(kernels, n);
            coreTypes = Arrays.copyOf(coreTypes, n);
            blocks = Arrays.copyOf(blocks, n);
            predStart = Arrays.copyOf(predStart, n + 1);
        }
        ids[size] = id;
        kernels[size] = kernel;
        coreTypes[size] = coreType;
        blocks[size] = blockNum;
        predStart[size] = predSize;
        size++;
        predStart[size] = predSize;
    }

    /** Adds a producer of the task begun last (duplicates are harmless: the replay folds them). */
    private void addPred(long producer) {
        if (predSize == preds.length) {
            preds = Arrays.copyOf(preds, predSize * 2);
        }
        preds[predSize++] = producer;
        predStart[size] = predSize;
    }

    /** Adds an explicit dependency of the task begun last. */
    void explicit(long producer) {
        addPred(producer);
    }

    /** Adds, as producers of the task begun last, every earlier task whose write overlaps {@code view}. */
    void read(Tensor view) {
        List<Write> list = writes.get(view.bufferAddress());
        if (list != null) {
            for (Write w : list) {
                if (overlap(view, w.view) != Overlap.NO_OVERLAP) {
                    addPred(w.task);
                }
            }
        }
    }

    /** Task {@code taskId} writes {@code view}: the writes it covers can no longer be read. */
    void write(long taskId, Tensor view) {
        List<Write> list = writes.computeIfAbsent(view.bufferAddress(), a -> new ArrayList<>(2));
        int kept = 0;
        for (int i = 0; i < list.size(); i++) { // in place: no iterator or lambda per submit
            Write w = list.get(i);
            if (overlap(view, w.view) != Overlap.COVERED) {
                list.set(kept++, w);
            }
        }
        while (list.size() > kept) {
            list.removeLast();
        }
        list.add(new Write(taskId, view));
    }

    /** Task {@code taskId} created {@code buffer} (a heap output): what earlier tasks wrote there is gone. */
    void created(long taskId, Tensor buffer) {
        List<Write> list = writes.computeIfAbsent(buffer.bufferAddress(), a -> new ArrayList<>());
        list.clear();
        list.add(new Write(taskId, buffer));
    }

    /** {@link Overlap#check} of a new view {@code a} against an earlier write's {@code b}, as the TensorMap does. */
    private int overlap(Tensor a, Tensor b) {
        int n = a.rank();
        if (n != b.rank() || a.dtype() != b.dtype() || n > TensorMap.MAX_DIMS) {
            return Overlap.OTHER;
        }
        long[] aShape = scratch[0], aStride = scratch[1], bShape = scratch[2], bStride = scratch[3];
        for (int d = 0; d < n; d++) {
            aShape[d] = a.shape(d);
            aStride[d] = a.stride(d);
            bShape[d] = b.shape(d);
            bStride[d] = b.stride(d);
        }
        return Overlap.check(n, a.buffer().byteSize() / a.dtype().byteSize(), a.offset(), aShape, aStride, b.offset(),
                bShape, bStride);
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

    /** Block count of task {@code i} (1 for a one-block task). */
    public int blocks(int i) {
        return blocks[i];
    }

    public int predCount(int i) {
        return predStart[i + 1] - predStart[i];
    }

    public long pred(int i, int k) {
        return preds[predStart[i] + k];
    }
}
