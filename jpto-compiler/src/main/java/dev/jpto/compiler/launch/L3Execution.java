package dev.jpto.compiler.launch;

import dev.jpto.compiler.CompiledL3Program;
import dev.jpto.compiler.CompiledProgram;
import dev.jpto.compiler.l3.ChipCall;
import dev.jpto.compiler.l3.HostView;
import dev.jpto.compiler.l3.L3Program;
import dev.jpto.compiler.l3.L3Report;
import dev.jpto.compiler.run.AutoRings;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.CallConfig;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.RunReport;
import dev.jpto.runtime.chip.Chip;
import dev.jpto.runtime.chip.DfxOutputs;
import dev.jpto.runtime.chip.HostArena;
import dev.jpto.runtime.io.OwnedFiles;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One run of an L3 program: a coordinator (the calling thread) keeps the host-level dependency counts and
 * dispatches each ready call to its chip's own thread, one call per chip at a time; completions come back on a
 * queue. A failure stops dispatching; calls already running finish (each chip run is bounded by the chip's
 * watchdogs) and the first failure is thrown with the device id and the chip's error code.
 */
final class L3Execution {
    /** How long the coordinator waits for one running call before it declares the run stuck. */
    static final Duration CALL_TIMEOUT = Duration.ofMinutes(30);
    /** After a failure, how long running calls get to finish before their chips are abandoned. */
    static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(60);
    private static final long TICK_MILLIS = 100;
    /** A call's DFX outputs go to {@code output_prefix/device_<id>/<call label>/}. */
    private static final String DEVICE_DIR_PREFIX = "device_";

    private record Done(int call, long endNanos, RunReport report, RuntimeException error) {
    }

    private final CompiledL3Program compiled;
    private final L3Program program;
    private final RunConfig config;
    private final Chip[] open;
    private final ExecutorService[] threads;
    private final int chips;
    /** Set when a call outlived the drain timeout: its chip is still busy and the worker cannot be reused. */
    private boolean stuck;

    /** A run on {@code open} chips, chip {@code c} driven by {@code threads[c]} (one call at a time). */
    L3Execution(CompiledL3Program compiled, RunConfig config, Chip[] open, ExecutorService[] threads) {
        this.compiled = compiled;
        this.program = compiled.program();
        this.config = config;
        this.open = open;
        this.threads = threads;
        this.chips = open.length;
    }

    boolean stuck() {
        return stuck;
    }

    L3Report run(Map<String, Tensor> args) {
        int[] chipOf = program.placement(chips);
        int n = program.calls().size();
        CallConfig[] calls = callConfigs(chipOf);
        try (Arena arena = HostArena.ofShared()) {
            Map<String, Tensor> host = HostViews.bind(program, args, arena);
            List<Map<String, Tensor>> callArgs = new ArrayList<>();
            for (ChipCall c : program.calls()) {
                Map<String, Tensor> m = new LinkedHashMap<>();
                for (Map.Entry<String, HostView> b : c.bindings().entrySet()) {
                    m.put(b.getKey(), HostViews.view(host.get(b.getValue().tensor().name()), b.getValue()));
                }
                ProgramArgs.bind(c.program(), m);
                callArgs.add(m);
            }
            return schedule(chipOf, calls, callArgs, n);
        }
    }

    /**
     * Every call's CallConfig, each from CallConfigs.from of the one RunConfig: {@code auto} ring sizes cover every
     * chip program's plan (so the chips keep one ring size across calls), and with DFX on each call writes under
     * its own directory, since chips run at once.
     */
    private CallConfig[] callConfigs(int[] chipOf) {
        List<CompiledProgram> all = List.copyOf(compiled.chipPrograms().values());
        // auto resolved once (it plans every chip program); the per-call configs below then plan nothing
        RunConfig resolved = AutoRings.resolve(config, all.stream().map(CompiledProgram::program).toList());
        CallConfig shared = Dispatch.callConfig(resolved, all);
        CallConfig[] out = new CallConfig[chipOf.length];
        for (ChipCall c : program.calls()) {
            if (config.outputPrefix().isEmpty()) {
                out[c.index()] = shared;
            } else {
                String dir = Path.of(config.outputPrefix()).resolve(DEVICE_DIR_PREFIX + device(chipOf[c.index()]))
                        .resolve(c.label()).toString();
                out[c.index()] = Dispatch.callConfig(resolved.withOutputPrefix(dir), all);
            }
        }
        return out;
    }

