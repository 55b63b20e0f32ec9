package dev.jpto.compiler.l3;

import dev.jpto.runtime.Platform;
import dev.jpto.runtime.RunReport;
import dev.jpto.runtime.Sizes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What one L3 run did: every chip call with its device, start and wall time and the chip's own report, and a
 * summary per device. Times are wall-clock nanoseconds from the start of the run.
 *
 * @param wallNanos the whole run, from the first dispatch to the last completion
 */
public record L3Report(String program, Platform platform, List<Call> calls, List<Device> devices, long wallNanos) {
    public L3Report {
        calls = List.copyOf(calls);
        devices = List.copyOf(devices);
    }

    /**
     * One chip call.
     *
     * @param startNanos when the call was dispatched, from the start of the run
     * @param wallNanos  host wall time of the call (dispatch to completion)
     * @param report     the chip's report: its {@code elapsedNanos} is the runtime stage time of the call
     */
    public record Call(int index, String label, String chipProgram, int deviceId, long startNanos, long wallNanos,
                       RunReport report) {
    }

    /**
     * One device (chip) of the run.
     *
     * @param calls         chip calls it ran
     * @param runtimeNanos  sum of its calls' chip elapsed time (the runtime stage)
     * @param deviceMicros  sum of its calls' estimated device time (the chip runs its calls one after another)
     * @param heapHighWater the largest heap high-water mark of any ring in any of its calls
     * @param heapBytes     that ring's heap capacity
     */
    public record Device(int deviceId, int calls, long runtimeNanos, double deviceMicros, long heapHighWater,
                         long heapBytes) {
        /**
         * {@code [L3] device 1: 2 call(s), runtime 812.3 us, device_us=41.2 (estimated), heap high-water 1.0 MiB of
         * 256.0 MiB}.
         */
        public String line() {
            if (calls == 0) {
                return "[L3] device " + deviceId + ": 0 calls";
            }
            return String.format(Locale.ROOT, "[L3] device %d: %d call(s), runtime %.1f us, device_us=%.1f (estimated),"
                    + " heap high-water %s of %s", deviceId, calls, runtimeNanos / 1e3, deviceMicros,
                    Sizes.format(heapHighWater), Sizes.format(heapBytes));
        }
    }

    /** The calls that ran on {@code deviceId}, in dispatch order. */
    public List<Call> callsOn(int deviceId) {
        return calls.stream().filter(c -> c.deviceId() == deviceId).toList();
    }

    /**
     * The whole run as one chip-style report: per ring the largest capacity and high-water marks over every call,
     * tasks summed, the run's wall time as elapsed time, and every call's DFX files.
     */
    public RunReport aggregate() {
        List<RunReport.Ring> rings = new ArrayList<>();
        RunReport first = calls.getFirst().report();
        for (int r = 0; r < first.rings().size(); r++) {
            long window = 0;
            long heap = 0;
            long deps = 0;
            long windowMax = 0;
            long heapMax = 0;
            long depsMax = 0;
            for (Call c : calls) {
                RunReport.Ring ring = c.report().ring(r);
                window = Math.max(window, ring.taskWindow());
                heap = Math.max(heap, ring.heapBytes());
                deps = Math.max(deps, ring.depPool());
                windowMax = Math.max(windowMax, ring.taskWindowMax());
                heapMax = Math.max(heapMax, ring.heapMax());
                depsMax = Math.max(depsMax, ring.depPoolMax());
            }
            rings.add(new RunReport.Ring(r, window, heap, deps, windowMax, heapMax, depsMax));
        }
        List<Path> files = new ArrayList<>();
        for (Call c : calls) {
            c.report().scopeStatsFile().ifPresent(files::add);
            files.addAll(c.report().dfxFiles());
        }
        return new RunReport(platform, first.aicpuThreadNum(), rings,
                calls.stream().mapToInt(c -> c.report().tensorMapCapacity()).max().orElse(0),
                calls.stream().mapToInt(c -> c.report().tensorMapMax()).max().orElse(0),
                calls.stream().mapToLong(c -> c.report().tasksExecuted()).sum(), wallNanos, Optional.empty(), files,
                null, calls.stream().mapToLong(c -> c.report().workFlops()).sum());
    }

    /** One line per device. */
    public List<String> lines() {
        return devices.stream().map(Device::line).toList();
    }
}
