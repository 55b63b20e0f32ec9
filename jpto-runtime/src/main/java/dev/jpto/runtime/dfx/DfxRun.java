package dev.jpto.runtime.dfx;

import dev.jpto.isa.Tensor;
import dev.jpto.runtime.Arg;
import dev.jpto.runtime.CallConfig;
import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.Direction;
import dev.jpto.runtime.ErrorCode;
import dev.jpto.runtime.ScopeKind;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.TaskContext;
import dev.jpto.runtime.io.OwnedFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The DFX recorder of one run: collects what {@link TaskEvents} reports and, after the run, writes the outputs
 * the CallConfig asked for under {@code output_prefix}:
 * <ul>
 * <li>{@code enable_chip_swimlane}: {@code chip_swimlane.json} (Chrome trace events, opens in Perfetto) and
 *     {@code chip_swimlane_records.json} (the original's record layout) — {@link SwimlaneWriter};</li>
 * <li>{@code enable_dep_gen}: {@code deps.json} and {@code deps.dot} — {@link DepGraphWriter};</li>
 * <li>{@code enable_dump_args}: {@code args/<task id>/*.npy} while the run goes, and
 *     {@code args_dump/args_dump.json} — {@link ArgsDumper};</li>
 * <li>{@code enable_pmu}: {@code pmu.csv} — {@link PmuWriter}.</li>
 * </ul>
 * Orchestrator-side lists are touched by the orchestrator thread only; each scheduler thread appends to its own
 * execution list. Everything is read after the scheduler threads went idle at the end of the run.
 */
public final class DfxRun implements TaskEvents {
    /** The files directly under {@code output_prefix}. */
    private static final Set<String> FILES = Set.of(SwimlaneWriter.TRACE_FILE, SwimlaneWriter.RECORDS_FILE,
            DepGraphWriter.JSON_FILE, DepGraphWriter.DOT_FILE, PmuWriter.FILE);
    private static final Path ARGS_MANIFEST = Path.of(ArgsDumper.MANIFEST);
    private final CallConfig config;
    private final Platform platform;
    private final int deviceId;
    private final long origin = System.nanoTime();
    private final boolean recordExecs;
    /** Tasks, tensors and edges are kept only for the outputs that show them (graph, swimlane). */
    private final boolean recordGraph;

    private final List<TaskInfo> tasks = new ArrayList<>();
    private final List<EdgeInfo> edges = new ArrayList<>();
    private final List<WaitInfo> waits = new ArrayList<>();
    /** Submits as {@code [task id, start, end]} (swimlane level 4, the original's orchestrator phases). */
    private final List<long[]> submits = new ArrayList<>();
    private final boolean recordSubmits;
    /** The submit that ended the run, if one did (level 4). */
    private final List<FailedSubmit> failedSubmits = new ArrayList<>();
    private final List<TensorInfo> tensors = new ArrayList<>();
    /** Buffer address → its newest version. */
    private final Map<Long, TensorInfo> byAddress = new HashMap<>();
    private TaskInfo lastSubmitted;
    private final List<List<ExecInfo>> execs = new ArrayList<>();
    private final ArgsDumper dumper;

    private DfxRun(CallConfig config, Platform platform, int deviceId, int schedulerThreads) {
        this.config = config;
        this.platform = platform;
        this.deviceId = deviceId;
        this.recordExecs = config.enableChipSwimlane() != 0 || config.enablePmu() != 0;
        this.recordGraph = config.enableChipSwimlane() != 0 || config.enableDepGen();
        this.recordSubmits = config.enableChipSwimlane() >= SwimlaneWriter.SUBMIT_LEVEL;
        for (int t = 0; t < schedulerThreads; t++) {
            execs.add(new ArrayList<>());
        }
        this.dumper = config.enableDumpArgs() != 0
                ? new ArgsDumper(Path.of(config.outputPrefix()), config.enableDumpArgs(), schedulerThreads) : null;
    }

    /**
     * The recorder for a run with {@code config}, or null when no output it writes is on (scope statistics
     * have their own collector).
     */
    public static DfxRun create(CallConfig config, Platform platform, int deviceId, int schedulerThreads) {
        if (config.enableChipSwimlane() == 0 && config.enableDumpArgs() == 0 && config.enablePmu() == 0
                && !config.enableDepGen()) {
            return null;
        }
        return new DfxRun(config, platform, deviceId, schedulerThreads);
    }

    // ---- events -----------------------------------------------------------------------------------------

    @Override
    public void submitted(long taskId, String kernel, CoreType type, int scopeDepth, ScopeKind scope, int blockNum,
                          boolean syncStart, int activeMask, Arg[] args, Tensor[] outputs) {
        if (!recordGraph) {
            return;
        }
        List<ArgInfo> infos = new ArrayList<>(args.length);
        for (int i = 0; i < args.length; i++) {
            infos.add(switch (args[i]) {
                case Arg.TensorArg(Tensor t, Direction d) -> tensorArg(i, d, t, tensorOf(t, -1));
                case Arg.Output o -> tensorArg(i, Direction.OUTPUT, outputs[i], tensorOf(outputs[i], taskId));
                case Arg.ScalarArg(double v) -> new ArgInfo(i, null, null, null, null, 0, -1, v);
            });
        }
        lastSubmitted = new TaskInfo(taskId, kernel, type, scopeDepth, scope, blockNum, syncStart, activeMask,
                List.copyOf(infos));
        tasks.add(lastSubmitted);
    }

    private static ArgInfo tensorArg(int i, Direction d, Tensor t, TensorInfo info) {
        return new ArgInfo(i, d, t.dtype(), t.shape(), t.strides(), t.offset(), info.id(), 0);
    }

    /** The buffer version {@code t} names; a new version when {@code creator} (an OUTPUT's task) is given. */
    private TensorInfo tensorOf(Tensor t, long creator) {
        long addr = t.bufferAddress();
        TensorInfo cur = byAddress.get(addr);
        if (cur != null && creator < 0) {
            return cur;
        }
        TensorInfo info = new TensorInfo(tensors.size(), addr, cur == null ? 0 : cur.version() + 1, t.dtype(),
                t.buffer().byteSize() / t.dtype().byteSize(), creator);
        tensors.add(info);
        byAddress.put(addr, info);
        return info;
    }

    @Override
    public void edge(long pred, long succ, int argIndex, int source, long flags, int overlap) {
        if (!recordGraph) {
            return;
        }
        long tensorId = lastSubmitted != null && lastSubmitted.id() == succ && argIndex >= 0
                ? lastSubmitted.args().get(argIndex).tensorId() : -1;
        edges.add(new EdgeInfo(pred, succ, argIndex, source, flags, overlap, tensorId));
    }

    @Override
    public void submitDone(long taskId, long startNanos, long endNanos) {
        if (recordSubmits) {
            submits.add(new long[] {taskId, startNanos - origin, endNanos - origin});
        }
    }

    @Override
    public void submitFailed(String kernel, long startNanos, long endNanos, ErrorCode error) {
        if (recordSubmits) {
            failedSubmits.add(new FailedSubmit(kernel, startNanos - origin, endNanos - origin, error));
        }
    }

    @Override
    public void backPressure(int ring, int resource, long startNanos, long endNanos) {
        waits.add(new WaitInfo(ring, resource, startNanos - origin, endNanos - origin));
    }

    @Override
    public void dispatchStart(long taskId, int thread, CoreType type, int core, Arg[] args, TaskContext task) {
        if (dumper != null) {
            dumper.before(taskId, thread, args, task);
        }
    }

    @Override
    public void dispatchEnd(long taskId, int thread, CoreType type, int core, Arg[] args, TaskContext task,
                            long startNanos, long endNanos, long flops, long bytesRead, long bytesWritten,
                            long deviceCycles) {
        if (recordExecs) {
            execs.get(thread).add(new ExecInfo(taskId, task.kernelName(), thread, type, core, startNanos - origin,
                    endNanos - origin, flops, bytesRead, bytesWritten, deviceCycles));
        }
        if (dumper != null) {
            dumper.after(taskId, thread, args, task);
        }
    }

    // ---- output -----------------------------------------------------------------------------------------

    /**
     * Writes the enabled outputs under {@code output_prefix}; returns the files written.
     *
     * @param quiescent false if a scheduler thread may still be running (a kernel that never returned): task
     *        executions are then left out, since their lists may still change
     * @throws java.io.UncheckedIOException naming the file that could not be written
     */
    public List<Path> write(boolean fatal, boolean quiescent) {
        Path prefix = Path.of(config.outputPrefix());
        List<ExecInfo> ran = quiescent ? executions() : List.of();
        List<Path> files = new ArrayList<>();
        if (config.enableDepGen()) {
            files.addAll(DepGraphWriter.write(prefix, this, fatal));
        }
        if (config.enableChipSwimlane() != 0) {
            files.addAll(SwimlaneWriter.write(prefix, this, ran, config.enableChipSwimlane()));
        }
        if (config.enablePmu() != 0) {
            files.add(PmuWriter.write(prefix, ran, config.enablePmu()));
        }
        if (dumper != null) {
            files.add(dumper.writeManifest(fatal));
        }
        return files;
    }

    /** Whether {@code name}, directly under {@code output_prefix}, is a file or directory these outputs write. */
    public static boolean isOutputName(String name) {
        return FILES.contains(name) || name.equals(ArgsDumper.DIR) || name.equals(ARGS_MANIFEST.getParent().toString());
    }

    /**
     * Removes every file the DFX outputs write under {@code prefix} (and nothing else there), so that a reused
     * output dir holds no file of an earlier run beside this run's.
     */
    public static void removeOutputs(Path prefix) throws IOException {
        OwnedFiles.deleteFiles(prefix, FILES::contains);
        OwnedFiles.deleteDir(prefix, ARGS_MANIFEST.getParent().toString(),
                d -> OwnedFiles.deleteFiles(d, ARGS_MANIFEST.getFileName().toString()::equals));
        OwnedFiles.deleteDir(prefix, ArgsDumper.DIR, args -> {
            for (String task : OwnedFiles.subdirectories(args, TaskInfo::isHex)) {
                OwnedFiles.deleteDir(args, task, d -> OwnedFiles.deleteFiles(d, n -> n.endsWith(".npy")));
            }
        });
    }

    /** Every execution, oldest start first. */
    List<ExecInfo> executions() {
        List<ExecInfo> all = new ArrayList<>();
        for (List<ExecInfo> l : execs) {
            all.addAll(l);
        }
        all.sort(Comparator.comparingLong(ExecInfo::start).thenComparingLong(ExecInfo::id));
        return all;
    }

    Platform platform() {
        return platform;
    }

    int deviceId() {
        return deviceId;
    }

    int schedulerThreads() {
        return execs.size();
    }

    List<TaskInfo> tasks() {
        return tasks;
    }

    List<EdgeInfo> edges() {
        return edges;
    }

    List<WaitInfo> waits() {
        return waits;
    }

    List<long[]> submits() {
        return submits;
    }

    List<FailedSubmit> failedSubmits() {
        return failedSubmits;
    }

    List<TensorInfo> tensors() {
        return tensors;
    }
}
