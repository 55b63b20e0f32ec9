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
import java.util.TreeMap;

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

    /** Per buffer address: the writes not yet covered by a later write. */
    private final Map<Long, BufferWrites> writes = new HashMap<>();
    private final long[][] scratch = new long[4][TensorMap.MAX_DIMS];
    /** The writes near the view being read or written (reused). */
    private final List<Write> near = new ArrayList<>();

    /** A task's write of a view, with the bytes {@code [lo, hi]} the view can touch. */
    private record Write(long task, Tensor view, long lo, long hi) {
        static Write of(long task, Tensor view) {
            long lo = view.offset();
            long hi = view.offset();
            for (int d = 0; d < view.rank(); d++) {
                long reach = (view.shape(d) - 1) * view.stride(d);
                if (reach < 0) {
                    lo += reach;
                } else {
                    hi += reach;
                }
            }
            long size = view.dtype().byteSize();
            return new Write(task, view, lo * size, (hi + 1) * size - 1);
        }
    }

    /**
     * One buffer's live writes. A view needs the overlap check only against writes whose byte range meets its own;
     * while a buffer has few writes a scan finds them, and past {@value #INDEX_FROM} they are indexed by their first
     * byte, so many disjoint writes of one buffer (a tile loop over a large tensor) cost a tree lookup each instead
     * of a scan of all earlier ones (quadratic: 40 s for 66,560 one-element writes).
     */
    private static final class BufferWrites {
        private static final int INDEX_FROM = 16;
        private final List<Write> few = new ArrayList<>(2);
        /** Null while {@link #few} holds the writes. */
        private TreeMap<Long, List<Write>> byLo;
        /** The widest range ever added: a write meeting {@code [lo, hi]} starts at or after lo - maxSpan. */
        private long maxSpan;

        /** Fills {@code out} with the writes whose byte range meets {@code w}'s, each once. */
        void near(Write w, List<Write> out) {
            out.clear();
            if (byLo == null) {
                for (int i = 0; i < few.size(); i++) { // no iterator per submit
                    Write x = few.get(i);
                    if (x.hi >= w.lo && x.lo <= w.hi) {
                        out.add(x);
                    }
                }
                return;
            }
            long from = Math.max(Long.MIN_VALUE + maxSpan, w.lo) - maxSpan;
            for (List<Write> atLo : byLo.subMap(from, true, w.hi, true).values()) {
                for (Write x : atLo) {
                    if (x.hi >= w.lo) {
                        out.add(x);
                    }
                }
            }
        }

        void add(Write w) {
            maxSpan = Math.max(maxSpan, w.hi - w.lo);
            if (byLo != null) {
                index(w);
                return;
            }
            few.add(w);
            if (few.size() > INDEX_FROM) {
                byLo = new TreeMap<>();
                few.forEach(this::index);
                few.clear();
            }
        }

        void remove(Write w) {
            if (byLo == null) {
                few.remove(w);
                return;
            }
            List<Write> atLo = byLo.get(w.lo);
            atLo.remove(w);
            if (atLo.isEmpty()) {
                byLo.remove(w.lo);
            }
        }

        private void index(Write w) {
            byLo.computeIfAbsent(w.lo, k -> new ArrayList<>(1)).add(w);
        }
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
        BufferWrites buffer = writes.get(view.bufferAddress());
        if (buffer == null) {
            return;
        }
        buffer.near(Write.of(-1, view), near);
        for (int i = 0; i < near.size(); i++) {
            Write w = near.get(i);
            if (overlap(view, w.view) != Overlap.NO_OVERLAP) {
                addPred(w.task);
            }
        }
    }

    /**
     * Task {@code taskId}, the task begun last, writes {@code view}. A write it covers can no longer be read only if
     * this task waits for its writer (an INOUT read it, or a dependency names it): an OUTPUT_EXISTING write of the
     * same view by a task that does not wait (the TensorMap keeps both entries) leaves the earlier writer running
     * alongside, and a later reader waits for both.
     */
    void write(long taskId, Tensor view) {
        BufferWrites buffer = writes.computeIfAbsent(view.bufferAddress(), a -> new BufferWrites());
        Write written = Write.of(taskId, view);
        buffer.near(written, near);
        for (int i = 0; i < near.size(); i++) {
            Write w = near.get(i);
            if (overlap(view, w.view) == Overlap.COVERED && waitsFor(w.task)) {
                buffer.remove(w);
            }
        }
        buffer.add(written);
    }

    /** Whether the task begun last has {@code producer} among its producers so far. */
    private boolean waitsFor(long producer) {
        for (int i = predStart[size - 1]; i < predSize; i++) {
            if (preds[i] == producer) {
                return true;
            }
        }
        return false;
    }

    /** Task {@code taskId} created {@code buffer} (a heap output): what earlier tasks wrote there is gone. */
    void created(long taskId, Tensor buffer) {
        BufferWrites fresh = new BufferWrites();
        fresh.add(Write.of(taskId, buffer));
        writes.put(buffer.bufferAddress(), fresh);
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
