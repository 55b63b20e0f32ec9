package dev.jpto.runtime.tensormap;

import dev.jpto.isa.Tensor;
import java.util.Arrays;

/**
 * Producer lookup by buffer address (spec c.2–c.4), orchestrator-owned. A fixed pool of
 * {@value #POOL_SIZE} entries in {@value #NUM_BUCKETS} buckets; the key is the buffer's base address, so
 * all views of one buffer share a bucket. Each entry copies the producer's view (offset, shape, strides).
 * An entry is valid while its producer has not retired ({@code local ≥ last_task_alive} of its ring);
 * lookups skip stale entries, and {@link #cleanupRetired} frees them in task order.
 *
 * <p>Structure of arrays, no allocation after construction. Entries are linked twice: into their bucket
 * chain and into the chain of their producer's (ring, slot), both doubly linked for O(1) removal.
 */
public final class TensorMap {
    public static final int POOL_SIZE = 65536;
    public static final int NUM_BUCKETS = 4096;
    public static final int MAX_DIMS = 8;
    /** Cleanup runs when a ring's last_task_alive moved this far (PTO2_TENSORMAP_CLEANUP_INTERVAL). */
    public static final int CLEANUP_INTERVAL = 64;

    private static final int NIL = -1;
    private static final int BUCKET_SHIFT = 64 - Integer.numberOfTrailingZeros(NUM_BUCKETS);

    /** What {@link #lookup} reports per match. */
    public interface Sink {
        void producer(long producerId);
    }

    private final int capacity;
    private final long[] addr;
    private final long[] producer;
    private final long[] offset;
    private final int[] ndims;
    private final int[] dtype;
    private final long[] shape;
    private final long[] stride;
    private final int[] bNext;
    private final int[] bPrev;
    private final int[] tNext;
    private final int[] tPrev;
    private final int[] bucketHead = new int[NUM_BUCKETS];
    private final int[][] taskHead;
    private final int[] freeStack;
    private int freeNum;
    private int nextIdx;
    private int highWater;
    /** Overlap kind of the match being reported to a {@link Sink} (for the dependency graph). */
    private int lastOverlap;

    private final long[] lastAlive = new long[4];
    private final long[] lastCleanup = new long[4];
    private final int[] windowMask = new int[4];

    private final long[] scratchShape = new long[MAX_DIMS];
    private final long[] scratchStride = new long[MAX_DIMS];

    public TensorMap(int[] windows) {
        this(POOL_SIZE, windows);
    }

    /** A pool of {@code capacity} entries (tests only; the runtime always uses {@link #POOL_SIZE}). */
    public TensorMap(int capacity, int[] windows) {
        this.capacity = capacity;
        addr = new long[capacity];
        producer = new long[capacity];
        offset = new long[capacity];
        ndims = new int[capacity];
        dtype = new int[capacity];
        shape = new long[capacity * MAX_DIMS];
        stride = new long[capacity * MAX_DIMS];
        bNext = new int[capacity];
        bPrev = new int[capacity];
        tNext = new int[capacity];
        tPrev = new int[capacity];
        freeStack = new int[capacity];
        taskHead = new int[windows.length][];
        for (int r = 0; r < windows.length; r++) {
            taskHead[r] = new int[windows[r]];
            windowMask[r] = windows[r] - 1;
        }
        Arrays.fill(bucketHead, NIL);
        for (int[] t : taskHead) {
            Arrays.fill(t, NIL);
        }
        reset();
    }

    /** Empties the map; cheap when every entry was already freed (the end of a clean run). */
    public void reset() {
        if (used() != 0) { // with no entry in use every chain is already empty
            Arrays.fill(bucketHead, NIL);
            for (int[] t : taskHead) {
                Arrays.fill(t, NIL);
            }
        }
        freeNum = 0;
        nextIdx = 0;
        highWater = 0;
        Arrays.fill(lastAlive, 0);
        Arrays.fill(lastCleanup, 0);
    }

    public int capacity() {
        return capacity;
    }

    /** Entries in use: {@code next_idx − free_num}. */
    public int used() {
        return nextIdx - freeNum;
    }

    public int free() {
        return capacity - used();
    }

    /** The {@link Overlap} kind of the match {@link #lookup} is reporting; valid inside {@link Sink#producer}. */
    public int lastOverlap() {
        return lastOverlap;
    }

    public int highWater() {
        return highWater;
    }

    static int bucketOf(long address) {
        return (int) ((address * 0x9E3779B97F4A7C15L) >>> BUCKET_SHIFT);
    }

    private static int ringOf(long id) {
        return (int) (id >>> 32);
    }

    private static long localOf(long id) {
        return id & 0xFFFF_FFFFL;
    }

    /** Updates the cached {@code last_task_alive} of a ring (validity of its entries). */
    public void setLastAlive(int ring, long ringLastAlive) {
        lastAlive[ring] = ringLastAlive;
    }

