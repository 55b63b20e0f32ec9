package dev.jpto.lib.runner;

import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.device.HardwareSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The per-kernel table {@code jpto run} prints after a run with {@code enable_pmu}: read back from the runtime's
 * {@code pmu.csv} (so it shows exactly what the file holds), one row per kernel in order of first appearance.
 */
final class PmuSummary {
    /**
     * One kernel's tasks: the core type they ran on, count, summed wall time of their bodies, summed estimated
     * device cycles, FLOPs and bytes moved.
     */
    public record Kernel(String kernel, CoreType core, long tasks, long wallNanos, long deviceCycles, long flops,
                         long bytesRead, long bytesWritten) {
        public double totalMicros() {
            return wallNanos / 1e3;
        }

        public double meanMicros() {
            return tasks == 0 ? 0 : wallNanos / 1e3 / tasks;
        }

        /** FLOPs per nanosecond of body time = GFLOP/s. */
        public double gflops() {
            return wallNanos == 0 ? 0 : (double) flops / wallNanos;
        }

        /** Bytes per nanosecond = GB/s (read + written). */
        public double gbPerSecond() {
            return wallNanos == 0 ? 0 : (double) (bytesRead + bytesWritten) / wallNanos;
        }

        /**
         * The roofline of the kernel's device time on {@code spec}'s chip: the fraction of its estimated cycles
         * that its FLOPs would take at the core's compute peak (the cube's fp16 rate on a cube core, the vector's
         * fp32 simple-op rate on a vector core), and that its GM bytes would take at the core's load and store
         * rates. NaN when the kernel reported no device cycles.
         */
        public Roofline roofline(HardwareSpec spec) {
            if (deviceCycles == 0) {
                return new Roofline(core, Double.NaN, Double.NaN);
            }
            double compute = flops / spec.peakFlopsPerCycle(core) / deviceCycles;
            double gm = (bytesRead / spec.loadBytesPerCycle(core) + bytesWritten / spec.storeBytesPerCycle(core))
                    / deviceCycles;
            return new Roofline(core, compute, gm);
        }
    }

    /** Achieved fractions of one core's peaks: compute (cube or vector, by {@code core}) and GM bandwidth. */
    public record Roofline(CoreType core, double compute, double gm) {
        public double cube() {
            return core == CoreType.AIC ? compute : Double.NaN;
        }

        public double vector() {
            return core == CoreType.AIV ? compute : Double.NaN;
        }
    }

    private PmuSummary() {
    }

    /** Parses {@code pmu.csv} (columns located by the header) into per-kernel totals. */
    public static List<Kernel> read(Path pmuCsv) {
        List<String> lines;
        try {
            lines = Files.readAllLines(pmuCsv);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + pmuCsv + ": " + e.getMessage(), e);
        }
        if (lines.isEmpty()) {
            throw new IllegalArgumentException(pmuCsv + " is empty: expected a header line");
        }
        List<String> header = List.of(lines.getFirst().split(","));
        int kernel = column(header, "kernel", pmuCsv), wall = column(header, "wall_ns", pmuCsv),
                flops = column(header, "flops", pmuCsv), read = column(header, "bytes_read", pmuCsv),
                written = column(header, "bytes_written", pmuCsv), device = column(header, "device_cycles", pmuCsv),
                coreType = column(header, "core_type", pmuCsv);
        Map<String, long[]> acc = new LinkedHashMap<>();
        Map<String, CoreType> cores = new LinkedHashMap<>();
        for (String line : lines.subList(1, lines.size())) {
            if (line.isBlank()) {
                continue;
            }
            String[] c = line.split(",");
            long[] a = acc.computeIfAbsent(c[kernel], k -> new long[6]);
            cores.putIfAbsent(c[kernel], CoreType.valueOf(c[coreType]));
            a[0]++;
            a[1] += Long.parseLong(c[wall]);
            a[2] += Long.parseLong(c[flops]);
            a[3] += Long.parseLong(c[read]);
            a[4] += Long.parseLong(c[written]);
            a[5] += Long.parseLong(c[device]);
        }
        List<Kernel> out = new ArrayList<>();
        acc.forEach((k, a) -> out.add(new Kernel(k, cores.get(k), a[0], a[1], a[5], a[2], a[3], a[4])));
        return out;
    }

    private static int column(List<String> header, String name, Path file) {
        int i = header.indexOf(name);
        if (i < 0) {
            throw new IllegalArgumentException(file + " has no '" + name + "' column: header is " + header);
        }
        return i;
    }

    /**
     * The table: a header line, then one aligned line per kernel; host columns (body wall time and the rates it
     * gives), then {@code device_us}: the kernel's summed estimated device time on {@code spec}'s chip, and its
     * roofline ({@link Kernel#roofline}) as {@code cube%}, {@code vec%} and {@code gm%} ({@code -} where the
     * kernel's core has no such unit or it reported no device time).
     */
    public static List<String> table(List<Kernel> kernels, HardwareSpec spec) {
        int w = Math.max(6, kernels.stream().mapToInt(k -> k.kernel().length()).max().orElse(0));
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "%-" + w + "s %7s %12s %10s %10s %9s %11s %6s %6s %6s", "kernel", "tasks",
                "total_us", "mean_us", "GFLOP/s", "GB/s", "device_us", "cube%", "vec%", "gm%"));
        for (Kernel k : kernels) {
            Roofline r = k.roofline(spec);
            lines.add(String.format(Locale.ROOT, "%-" + w + "s %7d %12.1f %10.2f %10.3f %9.3f %11.3f %6s %6s %6s",
                    k.kernel(), k.tasks(), k.totalMicros(), k.meanMicros(), k.gflops(), k.gbPerSecond(),
                    spec.cyclesToPs(k.deviceCycles()) / 1e6, percent(r.cube()), percent(r.vector()),
                    percent(r.gm())));
        }
        return lines;
    }

    private static String percent(double fraction) {
        return Double.isNaN(fraction) ? "-" : String.format(Locale.ROOT, "%.1f", 100 * fraction);
    }
}
