package dev.jpto.runtime.tensormap;

import dev.jpto.isa.Tensor;
import dev.jpto.runtime.RingField;
import java.util.Arrays;

/**
 * Producer lookup by buffer address (spec c.2–c.4), orchestrator-owned. A fixed pool of
 * {@value #POOL_SIZE} entries in {@value #NUM_BUCKETS} buckets; the key is the buffer's base address, so
 * all views of one buffer share a bucket. Each entry copies the producer's view (offset, shape, strides).
 * An entry is valid while its producer has not retired ({@code local ≥ last_task_alive} of its ring);
 * lookups skip stale entries, and {@link #cleanupRetired} frees them in task order.
 *
 * <p>No allocation after construction. Each entry is one record of {@value #ES} longs in {@link #ent} (array
 * of structs): a bucket walk reads address, producer and next link from one cache line, and a match finds
 * offset, rank, dtype and the first dimensions beside them, where separate arrays per field cost a cache line
 * each. Entries are linked twice: into their bucket chain and into the chain of their producer's (ring, slot),
 * both doubly linked for O(1) removal.
 */
public final class TensorMap {
    public static final int POOL_SIZE = 65536;
    public static final int NUM_BUCKETS = 4096;
    public static final int MAX_DIMS = 8;
    /** Cleanup runs when a ring's last_task_alive moved this far (PTO2_TENSORMAP_CLEANUP_INTERVAL). */
    public static final int CLEANUP_INTERVAL = 64;

    private static final int NIL = -1;
    /** The {@code self} of a lookup that runs for no task (a scalar read, the compiler's planner). */
    public static final long NO_TASK = -1;
    private static final int BUCKET_SHIFT = 64 - Integer.numberOfTrailingZeros(NUM_BUCKETS);

    /** What {@link #lookup} reports per match. */
    public interface Sink {
        void producer(long producerId);
    }

    /**
     * Record layout: the fields a bucket walk reads first, the match fields, then (extent, stride) pairs per
     * dimension, so that matching a 1-D or 2-D view reads the record's first cache line or two; the links
     * needed only to remove an entry come last.
     */
    private static final int ADDR = 0;
    private static final int PRODUCER = 1;
    private static final int B_NEXT = 2;
    /** {@code ndims | dtype << 32}. */
    private static final int META = 3;
    private static final int OFFSET = 4;
    /** Extent of dimension {@code d} at {@code DIMS + 2d}, its stride at {@code DIMS + 2d + 1}. */
    private static final int DIMS = 5;
    private static final int B_PREV = DIMS + 2 * MAX_DIMS;
    private static final int T_NEXT = B_PREV + 1;
    private static final int T_PREV = B_PREV + 2;
    private static final int ES = B_PREV + 3;

    private final int capacity;
    /** Entry {@code e} occupies {@code ent[e * ES .. e * ES + ES)}; links are entry indices or {@link #NIL}. */
    private final long[] ent;
    private final int[] bucketHead = new int[NUM_BUCKETS];
    private final int[][] taskHead;
    private final int[] freeStack;
    private int freeNum;
    private int nextIdx;
    /** Overlap kind of the match being reported to a {@link Sink} (for the dependency graph). */
    private int lastOverlap;

    private final long[] lastAlive = new long[RingField.RINGS];
    private final long[] lastCleanup = new long[RingField.RINGS];
    private final int[] windowMask = new int[RingField.RINGS];

    /** Elements in the looked-up view's buffer, or −1 until {@link #generalOverlap} first needs it in a lookup. */
    private long viewStorage;
    /** The looked-up view. */
    private final long[] scratchShape = new long[MAX_DIMS];
    private final long[] scratchStride = new long[MAX_DIMS];
    /** An entry's view, copied out of its record for the general overlap test. */
    private final long[] entryShape = new long[MAX_DIMS];
    private final long[] entryStride = new long[MAX_DIMS];

    /** Java heap of a TensorMap over rings of {@code slots} task slots in all: the entry pool plus a head per slot. */
    public static long javaHeapBytes(long slots) {
        return (long) POOL_SIZE * (ES * Long.BYTES + Integer.BYTES) + slots * Integer.BYTES;
    }

