package dev.jpto.lib.runner;

import dev.jpto.runtime.Platform;
import dev.jpto.runtime.device.HardwareSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The log lines that say where a run's DFX outputs went ({@code [RUN] dfx under PREFIX: files}) and, for
 * {@code pmu.csv}, its per-kernel table: the same lines after a passed and a failed run, for {@code jpto run} and
 * {@code jpto exec} alike.
 */
public final class DfxReport {
    private DfxReport() {
    }

    /**
     * The lines for {@code files} written under {@code outputPrefix} by a run on {@code platform} (the PMU table's
     * device column uses its chip); none when no file was written.
     */
    public static List<String> lines(String outputPrefix, List<Path> files, Platform platform) {
        List<String> lines = new ArrayList<>();
        if (files.isEmpty()) {
            return lines;
        }
        Path prefix = Path.of(outputPrefix);
        lines.add("[RUN] dfx under " + prefix + ": " + String.join(", ",
                files.stream().map(f -> prefix.relativize(f).toString()).toList()));
        files.stream().filter(f -> f.getFileName().toString().equals("pmu.csv")).findFirst().ifPresent(pmu -> {
            List<PmuSummary.Kernel> kernels = PmuSummary.read(pmu);
            long tasks = kernels.stream().mapToLong(PmuSummary.Kernel::tasks).sum();
            lines.add("[RUN] pmu: " + tasks + " task(s), " + kernels.size() + " kernel(s); body wall time per kernel, "
                    + "device_us estimated");
            lines.addAll(PmuSummary.table(kernels, HardwareSpec.of(platform)));
        });
        return lines;
    }
}