    /** Removes the DFX outputs of every call under {@code prefix} (by name: other files stay). */
    static void removeDfxOutputs(Path prefix) throws IOException {
        for (String device : OwnedFiles.subdirectories(prefix, L3Execution::isDeviceDir)) {
            OwnedFiles.deleteDir(prefix, device, d -> {
                for (String call : OwnedFiles.subdirectories(d, n -> true)) {
                    OwnedFiles.deleteDir(d, call, DfxOutputs::remove);
                }
            });
        }
    }

    /** Whether {@code name}, directly under {@code output_prefix}, is a device's directory of DFX outputs. */
    static boolean isDeviceDir(String name) {
        return name.startsWith(DEVICE_DIR_PREFIX) && name.length() > DEVICE_DIR_PREFIX.length()
                && name.substring(DEVICE_DIR_PREFIX.length()).chars().allMatch(Character::isDigit);
    }

    private int device(int chipIndex) {
        return config.deviceId() + chipIndex;
    }

    private L3Report schedule(int[] chipOf, CallConfig[] calls, List<Map<String, Tensor>> callArgs, int n) {
        int[] waiting = new int[n];
        List<List<Integer>> successors = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            successors.add(new ArrayList<>());
        }
        List<ArrayDeque<Integer>> ready = new ArrayList<>();
        for (int c = 0; c < chips; c++) {
            ready.add(new ArrayDeque<>());
        }
        for (int j = 0; j < n; j++) {
            List<Integer> preds = program.predecessors(j);
            waiting[j] = preds.size();
            for (int i : preds) {
                successors.get(i).add(j);
            }
            if (waiting[j] == 0) {
                ready.get(chipOf[j]).add(j);
            }
        }
        int[] runningOn = new int[chips];
        Arrays.fill(runningOn, -1);
        long[] started = new long[n];
        L3Report.Call[] done = new L3Report.Call[n];
        LinkedBlockingQueue<Done> completions = new LinkedBlockingQueue<>();
        RuntimeException failure = null;
        try {
            long t0 = System.nanoTime();
            int completed = 0;
            int running = 0;
            long failedAt = 0;
            while (completed < n) {
                if (failure == null) {
                    for (int c = 0; c < chips; c++) {
                        if (runningOn[c] < 0 && !ready.get(c).isEmpty()) {
                            int call = ready.get(c).poll();
                            runningOn[c] = call;
                            started[call] = System.nanoTime();
                            running++;
                            Chip chip = open[c];
                            CompiledProgram p = compiled.chipPrograms().get(program.calls().get(call).program().name());
                            Map<String, Tensor> a = callArgs.get(call);
                            CallConfig cc = calls[call];
                            threads[c].execute(() -> completions.add(runOne(chip, p, a, cc, call)));
                        }
                    }
                }
                if (running == 0) {
                    break; // finished, or failed and drained
                }
                Done d = completions.poll(TICK_MILLIS, TimeUnit.MILLISECONDS);
                if (d == null) {
                    long now = System.nanoTime();
                    if (failure != null && now - failedAt > DRAIN_TIMEOUT.toNanos()) {
                        stuck = true;
                        failure.addSuppressed(new IllegalStateException(running + " running call(s) did not finish "
                                + "within " + DRAIN_TIMEOUT.toSeconds() + " s of the failure; their chips are "
                                + "abandoned and this worker cannot be reused"));
                        break;
                    }
                    for (int c = 0; c < chips; c++) {
                        if (failure == null && runningOn[c] >= 0 && now - started[runningOn[c]] > CALL_TIMEOUT.toNanos()) {
                            failure = new IllegalStateException(where(runningOn[c], chipOf) + " has run for more "
                                    + "than " + CALL_TIMEOUT.toMinutes() + " minutes without finishing; the run is "
                                    + "stopped (chip watchdogs should have ended it: this is a simulator bug)");
                            failedAt = now;
                        }
                    }
                    continue;
                }
                running--;
                int c = chipOf[d.call()];
                runningOn[c] = -1;
                if (d.error() != null) {
                    RuntimeException e = located(d.error(), d.call(), chipOf);
                    if (failure == null) {
                        failure = e;
                        failedAt = System.nanoTime();
                    } else {
                        failure.addSuppressed(e);
                    }
                    continue;
                }
                ChipCall call = program.calls().get(d.call());
                done[d.call()] = new L3Report.Call(call.index(), call.label(), call.program().name(),
                        device(c), started[d.call()] - t0, d.endNanos() - started[d.call()], d.report());
                completed++;
                for (int s : successors.get(d.call())) {
                    if (--waiting[s] == 0) {
                        ready.get(chipOf[s]).add(s);
                    }
                }
            }
            if (failure != null) {
                throw failure;
            }
            if (completed < n) {
                throw new IllegalStateException("L3 program " + program.name() + ": " + (n - completed)
                        + " call(s) never became ready (a dependency cycle: this is a bug)");
            }
            return report(done, System.nanoTime() - t0);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stuck = true; // calls may still be running: the worker cannot be reused
            throw new IllegalStateException("interrupted while running L3 program " + program.name(), e);
        }
    }

    private static Done runOne(Chip chip, CompiledProgram p, Map<String, Tensor> args, CallConfig call, int index) {
        try {
            RunReport r = Dispatch.run(chip, p, args, call).withDeviceTimeResolved(); // the chip runs on
            return new Done(index, System.nanoTime(), r, null);
        } catch (RuntimeException e) {
            return new Done(index, System.nanoTime(), null, e);
        } catch (Error e) {
            // e.g. OutOfMemoryError: uncaught, it would end this device thread without a completion, and the run
            // would wait for one until the call watchdog; reported like any failed call (the Error as the cause)
            return new Done(index, System.nanoTime(), null, new IllegalStateException(e.toString(), e));
        }
    }

    private String where(int call, int[] chipOf) {
        ChipCall c = program.calls().get(call);
        return "device " + device(chipOf[call]) + " (" + config.platform().text() + "), call " + c.index() + " '"
                + c.label() + "' (chip program " + c.program().name() + ") of L3 program " + program.name();
    }

    /** The failure with the device and call in its message; a chip error keeps its code. */
    private RuntimeException located(RuntimeException e, int call, int[] chipOf) {
        String where = where(call, chipOf);
        return switch (e) {
            case ChipRuntimeException c -> new ChipRuntimeException(c.error(), "on " + where + ": "
                    + RingAdvice.detail(c), c);
            case IllegalArgumentException a -> new IllegalArgumentException("on " + where + ": " + a.getMessage(), a);
            default -> new IllegalStateException("on " + where + ": " + e, e);
        };
    }

    private L3Report report(L3Report.Call[] done, long wall) {
        List<L3Report.Call> calls = new ArrayList<>(List.of(done));
        calls.sort(Comparator.comparingLong(L3Report.Call::startNanos));
        List<L3Report.Device> devices = new ArrayList<>();
        for (int c = 0; c < chips; c++) {
            int dev = device(c);
            int count = 0;
            long runtime = 0;
            double deviceUs = 0;
            long high = 0;
            long cap = 0;
            for (L3Report.Call call : calls) {
                if (call.deviceId() != dev) {
                    continue;
                }
                count++;
                runtime += call.report().elapsedNanos();
                deviceUs += call.report().deviceMicros().orElse(0);
                for (RunReport.Ring r : call.report().rings()) {
                    if (cap == 0 || r.heapMax() > high) {
                        high = r.heapMax();
                        cap = r.heapBytes();
                    }
                }
            }
            devices.add(new L3Report.Device(dev, count, runtime, deviceUs, high, cap));
        }
        return new L3Report(program.name(), config.platform(), calls, devices, wall);
    }
}