    public TensorMap(int[] windows) {
        this(POOL_SIZE, windows);
    }

    /** A pool of {@code capacity} entries (tests only; the runtime always uses {@link #POOL_SIZE}). */
    public TensorMap(int capacity, int[] windows) {
        this.capacity = capacity;
        ent = new long[Math.multiplyExact(capacity, ES)];
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

    /**
     * Peak entries in use since the last reset: {@code next_idx}. An entry comes from the never-used rest of the pool
     * only when the free stack is empty, so that is when use reaches a new peak, and the peak is then {@code next_idx}.
     */
    public int highWater() {
        return nextIdx;
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
                int nx = (int) ent[e * ES + T_NEXT];
                if (ent[e * ES + PRODUCER] == raw) {
                    remove(e);
                    freed++;
                }
                e = nx;
            }
        }
        lastCleanup[ring] = Math.max(lastCleanup[ring], ringLastAlive);
        return freed;
    }

    private boolean validProducer(long p) {
        return localOf(p) >= lastAlive[ringOf(p)];
    }

    /**
     * Reports the producer of every valid entry on {@code t}'s buffer that overlaps {@code t}; when
     * {@code inout}, a COVERED entry is removed (the new writer supersedes it).
     */
    public void lookup(Tensor t, boolean inout, Sink sink) {
        lookup(t, inout, NO_TASK, sink);
    }

    /**
     * {@link #lookup(Tensor, boolean, Sink)} for task {@code self} ({@link #NO_TASK} for none), which skips the
     * task's own entries. When {@code inout}, the first COVERED entry of exactly {@code t}'s view passes to
     * {@code self} in place instead of being removed (the common update of one tile: a remove and an insert
     * become one relink), and true is returned: the caller then registers nothing more for {@code t}.
     */
    public boolean lookup(Tensor t, boolean inout, long self, Sink sink) {
        long a = t.bufferAddress();
        boolean reowned = false;
        viewStorage = -1;
        for (int e = bucketHead[bucketOf(a)]; e != NIL; ) {
            int b = e * ES;
            int next = (int) ent[b + B_NEXT];
            long p = ent[b + PRODUCER];
            if (ent[b + ADDR] == a && p != self && validProducer(p)) {
                boolean same = sameView(b, t);
                int ov = same ? (nonEmpty(t) ? Overlap.COVERED : Overlap.NO_OVERLAP) : generalOverlap(b, t);
                if (ov != Overlap.NO_OVERLAP) {
                    lastOverlap = ov;
                    sink.producer(p);
                    if (inout && ov == Overlap.COVERED) {
                        if (same && !reowned && self != NO_TASK) {
                            reown(e, p, self);
                            reowned = true;
                        } else {
                            remove(e);
                        }
                    }
                }
            }
            e = next;
        }
        return reowned;
    }

    /**
     * Whether entry {@code b} records exactly {@code t}'s view (rank, dtype, offset, extents, strides): the common
     * re-access of one tile, decided without the general test. No entry has more than {@value #MAX_DIMS} dimensions,
     * so a larger rank fails the first comparison.
     */
    private boolean sameView(int b, Tensor t) {
        int n = t.rank();
        if (ent[b + META] != meta(t) || ent[b + OFFSET] != t.offset()) {
            return false;
        }
        for (int d = 0; d < n; d++) {
            if (ent[b + DIMS + 2 * d] != t.shape(d) || ent[b + DIMS + 2 * d + 1] != t.stride(d)) {
                return false;
            }
        }
        return true;
    }

    /** An entry's {@code META} word for view {@code t}: its rank, and its dtype above bit 32. */
    private static long meta(Tensor t) {
        return t.rank() | (long) t.dtype().ordinal() << 32;
    }

    private static boolean nonEmpty(Tensor t) {
        for (int d = 0; d < t.rank(); d++) {
            if (t.shape(d) == 0) {
                return false;
            }
        }
        return true;
    }

    /** {@link Overlap#check} of entry {@code b} against another view {@code t} of the same buffer. */
    private int generalOverlap(int b, Tensor t) {
        int n = t.rank();
        if (ent[b + META] != meta(t)) { // so n <= MAX_DIMS, as every entry's rank
            return Overlap.OTHER;
        }
        if (viewStorage < 0) { // the looked-up view is copied once per lookup, at its first entry of another view
            for (int d = 0; d < n; d++) {
                scratchShape[d] = t.shape(d);
                scratchStride[d] = t.stride(d);
            }
            viewStorage = t.buffer().byteSize() / t.dtype().byteSize();
        }
        for (int d = 0; d < n; d++) {
            entryShape[d] = ent[b + DIMS + 2 * d];
            entryStride[d] = ent[b + DIMS + 2 * d + 1];
        }
        return Overlap.check(n, viewStorage, t.offset(), scratchShape, scratchStride, ent[b + OFFSET], entryShape,
                entryStride);
    }

    /** Moves entry {@code e} from {@code from}'s task chain to the head of {@code to}'s. */
    private void reown(int e, long from, long to) {
        unlinkFromTask(e, from);
        linkToTask(e, to);
        ent[e * ES + PRODUCER] = to;
    }

    /** Registers {@code t} as written by {@code producerId}; the caller ensured a free entry. */
    public void insert(Tensor t, long producerId) {
        int n = t.rank();
        if (n > MAX_DIMS) {
            throw tooManyDims(t);
        }
        int e = takeEntry();
        long a = t.bufferAddress();
        int base = e * ES;
        ent[base + ADDR] = a;
        ent[base + PRODUCER] = producerId;
        ent[base + META] = meta(t);
        ent[base + OFFSET] = t.offset();
        for (int d = 0; d < n; d++) {
            ent[base + DIMS + 2 * d] = t.shape(d);
            ent[base + DIMS + 2 * d + 1] = t.stride(d);
        }
        linkToBucket(e, a);
        linkToTask(e, producerId);
    }

    private static IllegalArgumentException tooManyDims(Tensor t) {
        return new IllegalArgumentException("tensor " + t + " has rank " + t.rank() + "; the TensorMap holds at most "
                + MAX_DIMS + " dimensions");
    }

    /** A free entry: from the free stack, else the never-used rest of the pool (which raises {@link #highWater}). */
    private int takeEntry() {
        if (freeNum > 0) {
            return freeStack[--freeNum];
        }
        if (nextIdx == capacity) {
            throw new IllegalStateException("TensorMap pool exhausted without ensure_capacity: " + capacity);
        }
        return nextIdx++;
    }

    private void linkToBucket(int e, long address) {
        int b = bucketOf(address);
        int head = bucketHead[b];
        ent[e * ES + B_PREV] = NIL;
        ent[e * ES + B_NEXT] = head;
        if (head != NIL) {
            ent[head * ES + B_PREV] = e;
        }
        bucketHead[b] = e;
    }

    private void linkToTask(int e, long producerId) {
        int base = e * ES;
        int r = ringOf(producerId);
        int s = (int) localOf(producerId) & windowMask[r];
        int taskFirst = taskHead[r][s];
        ent[base + T_PREV] = NIL;
        ent[base + T_NEXT] = taskFirst;
        if (taskFirst != NIL) {
            ent[taskFirst * ES + T_PREV] = e;
        }
        taskHead[r][s] = e;
    }

    private void unlinkFromTask(int e, long producerId) {
        int base = e * ES;
        int r = ringOf(producerId);
        int s = (int) localOf(producerId) & windowMask[r];
        int tPrev = (int) ent[base + T_PREV];
        int tNext = (int) ent[base + T_NEXT];
        if (tPrev != NIL) ent[tPrev * ES + T_NEXT] = tNext; else taskHead[r][s] = tNext;
        if (tNext != NIL) ent[tNext * ES + T_PREV] = tPrev;
    }

    private void remove(int e) {
        int base = e * ES;
        int bPrev = (int) ent[base + B_PREV];
        int bNext = (int) ent[base + B_NEXT];
        if (bPrev != NIL) ent[bPrev * ES + B_NEXT] = bNext; else bucketHead[bucketOf(ent[base + ADDR])] = bNext;
        if (bNext != NIL) ent[bNext * ES + B_PREV] = bPrev;
        unlinkFromTask(e, ent[base + PRODUCER]);
        ent[base + PRODUCER] = -1;
        ent[base + ADDR] = 0;
        freeStack[freeNum++] = e;
    }
}
