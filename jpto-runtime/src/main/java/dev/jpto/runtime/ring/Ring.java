package dev.jpto.runtime.ring;

import dev.jpto.isa.Tensor;
import dev.jpto.runtime.Arg;
import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.MixedKernels;
import dev.jpto.runtime.TaskBody;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * One ring set (task window, heap, dep pool) with its preallocated task slots.
 *
 * <p>Slot state shared between threads lives in {@link #shared}: one 64-byte line per slot (like simpler's
 * {@code PTO2TaskSlotState}) so that workers completing neighbouring tasks do not false-share. Fields:
 * <pre>
 *  int  0 STATE            PENDING / COMPLETED / CONSUMED        (release/acquire)
 *  int  1 LOCK             fanout lock                           (CAS / release)
 *  int  2 FANOUT_COUNT     SCOPE_BIT | claimed consumers         (under LOCK)
 *  int  3 FANOUT_REFCOUNT  released references                   (atomic add)
 *  int  4 FANIN_COUNT      wait edges + 1 guard                  (set before wiring)
 *  int  5 FANIN_REFCOUNT   satisfied edges + guard               (atomic add; ready when ≥ count)
 *  int  6 FANOUT_HEAD      fanout list head, low and high word   (under LOCK)
 *  int  8 RETAIN_N         RETAIN fanin edges                    (orchestrator, before the task is ready)
 *  int  9 CORE_TYPE        CoreType ordinal                      (orchestrator, before the task is ready)
 *  int 10 INLINE_N         consumers held inline                 (under LOCK)
 *  int 11 INLINE           {@value #INLINE_FANOUTS} consumer ids, low and high word each (under LOCK)
 *  int 15 KERNEL           id in {@link KernelTable}, or NONE: body and name in this slot's references
 *                                                                (orchestrator, before the task is ready)
 * </pre>
 * RETAIN_N, CORE_TYPE and the inline consumers sit here rather than in arrays of their own because the worker
 * reads them right after the orchestrator wrote them: in a per-field array, neighbouring slots share a line, so
 * each task would move that line between the cores once more per field.
 *
 * <p>Everything else per slot is written by the orchestrator before the task can become ready (the guard's
 * atomic add publishes it) and read by the worker that runs or releases it.
 *
 * <p>The ring cursors {@code current_task_index} (orchestrator) and {@code last_task_alive} (scheduler) sit
 * on separate cache lines of {@link #cursors}.
 */
public final class Ring {
    public static final int PENDING = 0;
    public static final int COMPLETED = 1;
    public static final int CONSUMED = 2;
    public static final int SCOPE_BIT = 0x8000_0000;
    /** Fanin edge flags, kept above the 34 bits a raw task id uses. */
    public static final long EDGE_RETAIN = 1L << 62;
    public static final long EDGE_WAIT = 1L << 61;
    public static final long EDGE_ID_MASK = (1L << 40) - 1;
    /** {@code PTO2_FANIN_INLINE_CAP}: fanin edges a slot holds itself; the rest spill to the {@link FaninPool}. */
    public static final int FANIN_INLINE_CAP = 64;
    /** Fanin edges a slot's record holds; the rest of the inline ones go to a per-slot array. */
    private static final int DENSE_FANINS = 3;
    /**
     * The orchestrator's per-slot record in {@link #records}: one 64-byte record per slot, written by the
     * orchestrator at submit and read back by its reclaim (and the edges by the completing thread), instead of a
     * line in each of seven per-field arrays.
     */
    private static final int R_TASK_ID = 0;
    /** {@code packed_buffer_end}: the heap offset just past the task's outputs. */
    private static final int R_HEAP_END = 1;
    /** Dep pool top after wiring the task. */
    private static final int R_DEP_MARK = 2;
    /** Linear index of the task's first spilled edge in {@link #faninSpill}. */
    private static final int R_SPILL_START = 3;
    /** Fanin edges of the task (inline and spilled) in the low word, its scope depth in the high word. */
    private static final int R_COUNTS = 4;
    private static final int R_FANINS = 5;
    private static final int RECORD = 8;
    /**
     * Records start this many longs into the array: 16 bytes of array header + 48 put record 0 on a 64-byte
     * boundary when the array itself is (G1 places arrays of half a region or more at a region start).
     */
    private static final int RECORD_BASE = 6;

    private static final int STRIDE = 16;
    private static final int LOCK_SPINS = 32;
    private static final int STATE = 0;
    private static final int LOCK = 1;
    private static final int FANOUT_COUNT = 2;
    private static final int FANOUT_REFCOUNT = 3;
    private static final int FANIN_COUNT = 4;
    private static final int FANIN_REFCOUNT = 5;
    private static final int FANOUT_HEAD = 6;
    private static final int RETAIN_N = 8;
    private static final int CORE_TYPE = 9;
    private static final int INLINE_N = 10;
    private static final int INLINE = 11;
    private static final int KERNEL = 15;
    /**
     * Consumers a producer's line holds itself before its fanout list takes dep-pool nodes. Most tasks have one or
     * two: the completing thread then reads no node, a line the orchestrator was writing (nodes are 16 bytes, four
     * to a line). Their dep-pool entries are still taken, unwritten, so pool use and its limits stay as specified.
     * Two fit the line's spare words ({@code Engine.complete} copies exactly two out under the lock).
     */
    public static final int INLINE_FANOUTS = 2;
    private static final CoreType[] CORE_TYPES = CoreType.values();

    private static final int CUR = 7;
    private static final int LAST = 15;
    private static final int ADV_LOCK = 23;
    private static final int ADV_PENDING = 31;

    /** Per-slot reference arrays: body, kernel, {@link #args}, {@link #outputs}, moreFanins, mixed. */
    private static final int SLOT_REFERENCES = 6;
    /** {@link #launch} ints per slot: block count (0: a plain one-block task), subtasks per block, next block, done. */
    private static final int LAUNCH = 4;
    private static final int L_BLOCKS = 0;
    private static final int L_LANES = 1;
    private static final int L_NEXT = 2;
    private static final int L_DONE = 3;
    /** A reference in an array, with compressed oops (heaps below 32 GiB). */
    private static final int REFERENCE_BYTES = 4;

    private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);
    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

    public final int id;
    public final TaskRing tasks;
    public final HeapRing heap;
    public final DepPool deps;
    public final FaninPool faninSpill;
    public final NativeRegion region;
    private final int mask;

    private final int[] shared;
    private final long[] cursors = new long[40];

    /** Per-slot records ({@code R_*} fields), orchestrator-owned. */
    private final long[] records;
    /**
     * Inline fanin edges (producer id | edge flags) past the {@value #DENSE_FANINS} a record holds, up to
     * {@link #FANIN_INLINE_CAP} per slot; each slot's array grows to its peak.
     */
    private final long[][] moreFanins;
    /** Kernels of the slots whose {@code KERNEL} id is NONE (the table was full). */
    private final TaskBody[] body;
    private final String[] kernel;
    private final KernelTable kernels = new KernelTable();
    /**
     * Multi-block and mixed tasks ({@code LAUNCH} ints per slot). Apart from the shared line: only such tasks touch
     * the counters, and plain tasks pay one store at reuse.
     */
    private final int[] launch;
    private final MixedKernels[] mixed;
    public final Arg[][] args;
    public final Tensor[][] outputs;

    /**
     * Java heap a ring of {@code window} slots and {@code depPool} dep-pool entries preallocates: per slot its shared
     * line, its record and its references; per dep-pool entry a fanout node and a fanin spill cell. Array headers and
     * the per-slot arrays that grow on demand are left out: a lower bound, which is what a "can never fit" check needs.
     */
    public static long javaHeapBytes(long window, long depPool) {
        long slot = (STRIDE + LAUNCH) * Integer.BYTES + RECORD * Long.BYTES + SLOT_REFERENCES * REFERENCE_BYTES;
        return window * slot + depPool * (DepPool.BYTES_PER_ENTRY + FaninPool.BYTES_PER_ENTRY);
    }

    public Ring(int id, int window, long heapBytes, int depPool, NativeRegion region) {
        this.id = id;
        this.tasks = new TaskRing(window);
        this.heap = new HeapRing(heapBytes);
        this.deps = new DepPool(id, depPool);
        this.faninSpill = new FaninPool(depPool);
        this.region = region;
        this.mask = window - 1;
        this.shared = new int[window * STRIDE];
        this.records = new long[RECORD_BASE + window * RECORD];
        this.moreFanins = new long[window][];
        this.body = new TaskBody[window];
        this.args = new Arg[window][];
        this.outputs = new Tensor[window][];
        this.kernel = new String[window];
        this.launch = new int[window * LAUNCH];
        this.mixed = new MixedKernels[window];
        reset(true);
    }

    /**
     * Prepares the ring for a new run. Slots need no clearing after a clean run: every slot is re-initialised
     * by {@link #initSlot} before a task of the new run can be seen in it, and a clean run leaves no object
     * references behind. After a failed run ({@code full}) everything is cleared.
     */
    public void reset(boolean full) {
        tasks.reset();
        heap.reset();
        deps.reset();
        faninSpill.reset();
        if (full) {
            Arrays.fill(shared, 0);
            for (int s = 0; s < window(); s++) {
                shared[s * STRIDE + STATE] = CONSUMED;
                records[rec(s) + R_TASK_ID] = -1;
            }
            Arrays.fill(body, null);
            Arrays.fill(args, null);
            Arrays.fill(kernel, null);
            Arrays.fill(outputs, null);
            Arrays.fill(mixed, null);
            Arrays.fill(launch, 0);
            kernels.clear();
        }
        Arrays.fill(cursors, 0);
        VarHandle.releaseFence();
    }

    /**
     * End of a clean run: drops the kernel references of this run's tasks. Kept while the run goes on, so that a
     * loop's next task with the same kernel need not store it again.
     */
    public void dropBodies() {
        int next = tasks.nextLocal(); // ids start at 0 each run: ids 0..next-1 sit in slots 0..next-1
        Arrays.fill(body, 0, next < 0 || next >= window() ? window() : next, null);
        kernels.clear();
    }

    /** Orchestrator, before the task can become ready: its kernel, as a table id or in the slot's references. */
    public void setKernel(int slot, TaskBody taskBody, String name) {
        int id = kernels.idOf(taskBody, name);
        shared[slot * STRIDE + KERNEL] = id;
        if (id != KernelTable.NONE) {
            return;
        }
        // A slot often gets the kernel it had a window ago: skip the reference stores (and their GC barriers).
        if (body[slot] != taskBody) {
            body[slot] = taskBody;
        }
        if (kernel[slot] != name) {
            kernel[slot] = name;
        }
    }

    /** The body of the slot's task. */
    public TaskBody body(int slot) {
        int id = shared[slot * STRIDE + KERNEL];
        return id != KernelTable.NONE ? kernels.body(id) : body[slot];
    }

    /** The kernel name of the slot's task. */
    public String kernelName(int slot) {
        int id = shared[slot * STRIDE + KERNEL];
        return id != KernelTable.NONE ? kernels.name(id) : kernel[slot];
    }

    public int window() {
        return mask + 1;
    }

    public int slotOf(long localId) {
        return (int) localId & mask;
    }

    public static long taskId(int ring, int local) {
        return ((long) ring << 32) | (local & 0xFFFF_FFFFL);
    }

    // ---- slot state -------------------------------------------------------------------------------------

    public int state(int slot) {
        return (int) INTS.getAcquire(shared, slot * STRIDE + STATE);
    }

    /**
     * Orchestrator, on reuse: the slot now holds {@code rawId}, submitted at scope depth {@code depth}; scope
     * reference seeded, nothing released, no fanin edge recorded.
     */
    public void initSlot(int slot, long rawId, int depth) {
        int b = slot * STRIDE;
        int r = rec(slot);
        records[r + R_TASK_ID] = rawId;
        records[r + R_COUNTS] = (long) depth << 32;
        // Where the task's spilled edges will start (its wiring appends them next, contiguously), and for a task that
        // spills none, the spill pool's top: spillEnd of the newest retired task is then the pool's reclaim point.
        records[r + R_SPILL_START] = faninSpill.top();
        setFanoutHead(slot, DepPool.NULL);
        shared[b + INLINE_N] = 0;
        shared[b + RETAIN_N] = 0;
        shared[b + FANOUT_COUNT] = SCOPE_BIT;
        shared[b + FANOUT_REFCOUNT] = 0;
        shared[b + FANIN_COUNT] = Integer.MAX_VALUE;
        shared[b + FANIN_REFCOUNT] = 0;
        launch[slot * LAUNCH + L_BLOCKS] = 0;
        if (mixed[slot] != null) {
            mixed[slot] = null;
        }
        INTS.setRelease(shared, b + STATE, PENDING);
    }

    // ---- multi-block and mixed tasks --------------------------------------------------------------------

    /**
     * Orchestrator, before the task can become ready: it runs {@code blockNum} blocks of {@code lanes} subtasks each
     * ({@code kernels} non-null for a mixed task). Not called for a plain one-block task.
     */
    public void setLaunch(int slot, int blockNum, int lanes, MixedKernels kernels) {
        int b = slot * LAUNCH;
        launch[b + L_BLOCKS] = blockNum;
        launch[b + L_LANES] = lanes;
        launch[b + L_NEXT] = 0;
        launch[b + L_DONE] = 0;
        mixed[slot] = kernels;
    }

    /** Whether the slot's task was submitted with {@link #setLaunch} (several blocks, or mixed). */
    public boolean multiBlock(int slot) {
        return launch[slot * LAUNCH + L_BLOCKS] != 0;
    }

    /** The slot's block count (1 for a plain task). */
    public int blockNum(int slot) {
        return Math.max(1, launch[slot * LAUNCH + L_BLOCKS]);
    }

    /** The mixed kernels of the slot's task, or null. */
    public MixedKernels mixed(int slot) {
        return mixed[slot];
    }

    /** A scheduler thread takes the next block of the slot's multi-block task; returns its index. */
    public int claimBlock(int slot) {
        return (int) INTS.getAndAdd(launch, slot * LAUNCH + L_NEXT, 1);
    }

    /** {@code n} subtasks of the slot's task finished; true for the call that finished its last one. */
    public boolean finishSubtasks(int slot, int n) {
        int b = slot * LAUNCH;
        int total = launch[b + L_BLOCKS] * launch[b + L_LANES];
        return (int) INTS.getAndAdd(launch, b + L_DONE, n) + n == total;
    }

    public void lock(int slot) {
        int i = slot * STRIDE + LOCK;
        for (int spins = 0; !INTS.weakCompareAndSetAcquire(shared, i, 0, 1); spins++) {
            // Held only for a few stores; a holder that stays longer was preempted (more threads than cores):
            // give it the CPU instead of spinning against it.
            if (spins < LOCK_SPINS) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }

    public void unlock(int slot) {
        INTS.setRelease(shared, slot * STRIDE + LOCK, 0);
    }

    /** Under lock: marks COMPLETED and returns the fanout list head seen at that instant. */
    public long markCompletedLocked(int slot) {
        // Volatile: pairs with releaseFanout + stateVolatile in a scope release that skips the lock.
        INTS.setVolatile(shared, slot * STRIDE + STATE, COMPLETED);
        return fanoutHead(slot);
    }

    /** Head of the fanout list (a {@link DepPool} pointer): under the slot lock, or before the slot is shared. */
    public long fanoutHead(int slot) {
        int b = slot * STRIDE + FANOUT_HEAD;
        return (long) shared[b + 1] << 32 | (shared[b] & 0xFFFF_FFFFL);
    }

    public void setFanoutHead(int slot, long ptr) {
        int b = slot * STRIDE + FANOUT_HEAD;
        shared[b] = (int) ptr;
        shared[b + 1] = (int) (ptr >>> 32);
    }

    /** Under lock: adds a consumer to the inline part of the fanout list; false when that is full. */
    public boolean addInlineFanoutLocked(int slot, long consumer) {
        int b = slot * STRIDE;
        int n = shared[b + INLINE_N];
        if (n == INLINE_FANOUTS) {
            return false;
        }
        shared[b + INLINE + 2 * n] = (int) consumer;
        shared[b + INLINE + 2 * n + 1] = (int) (consumer >>> 32);
        shared[b + INLINE_N] = n + 1;
        return true;
    }

    /** Under lock: consumers held inline. */
    public int inlineFanouts(int slot) {
        return shared[slot * STRIDE + INLINE_N];
    }

    /** Under lock: inline consumer {@code i}. */
    public long inlineFanout(int slot, int i) {
        int b = slot * STRIDE + INLINE + 2 * i;
        return (long) shared[b + 1] << 32 | (shared[b] & 0xFFFF_FFFFL);
    }

    /** Orchestrator, while wiring: the task retains one more producer (a RETAIN fanin edge). */
    public void addRetain(int slot) {
        shared[slot * STRIDE + RETAIN_N]++;
    }

    /** RETAIN fanin edges of the slot's task; read by its completion (published with the task). */
    public int retainCount(int slot) {
        return shared[slot * STRIDE + RETAIN_N];
    }

    /** Orchestrator, before the task can become ready. */
    public void setCoreType(int slot, CoreType type) {
        shared[slot * STRIDE + CORE_TYPE] = type.ordinal();
    }

    public CoreType coreType(int slot) {
        return CORE_TYPES[shared[slot * STRIDE + CORE_TYPE]];
    }

    /** Under lock: one more claimed consumer reference. */
    public void addFanoutLocked(int slot) {
        shared[slot * STRIDE + FANOUT_COUNT]++;
    }

    /** Adds released references (1 per consumer, {@link #SCOPE_BIT} for the scope). */
    public void releaseFanout(int slot, int amount) {
        INTS.getAndAdd(shared, slot * STRIDE + FANOUT_REFCOUNT, amount);
    }

    /** State with a volatile read (the Dekker side of {@link #markCompletedLocked}). */
    public int stateVolatile(int slot) {
        return (int) INTS.getVolatile(shared, slot * STRIDE + STATE);
    }

    /**
     * CONSUMED test (under lock): all references released and the task completed. Returns true if this
     * call made the transition.
     */
    public boolean tryConsume(int slot) {
        int b = slot * STRIDE;
        // Lock-free pre-test (most calls find a reference still held). Every fanout reference is counted before
        // its holder can release it, and each release is a volatile add: a thread that sees a reference still
        // held here is not the last releaser, and the last one sees all counts and releases and tests again.
        if ((int) INTS.getVolatile(shared, b + FANOUT_REFCOUNT) != (int) INTS.getVolatile(shared, b + FANOUT_COUNT)) {
            return false;
        }
        lock(slot);
        try {
            if ((int) INTS.getAcquire(shared, b + STATE) == COMPLETED
                    && (int) INTS.getVolatile(shared, b + FANOUT_REFCOUNT) == shared[b + FANOUT_COUNT]) {
                INTS.setRelease(shared, b + STATE, CONSUMED);
                return true;
            }
            return false;
        } finally {
            unlock(slot);
        }
    }

    /**
     * Orchestrator, at scope end: if the task completed and every consumer released it, the scope's reference is
     * the last one, and the task becomes CONSUMED here with plain stores (true); else nothing changes (false) and
     * the caller releases the reference atomically. No lock is needed: only the orchestrator adds fanout
     * references, and no other thread can make the transition while the scope bit is not released. The atomics
     * of the general path would each wait for the slot's line, which the completing thread holds, one task after
     * another; plain loads and stores let a scope's tasks overlap those misses.
     */
    public boolean consumeAtScopeEnd(int slot) {
        int b = slot * STRIDE;
        if ((int) INTS.getAcquire(shared, b + STATE) != COMPLETED) {
            return false;
        }
        int count = shared[b + FANOUT_COUNT];
        if ((int) INTS.getAcquire(shared, b + FANOUT_REFCOUNT) + SCOPE_BIT != count) {
            return false;
        }
        shared[b + FANOUT_REFCOUNT] = count; // the scope bit, as the atomic path leaves it (scopeReleased)
        INTS.setRelease(shared, b + STATE, CONSUMED);
        return true;
    }

    /** Whether the owning scope already released its reference (bit 31 of the released count). */
    public boolean scopeReleased(int slot) {
        return ((int) INTS.getVolatile(shared, slot * STRIDE + FANOUT_REFCOUNT) & SCOPE_BIT) != 0;
    }

    public void setFaninCount(int slot, int count) {
        INTS.setRelease(shared, slot * STRIDE + FANIN_COUNT, count);
    }

    /** Adds satisfied edges; true if this add made the task ready (crossed the fanin count). */
    public boolean addFanin(int slot, int amount) {
        int b = slot * STRIDE;
        int before = (int) INTS.getAndAdd(shared, b + FANIN_REFCOUNT, amount);
        int count = (int) INTS.getAcquire(shared, b + FANIN_COUNT);
        return before < count && before + amount >= count;
    }

    /**
     * {@link #addFanin} for a task no producer can reach (none linked it onto a fanout list): a plain store,
     * published with the task by the ready queue. True if this made the task ready.
     */
    public boolean satisfyUnshared(int slot, int amount) {
        int b = slot * STRIDE;
        int before = shared[b + FANIN_REFCOUNT];
        shared[b + FANIN_REFCOUNT] = before + amount;
        int count = shared[b + FANIN_COUNT];
        return before < count && before + amount >= count;
    }

    /**
     * Records a fanin edge inline (the per-slot array grows only until its peak, at most
     * {@link #FANIN_INLINE_CAP}); returns false when the inline part is full and the edge must spill.
     */
    public boolean addFaninInline(int slot, long producerWithFlags) {
        int n = faninEdgeCount(slot);
        if (n < DENSE_FANINS) {
            records[rec(slot) + R_FANINS + n] = producerWithFlags;
        } else if (n < FANIN_INLINE_CAP) {
            long[] a = moreFanins[slot];
            int i = n - DENSE_FANINS;
            if (a == null || i == a.length) {
                a = a == null ? new long[8]
                        : Arrays.copyOf(a, Math.min(FANIN_INLINE_CAP - DENSE_FANINS, a.length * 2));
                moreFanins[slot] = a;
            }
            a[i] = producerWithFlags;
        } else {
            return false;
        }
        records[rec(slot) + R_COUNTS]++;
        return true;
    }

    /**
     * Appends a fanin edge past the inline cap to {@link #faninSpill}; the caller checked it has space. The slot's
     * run started at the pool's top when {@link #initSlot} ran: the orchestrator appends one task's edges at a time.
     */
    public void addFaninSpilled(int slot, long producerWithFlags) {
        faninSpill.append(producerWithFlags);
        records[rec(slot) + R_COUNTS]++;
    }

    /** Fanin edges of the slot's task, inline and spilled. */
    public int faninEdgeCount(int slot) {
        return (int) records[rec(slot) + R_COUNTS];
    }

    /**
     * Linear index in {@link #faninSpill} just past the slot's spilled edges (if none spilled, the pool's top when
     * the task was submitted): no later task's run starts before it.
     */
    public long spillEnd(int slot) {
        int r = rec(slot);
        return records[r + R_SPILL_START] + Math.max(0, (int) records[r + R_COUNTS] - FANIN_INLINE_CAP);
    }

    /** Raw id of the task that owns the slot now, or −1. */
    public long taskIdAt(int slot) {
        return records[rec(slot) + R_TASK_ID];
    }

    /** {@code packed_buffer_end} of the slot's task. */
    public long heapEnd(int slot) {
        return records[rec(slot) + R_HEAP_END];
    }

    public void setHeapEnd(int slot, long end) {
        records[rec(slot) + R_HEAP_END] = end;
    }

    /** Dep pool top after wiring the slot's task. */
    public long depMark(int slot) {
        return records[rec(slot) + R_DEP_MARK];
    }

    public void setDepMark(int slot, long top) {
        records[rec(slot) + R_DEP_MARK] = top;
    }

    public int scopeDepth(int slot) {
        return (int) (records[rec(slot) + R_COUNTS] >>> 32);
    }

    private static int rec(int slot) {
        return RECORD_BASE + slot * RECORD;
    }

    /** Fanin edge {@code i} of the task in {@code slot} (inline first, then its spilled run). */
    public long faninEdge(int slot, int i) {
        if (i < DENSE_FANINS) {
            return records[rec(slot) + R_FANINS + i];
        }
        return i < FANIN_INLINE_CAP ? moreFanins[slot][i - DENSE_FANINS]
                : faninSpill.get(records[rec(slot) + R_SPILL_START] + (i - FANIN_INLINE_CAP));
    }

    // ---- cursors ----------------------------------------------------------------------------------------

    /** Orchestrator: publishes the id one past the newest submitted task. */
    public void publishCurrent(int next) {
        LONGS.setRelease(cursors, CUR, (long) next);
    }

    public int currentTaskIndex() {
        return (int) (long) LONGS.getAcquire(cursors, CUR);
    }

    /** Oldest task not yet reclaimed (all older ones are CONSUMED and their slots free). */
    public int lastTaskAlive() {
        return (int) (long) LONGS.getAcquire(cursors, LAST);
    }

    /**
     * Walks {@code last_task_alive} forward over CONSUMED slots (simpler's {@code advance_ring_pointers}).
     * One thread advances at a time; a thread that loses the try-lock leaves a pending mark and leaves. The
     * winner takes the mark with an atomic swap (so it sees the loser's CONSUMED store), and after unlocking
     * re-checks both the mark and the slot at the new tail. Unlock and mark are volatile on both sides
     * (a Dekker pair): either the winner sees the loser's mark, or the loser sees the lock free and retries.
     */
    public void advance() {
        while (true) {
            if (!LONGS.compareAndSet(cursors, ADV_LOCK, 0L, 1L)) {
                LONGS.setVolatile(cursors, ADV_PENDING, 1L);
                if ((long) LONGS.getVolatile(cursors, ADV_LOCK) != 0L) {
                    return;
                }
                continue;
            }
            // Read first: a swap would take the mark's line exclusive on every advance, marked or not. Seeing 0 is
            // enough: a mark set after this read is caught by the check after unlocking.
            if ((long) LONGS.getVolatile(cursors, ADV_PENDING) != 0L) {
                LONGS.getAndSet(cursors, ADV_PENDING, 0L);
            }
            int last = lastTaskAlive();
            int cur = currentTaskIndex();
            // The slots' references are dropped by the orchestrator when it reclaims them (Reclaimer): a store
            // here would take lines of body/args that the orchestrator is writing for new tasks.
            while (last - cur < 0 && state(slotOf(last)) == CONSUMED) {
                last++;
            }
            // Release: the cleared slots and everything the consumed tasks did happen-before the new tail.
            LONGS.setRelease(cursors, LAST, (long) last);
            LONGS.setVolatile(cursors, ADV_LOCK, 0L);
            if ((long) LONGS.getVolatile(cursors, ADV_PENDING) == 0L
                    && !(last - currentTaskIndex() < 0 && state(slotOf(last)) == CONSUMED)) {
                return;
            }
        }
    }
}
