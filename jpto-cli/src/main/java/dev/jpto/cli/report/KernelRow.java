package dev.jpto.cli.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One kernel's totals: tasks, host wall time, device time (estimated, 0 when unknown), bytes moved and FLOPs. Rates
 * are per host wall time or per device time.
 */
record KernelRow(String kernel, int tasks, double totalUs, double deviceUs, long bytes, long flops) {

    double meanUs() {
        return tasks == 0 ? 0 : totalUs / tasks;
    }

    double gflops() {
        return totalUs == 0 ? 0 : flops / totalUs / 1e3;
    }

    double gbps() {
        return totalUs == 0 ? 0 : bytes / totalUs / 1e3;
    }

    double deviceGflops() {
        return deviceUs == 0 ? 0 : flops / deviceUs / 1e3;
    }

    /** FLOPs per byte moved (0 when nothing moved). */
    double intensity() {
        return bytes == 0 ? 0 : (double) flops / bytes;
    }

    /** Per kernel from {@code pmu.csv} (device cycles at {@code clockMhz}), in order of first appearance. */
    static List<KernelRow> ofPmu(List<PmuRow> rows, int clockMhz) {
        Map<String, long[]> sums = new LinkedHashMap<>();
        for (PmuRow r : rows) {
            long[] s = sums.computeIfAbsent(r.kernel(), k -> new long[5]);
            s[0]++;
            s[1] += r.wallNs();
            s[2] += r.deviceCycles();
            s[3] += r.bytes();
            s[4] += r.flops();
        }
        List<KernelRow> out = new ArrayList<>();
        sums.forEach((k, s) -> out.add(new KernelRow(k, (int) s[0], s[1] / 1e3,
                clockMhz == 0 ? 0 : (double) s[2] / clockMhz, s[3], s[4])));
        return out;
    }

    /** Per kernel from a swimlane alone: counts and times, no bytes or FLOPs. */
    static List<KernelRow> ofTrace(Trace host) {
        Map<String, double[]> sums = new LinkedHashMap<>();
        for (TraceTask t : host.tasks()) {
            double[] s = sums.computeIfAbsent(t.kernel(), k -> new double[2]);
            s[0]++;
            s[1] += t.durUs();
        }
        List<KernelRow> out = new ArrayList<>();
        sums.forEach((k, s) -> out.add(new KernelRow(k, (int) s[0], s[1], 0, 0, 0)));
        return out;
    }
}
