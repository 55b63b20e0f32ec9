package dev.jpto.runtime.chip;

import dev.jpto.runtime.CallConfig;
import dev.jpto.runtime.ChipOptions;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.ErrorCode;
import dev.jpto.runtime.Orchestration;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.RingField;
import dev.jpto.runtime.RunReport;
import dev.jpto.runtime.RuntimeEnv;
import dev.jpto.runtime.Sizes;
import dev.jpto.runtime.device.DeviceReplay;
import dev.jpto.runtime.device.DeviceSwimlaneWriter;
import dev.jpto.runtime.device.DeviceTimeline;
import dev.jpto.runtime.device.HardwareSpec;
import dev.jpto.runtime.dfx.DfxRun;
import dev.jpto.runtime.orch.OrchestratorImpl;
import dev.jpto.runtime.orch.SubmitLog;
import dev.jpto.runtime.orch.ScopeStats;
import dev.jpto.runtime.ring.NativeRegion;
import dev.jpto.runtime.ring.Ring;
import dev.jpto.runtime.sched.CostLog;
import dev.jpto.runtime.sched.Engine;
import dev.jpto.runtime.tensormap.TensorMap;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A simulated chip. {@link #run} executes one orchestration: the orchestration runs on the calling thread
 * (the orchestrator AICPU thread), {@code aicpu_thread_num − 1} scheduler threads run the tasks on the
 * platform's logical AIC/AIV cores. Runs on one chip are serialised; separate chips run concurrently.
 *
 * <p>Ring memory (slot arrays, heap regions) is kept between runs while the sizes stay the same, and freed on
 * {@link #close()}. After a failed run the chip is reset and usable again; if a kernel never returned, its
 * rings are discarded (their heap unmapped) so the stray thread cannot touch the next run's memory.
 */
public final class Chip implements AutoCloseable {
    private static final long GRACE_MILLIS = 100;
    private static final long JOIN_MILLIS = 2_000;

    private final Platform platform;
    private final int deviceId;
    private final ChipOptions options;
    private final Ring[] rings = new Ring[RingField.RINGS];
    private TensorMap tmap;
    /** Reused between runs while rings and thread count stay the same (no per-run allocation of queues). */
    private Engine engine;
    private OrchestratorImpl orchestrator;
    /** The previous run failed (or none ran): the next run clears all per-slot state. */
    private boolean dirty = true;
    private boolean closed;
    /** Counts successful runs: a run's {@link DeviceTime} is valid until the next run reuses the logs. */
    private long runGeneration;
    private long replayedGeneration = -1;
    private DeviceTimeline replayed;

    private Chip(Platform platform, int deviceId, ChipOptions options) {
        this.platform = platform;
        this.deviceId = deviceId;
        this.options = options;
    }

    /** Opens a simulated chip with the default timeouts. */
    public static Chip open(Platform platform, int deviceId) {
        return open(platform, deviceId, ChipOptions.defaults());
    }

    /**
     * Opens a chip. Hardware platforms ({@code a2a3}, {@code a5}) are rejected: this build has no device
     * runtime.
     */
    public static Chip open(Platform platform, int deviceId, ChipOptions options) {
        platform.requireSimulated();
        if (deviceId < 0) {
            throw new IllegalArgumentException("device id must be >= 0: device_id=" + deviceId);
        }
        return new Chip(platform, deviceId, options);
    }

    public Platform platform() {
        return platform;
    }

    public int deviceId() {
        return deviceId;
    }

    public ChipOptions options() {
        return options;
    }

    /**
     * Runs {@code orchestration} to completion.
     *
     * @throws IllegalArgumentException for an invalid or unsupported {@code config} (nothing runs)
     * @throws ChipRuntimeException when the run fails (its codes and message say why and what to change)
     */
    public synchronized RunReport run(Orchestration orchestration, CallConfig config) {
        if (closed) {
            throw new IllegalStateException("chip " + platform + ":" + deviceId + " is closed");
        }
        java.util.Objects.requireNonNull(orchestration, "orchestration");
        config.validate();
        checkSimulatorLimits(config);
        if (Thread.currentThread().isInterrupted()) {
            throw new ChipRuntimeException(ErrorCode.CANCELLED, "the host cancelled the run before it started: thread '"
                    + Thread.currentThread().getName() + "' is interrupted (e.g. Ctrl-C); nothing ran");
        }
        RuntimeEnv env = config.runtimeEnv();
        int threads = config.aicpuThreads(platform, options.hostChips());
        ScopeStats stats = config.enableScopeStats() ? new ScopeStats() : null;
        try {
            boolean changed = prepareRings(env);
            if (changed || engine == null || engine.schedulerThreads() != threads - 1) {
                if (engine != null) {
                    engine.shutdown();
                    engine = null;
                }
                Engine built = new Engine(platform, rings, threads - 1, options);
                orchestrator = new OrchestratorImpl(built, tmap, env, stats);
                built.startWorkers("jpto-" + platform.text() + "-" + deviceId + "-sched-");
                engine = built;
            }
        } catch (OutOfMemoryError e) {
            // The sizes passed checkSimulatorLimits, but other live data left too little heap: a bad config too
            // (exit 2), with the same numbers. The chip drops its rings, so that the next run starts clean.
            discardRings();
            Runtime rt = Runtime.getRuntime();
            throw new IllegalArgumentException(ringHeapShortage(env, "more than this JVM could allocate (maximum heap "
                    + Sizes.approx(rt.maxMemory()) + ", " + Sizes.approx(rt.totalMemory() - rt.freeMemory())
                    + " in use)"), e);
        }
        Engine engine = this.engine;
        engine.reset(dirty);
        OrchestratorImpl orch = orchestrator;
        orch.reset(env, stats);
        DfxRun dfx = DfxRun.create(config, platform, deviceId, threads - 1);
        orch.setEvents(dfx);
        engine.setEvents(dfx);
        long generation = ++runGeneration;
        long t0 = System.nanoTime();
        ChipRuntimeException error = null;
        boolean quiescent = true;
        engine.beginRun();
        dev.jpto.runtime.TaskCounts.started(engine::completed, engine::submittedSoFar);
        try {
            orch.runRoot(orchestration);
        } catch (ChipRuntimeException e) {
            error = e;
        } finally {
            dev.jpto.runtime.TaskCounts.ended();
            if (!engine.endRun(GRACE_MILLIS, JOIN_MILLIS)) {
                quiescent = false;
                engine.shutdown();
                discardRings();
            }
        }
        long elapsed = System.nanoTime() - t0;
        dirty = error != null;
        Optional<Path> statsFile = Optional.empty();
        if (stats != null) {
            if (error != null && orch != null && orch.openDepth() >= 0) {
                int d = orch.openDepth();
                Ring ring = rings[RingField.ringOf(d)];
                if (ring != null) {
                    stats.fatalSample(d, ring, tmap, error.getMessage());
                }
            }
            statsFile = Optional.of(stats.write(Path.of(config.outputPrefix()), header(config, orch, error)));
        }
        List<Path> dfxFiles = dfx == null ? List.of() : dfx.write(error != null, quiescent);
        CostLog[] costs = new CostLog[engine.schedulerThreads()];
        for (int t = 0; t < costs.length; t++) {
            costs[t] = engine.costLog(t);
        }
        SubmitLog submits = orch.submitLog();
        if (error == null && config.enableChipSwimlane() != 0) {
            dfxFiles = new ArrayList<>(dfxFiles);
            dfxFiles.add(DeviceSwimlaneWriter.write(Path.of(config.outputPrefix()), HardwareSpec.of(platform), deviceId,
                    DeviceGraph.tasks(submits, costs), deviceTimeline(generation, submits, costs)));
        }
        if (error != null) {
            List<Path> written = new ArrayList<>(dfxFiles);
            statsFile.ifPresent(written::add);
            throw error.withDiagnosticFiles(written);
        }
        List<RunReport.Ring> report = new ArrayList<>();
        for (Ring r : rings) {
            report.add(new RunReport.Ring(r.id, r.window(), r.heap.size(), r.deps.capacity(), orch.taskWindowMax(r.id),
                    r.heap.highWater(), r.deps.highWater()));
        }
        return new RunReport(platform, threads, report, tmap.capacity(), tmap.highWater(), engine.submitted(), elapsed,
                statsFile, dfxFiles, () -> deviceTimeline(generation, submits, costs).deviceMicros(),
                engine.workFlops());
    }

    /**
     * The device replay of run {@code generation} from its logs, computed once (docs/device-model.md); still
     * available after {@link #close()}, since the logs are plain memory.
     *
     * @throws IllegalStateException when a later run has reused the logs
     */
    private synchronized DeviceTimeline deviceTimeline(long generation, SubmitLog submits, CostLog[] costs) {
        if (generation != runGeneration) {
            throw new IllegalStateException("the device estimate of run " + generation + " on chip " + platform + ":"
                    + deviceId + " is gone: the chip has run again since (read it before the next run)");
        }
        if (replayedGeneration != generation) {
            replayed = DeviceReplay.replay(HardwareSpec.of(platform), DeviceGraph.tasks(submits, costs));
            replayedGeneration = generation;
        }
        return replayed;
    }

    /**
     * Thread ids of the scheduler threads of the last run (empty before the first): benchmarks read their CPU
     * time. The threads live until the thread count or ring sizes change, or the chip closes.
     */
    public synchronized long[] schedulerThreadIds() {
        return engine == null ? new long[0] : engine.workerThreadIds();
    }

    /**
     * Ring heap regions mapped right now by all chips of this process, and their bytes (address space, not RSS):
     * what a leak check counts, since every chip maps four and unmaps them on {@link #close()}.
     */
    public static long mappedHeapRegions() {
        return NativeRegion.mappedRegions();
    }

    public static long mappedHeapBytes() {
        return NativeRegion.mappedBytes();
    }

    /** Slot arrays are preallocated: the simulator bounds what one ring may ask for. */
    public static final long MAX_SIM_TASK_WINDOW = 1L << 22;
    public static final long MAX_SIM_DEP_POOL = 1L << 24;

    /**
     * Refuses ring sizes beyond what the simulator preallocates (valid for a device, too large here): an
     * IllegalArgumentException naming the field, ring, value and limit. {@link #run} checks this; callers may check
     * earlier, before any work that a refused run would waste.
     */
    public static void checkSimulatorLimits(CallConfig c) {
        checkSimulatorLimits(c, Runtime.getRuntime().maxMemory());
    }

    /**
     * {@link #checkSimulatorLimits(CallConfig)} for a JVM whose heap can grow to {@code maxHeapBytes}: besides the
     * per-ring limits, the slots and pools of all four rings must fit in it, or no run could ever start.
     */
    public static void checkSimulatorLimits(CallConfig c, long maxHeapBytes) {
        RuntimeEnv env = c.runtimeEnv();
        for (int r = 0; r < RingField.RINGS; r++) {
            if (env.taskWindow(r) > MAX_SIM_TASK_WINDOW) {
                throw new IllegalArgumentException("ring_task_window for ring " + r + " exceeds the simulator's limit of "
                        + MAX_SIM_TASK_WINDOW + " preallocated slots: ring_task_window[" + r + "]=" + env.taskWindow(r)
                        + " (try " + MAX_SIM_TASK_WINDOW + " or less)");
            }
            if (env.depPool(r) > MAX_SIM_DEP_POOL) {
                throw new IllegalArgumentException("ring_dep_pool for ring " + r + " exceeds the simulator's limit of "
                        + MAX_SIM_DEP_POOL + " preallocated entries: ring_dep_pool[" + r + "]=" + env.depPool(r)
                        + " (try " + MAX_SIM_DEP_POOL + " or less)");
            }
        }
        if (preallocatedHeapBytes(env) > maxHeapBytes) {
            throw new IllegalArgumentException(ringHeapShortage(env, "more than this JVM's maximum heap of "
                    + Sizes.approx(maxHeapBytes)));
        }
    }

    /**
     * Java heap the simulator preallocates for {@code env}'s rings: their task slots and dep pools, and what grows
     * with the slots of all four (the TensorMap's task heads, the ready queues, the open scopes' task list).
     */
    public static long preallocatedHeapBytes(RuntimeEnv env) {
        long need = 0;
        long slots = 0;
        for (int r = 0; r < RingField.RINGS; r++) {
            need += Ring.javaHeapBytes(env.taskWindow(r), env.depPool(r));
            slots += env.taskWindow(r);
        }
        return need + TensorMap.javaHeapBytes(slots) + Engine.javaHeapBytes(slots)
                + OrchestratorImpl.javaHeapBytes(slots);
    }

    /** The error for ring sizes whose preallocated slots and pools do not fit the Java heap ({@code why}). */
    private static String ringHeapShortage(RuntimeEnv env, String why) {
        long need = preallocatedHeapBytes(env);
        StringBuilder windows = new StringBuilder();
        StringBuilder pools = new StringBuilder();
        for (int r = 0; r < RingField.RINGS; r++) {
            windows.append(r == 0 ? "" : ",").append(env.taskWindow(r));
            pools.append(r == 0 ? "" : ",").append(env.depPool(r));
        }
        long suggestGiB = (need + (1L << 30) - 1 >> 30) + 1; // the rings, and a GiB for everything else
        long needRounded = need + (1L << 20) - 1 & -(1L << 20); // to MiB: an estimate
        return "ring_task_window and ring_dep_pool need about " + Sizes.format(needRounded) + " of Java heap for the "
                + "simulator's preallocated task slots and dep-pool entries, " + why + ": ring_task_window=" + windows
                + " ring_dep_pool=" + pools + " (use smaller values, e.g. the defaults "
                + RingField.TASK_WINDOW.defaultValue() + " and " + RingField.DEP_POOL.defaultValue()
                + ", or give the JVM more heap, e.g. JPTO_JAVA_OPTS=-Xmx" + suggestGiB + "g)";
    }

    private Map<String, Object> header(CallConfig config, OrchestratorImpl orch, ChipRuntimeException error) {
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("fatal", error != null);
        int n = RingField.RINGS;
        long[] tw = new long[n], hp = new long[n], dp = new long[n], twMax = new long[n], hpMax = new long[n],
                dpMax = new long[n];
        for (int r = 0; r < n; r++) {
            Ring ring = rings[r];
            if (ring == null) {
                continue;
            }
            tw[r] = ring.window();
            hp[r] = ring.heap.size();
            dp[r] = ring.deps.capacity();
            twMax[r] = orch == null ? 0 : orch.taskWindowMax(r);
            hpMax[r] = ring.heap.highWater();
            dpMax[r] = ring.deps.highWater();
        }
        h.put("task_window_max", twMax);
        h.put("heap_max", hpMax);
        h.put("dep_pool_max", dpMax);
        h.put("tensormap_max", tmap == null ? 0 : tmap.highWater());
        h.put("task_window", tw);
        h.put("heap", hp);
        h.put("dep_pool", dp);
        h.put("tensormap_capacity", tmap == null ? 0 : tmap.capacity());
        h.put("platform", platform.text());
        h.put("aicpu_thread_num", config.aicpuThreads(platform, options.hostChips()));
        if (error != null) {
            h.put("orch_error_code", error.orchErrorCode());
            h.put("sched_error_code", error.schedErrorCode());
        }
        return h;
    }

    /** Reuses or rebuilds the rings for {@code env}; true if any ring or the TensorMap was rebuilt. */
    private boolean prepareRings(RuntimeEnv env) {
        boolean windowsChanged = false;
        boolean rebuilt = false;
        for (int r = 0; r < RingField.RINGS; r++) {
            long w = env.taskWindow(r), h = env.heap(r), d = env.depPool(r);
            Ring old = rings[r];
            if (old != null && old.window() == w && old.heap.size() == h && old.deps.capacity() == d) {
                old.reset(dirty);
                continue;
            }
            NativeRegion region;
            if (old != null && old.heap.size() == h) {
                region = old.region;
            } else {
                if (old != null) {
                    old.region.close();
                    rings[r] = null; // if the new reservation fails, the next run must not find a closed region
                }
                region = reserveHeap(r, h);
            }
            windowsChanged |= old == null || old.window() != w;
            rebuilt = true;
            rings[r] = null; // the old slots can go before the new ones are allocated
            try {
                rings[r] = new Ring(r, (int) w, h, (int) d, region);
            } catch (OutOfMemoryError e) {
                region.close(); // not yet in rings[]: discardRings would miss it
                throw e;
            }
        }
        if (tmap == null || windowsChanged) {
            int[] windows = new int[RingField.RINGS];
            for (int r = 0; r < RingField.RINGS; r++) {
                windows[r] = rings[r].window();
            }
            tmap = null; // the old map can go before the new one is allocated
            tmap = new TensorMap(windows);
            rebuilt = true;
        } else {
            tmap.reset();
        }
        return rebuilt;
    }

    /** Maps ring {@code r}'s heap; a size this host cannot map is a bad config (exit 2), not an internal error. */
    private NativeRegion reserveHeap(int r, long bytes) {
        return reserveRingHeap(r, bytes, "ring " + r + " heap of chip " + platform + ":" + deviceId);
    }

    private static NativeRegion reserveRingHeap(int r, long bytes, String what) {
        try {
            return NativeRegion.reserve(bytes, what);
        } catch (IllegalStateException e) {
            throw new IllegalArgumentException("ring_heap for ring " + r + " cannot be reserved on this host (mmap of "
                    + Sizes.format(bytes) + " failed: address space exhausted): ring_heap[" + r + "]=" + bytes
                    + " (use a smaller ring_heap, e.g. the default " + Sizes.format(RingField.HEAP.defaultValue())
                    + ")", e);
        }
    }

    /**
     * Reserves the four heap rings of {@code c} together and releases them at once, so that a ring_heap this host
     * cannot map (say 100TiB: more than the address space) is refused before the compile, the inputs and the golden
     * a run would otherwise spend first. The reservation is {@code MAP_NORESERVE} address space: nothing is touched.
     *
     * @throws IllegalArgumentException naming the ring and its size, as a chip's own reservation would
     */
    public static void checkHeapReservable(CallConfig c) {
        RuntimeEnv env = c.runtimeEnv();
        List<NativeRegion> held = new ArrayList<>();
        try {
            for (int r = 0; r < RingField.RINGS; r++) {
                held.add(reserveRingHeap(r, env.heap(r), "ring " + r + " heap (reservation check)"));
            }
        } finally {
            held.forEach(NativeRegion::close);
        }
    }

    private void discardRings() {
        for (int r = 0; r < RingField.RINGS; r++) {
            if (rings[r] != null) {
                try {
                    rings[r].region.close();
                } catch (IllegalStateException busy) {
                    // A stray kernel still holds the memory: leave the mapping rather than pull it from under it.
                }
                rings[r] = null;
            }
        }
        tmap = null;
        engine = null;
        orchestrator = null;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (engine != null) {
            engine.shutdown();
            engine = null;
        }
        for (int r = 0; r < RingField.RINGS; r++) {
            if (rings[r] != null) {
                rings[r].region.close();
                rings[r] = null;
            }
        }
        tmap = null;
    }
}
