package dev.jpto.models.dsv4.kernels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.compiler.run.RunConfig;
import dev.jpto.models.dsv4.Dsv4Faults;
import dev.jpto.models.dsv4.Dsv4Preset;
import dev.jpto.models.dsv4.Dsv4Program;
import dev.jpto.runtime.ChipRuntimeException;
import dev.jpto.runtime.Platform;
import java.lang.foreign.Arena;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The seeds' ring table at the {@code pro} preset (opt-in: {@code -Ddsv4.pro=true}; minutes and several GiB):
 * 256 MiB per ring deadlocks on ring 1's heap, 512 MiB and 1 GiB pass, on a5sim and a2a3sim; and the {@code demo}
 * preset (non-zero sinks) passes. {@code -Ddsv4.only=SWA-a5sim} (a prefix of PROGRAM-PLATFORM-MiB) picks rows.
 */
@EnabledIfSystemProperty(named = "dsv4.pro", matches = "true")
class Dsv4KernelsProRun {
    private static final long MIB = 1L << 20;

    @ParameterizedTest(name = "{0} {1} ring_heap={2}MiB")
    @CsvSource({
            "SWA, a5sim, 256", "SWA, a5sim, 512", "SWA, a5sim, 1024",
            "SWA, a2a3sim, 256", "SWA, a2a3sim, 512", "SWA, a2a3sim, 1024",
            "CSA, a5sim, 256", "CSA, a5sim, 512", "CSA, a5sim, 1024",
            "CSA, a2a3sim, 256", "CSA, a2a3sim, 512", "CSA, a2a3sim, 1024",
            "HCA, a5sim, 256", "HCA, a5sim, 512", "HCA, a5sim, 1024",
            "HCA, a2a3sim, 256", "HCA, a2a3sim, 512", "HCA, a2a3sim, 1024"})
    void ringTable(Dsv4Program prog, String platform, long heapMib) {
        String only = System.getProperty("dsv4.only", "");
        if (!only.isEmpty() && !(prog + "-" + platform + "-" + heapMib).startsWith(only)) {
            return;
        }
        RunConfig cfg = RunConfig.fromMap(Dsv4Kernels.defaultRuntimeCfg()).withPlatform(Platform.parse(platform))
                .withRingHeap(heapMib * MIB);
        try (Arena arena = Arena.ofShared()) {
            if (heapMib == 256) {
                assertThatThrownBy(() -> Dsv4KernelRun.run(prog, Dsv4Preset.pro(), Dsv4Faults.NONE, cfg, arena))
                        .isInstanceOf(ChipRuntimeException.class)
                        .hasMessageContaining("orch_error_code=2 HEAP_RING_DEADLOCK")
                        .hasMessageContaining("ring_heap").hasMessageContaining("ring 1")
                        .satisfies(e -> System.out.println(prog + " " + platform + " 256MiB: " + e.getMessage()));
                return;
            }
            Dsv4KernelRun r = Dsv4KernelRun.run(prog, Dsv4Preset.pro(), Dsv4Faults.NONE, cfg, arena);
            long rss = rssBytes();
            System.out.printf("%s %s %dMiB: runtime %.2f s, ring heap_max %s MiB, share relL2=%.5f gain=%.5f, "
                            + "x_out bad=%d, peak RSS %.2f GiB, failures %s%n", prog, platform, heapMib,
                    r.report().elapsedNanos() / 1e9,
                    r.report().rings().stream().map(x -> String.format("%.2f", x.heapMax() / (double) MIB)).toList(),
                    r.share().relL2(), r.share().gain(), r.xOut().bad(), rss / (double) (1L << 30), r.failures());
            assertThat(r.failures()).isEmpty();
            assertThat(r.report().ring(1).heapMax()).isGreaterThan(256 * MIB).isLessThanOrEqualTo(512 * MIB);
        }
    }

    @ParameterizedTest(name = "{0} demo")
    @CsvSource({"SWA", "CSA", "HCA"})
    void demoPasses(Dsv4Program prog) {
        if (!System.getProperty("dsv4.only", "").isEmpty()) {
            return;
        }
        try (Arena arena = Arena.ofShared()) {
            Dsv4KernelRun r = Dsv4KernelRun.run(prog, Dsv4Preset.demo(), Dsv4Faults.NONE,
                    RunConfig.fromMap(Dsv4Kernels.defaultRuntimeCfg()), arena);
            System.out.printf("%s demo: runtime %.2f s, ring 1 heap_max %.2f MiB, share relL2=%.5f gain=%.5f, "
                            + "failures %s%n", prog, r.report().elapsedNanos() / 1e9,
                    r.report().ring(1).heapMax() / (double) MIB, r.share().relL2(), r.share().gain(), r.failures());
            assertThat(r.failures()).isEmpty();
        }
    }

    /** VmHWM of this JVM (peak resident set), from /proc; 0 where unavailable. */
    static long rssBytes() {
        try {
            for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("\\D+", "")) * 1024;
                }
            }
        } catch (java.io.IOException e) {
            return 0;
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