    /**
     * Whether cleanup of {@code ring} is due: its tail moved {@value #CLEANUP_INTERVAL} tasks since the last
     * cleanup, or the slot about to be reused ({@code newTaskSlot}, −1 for none) is the oldest uncleaned one.
     */
    public boolean cleanupDue(int ring, long ringLastAlive, int newTaskSlot) {
        long since = lastCleanup[ring];
        return ringLastAlive - since >= CLEANUP_INTERVAL
                || (ringLastAlive > since && (since & windowMask[ring]) == newTaskSlot);
    }

    /** Frees the entries of tasks {@code [last_cleanup, lastAlive)} of {@code ring}; returns entries freed. */
    public int cleanupRetired(int ring, long ringLastAlive) {
        lastAlive[ring] = Math.max(lastAlive[ring], ringLastAlive);
        int freed = 0;
        for (long id = lastCleanup[ring]; id < ringLastAlive; id++) {
            int slot = (int) id & windowMask[ring];
            long raw = ((long) ring << 32) | id;
            int e = taskHead[ring][slot];
            while (e != NIL) {
                int nx = tNext[e];
                if (producer[e] == raw) {
                    remove(e);
                    freed++;
                }
                e = nx;
            }
        }
        lastCleanup[ring] = Math.max(lastCleanup[ring], ringLastAlive);
        return freed;
    }

    private boolean valid(int e) {
        long p = producer[e];
        return localOf(p) >= lastAlive[ringOf(p)];
    }

    /**
     * Reports the producer of every valid entry on {@code t}'s buffer that overlaps {@code t}; when
     * {@code inout}, a COVERED entry is removed (the new writer supersedes it).
     */
    public void lookup(Tensor t, boolean inout, Sink sink) {
        long a = t.bufferAddress();
        int e = bucketHead[bucketOf(a)];
        if (e == NIL) {
            return;
        }
        int n = t.rank();
        int dt = t.dtype().ordinal();
        long stor = -1; // the view is copied to the scratch arrays at the first candidate only
        while (e != NIL) {
            int nx = bNext[e];
            if (addr[e] == a && valid(e)) {
                int ov;
                if (ndims[e] != n || dtype[e] != dt || n > MAX_DIMS) {
                    ov = Overlap.OTHER;
                } else {
                    if (stor < 0) {
                        for (int d = 0; d < n; d++) {
                            scratchShape[d] = t.shape(d);
                            scratchStride[d] = t.stride(d);
                        }
                        stor = t.buffer().byteSize() / t.dtype().byteSize();
                    }
                    ov = Overlap.check(n, stor, t.offset(), scratchShape, scratchStride, 0,
                            offset[e], shape, stride, e * MAX_DIMS);
                }
                if (ov != Overlap.NO_OVERLAP) {
                    lastOverlap = ov;
                    sink.producer(producer[e]);
                    if (inout && ov == Overlap.COVERED) {
                        remove(e);
                    }
                }
            }
            e = nx;
        }
    }

    /** Registers {@code t} as written by {@code producerId}; the caller ensured a free entry. */
    public void insert(Tensor t, long producerId) {
        if (t.rank() > MAX_DIMS) {
            throw new IllegalArgumentException("tensor " + t + " has rank " + t.rank() + "; the TensorMap holds at most "
                    + MAX_DIMS + " dimensions");
        }
        int e;
        if (freeNum > 0) {
            e = freeStack[--freeNum];
        } else if (nextIdx < capacity) {
            e = nextIdx++;
        } else {
            throw new IllegalStateException("TensorMap pool exhausted without ensure_capacity: " + capacity);
        }
        long a = t.bufferAddress();
        addr[e] = a;
        producer[e] = producerId;
        offset[e] = t.offset();
        ndims[e] = t.rank();
        dtype[e] = t.dtype().ordinal();
        for (int d = 0; d < t.rank(); d++) {
            shape[e * MAX_DIMS + d] = t.shape(d);
            stride[e * MAX_DIMS + d] = t.stride(d);
        }
        int b = bucketOf(a);
        bPrev[e] = NIL;
        bNext[e] = bucketHead[b];
        if (bucketHead[b] != NIL) {
            bPrev[bucketHead[b]] = e;
        }
        bucketHead[b] = e;
        int r = ringOf(producerId);
        int s = (int) localOf(producerId) & windowMask[r];
        tPrev[e] = NIL;
        tNext[e] = taskHead[r][s];
        if (taskHead[r][s] != NIL) {
            tPrev[taskHead[r][s]] = e;
        }
        taskHead[r][s] = e;
        highWater = Math.max(highWater, used());
    }

    private void remove(int e) {
        int b = bucketOf(addr[e]);
        if (bPrev[e] != NIL) bNext[bPrev[e]] = bNext[e]; else bucketHead[b] = bNext[e];
        if (bNext[e] != NIL) bPrev[bNext[e]] = bPrev[e];
        long p = producer[e];
        int r = ringOf(p);
        int s = (int) localOf(p) & windowMask[r];
        if (tPrev[e] != NIL) tNext[tPrev[e]] = tNext[e]; else taskHead[r][s] = tNext[e];
        if (tNext[e] != NIL) tPrev[tNext[e]] = tPrev[e];
        producer[e] = -1;
        addr[e] = 0;
        freeStack[freeNum++] = e;
    }
}
