package dev.jpto.cli;

import dev.jpto.compiler.run.CallConfigs;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.runtime.Platform;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/** The options every command that runs on a chip takes: which chip, runtime_cfg entries, DFX switches. */
final class ChipOptions {
    @Option(names = {"-p", "--platform"}, paramLabel = "PLATFORM", defaultValue = "a2a3sim",
            converter = PlatformConverter.class,
            description = "a2a3sim, a5sim (simulated), a2a3, a5 (hardware: no device in this build); "
                    + "default ${DEFAULT-VALUE}")
    Platform platform;

    @Option(names = {"-d", "--device"}, paramLabel = "N", defaultValue = "0",
            description = "device index (default ${DEFAULT-VALUE})")
    int device;

    @Option(names = "--runtime-cfg", paramLabel = "KEY=VALUE", parameterConsumer = RuntimeCfgEntries.class,
            description = "a RunConfig field, repeatable; keys are RunConfig's own names, e.g. ring_heap=512MiB, "
                    + "ring_heap=0,0,2GiB,0, ring_task_window=4096, ring_dep_pool=auto, aicpu_thread_num=4 (all keys below)")
    Map<String, String> runtimeCfg = new LinkedHashMap<>();

    @Option(names = "--enable-scope-stats", description = "write scope statistics under the output dir")
    boolean scopeStats;

    @Option(names = "--enable-chip-swimlane",
            description = "write the chip swimlane trace (level 1; other levels: --runtime-cfg enable_chip_swimlane=N)")
    boolean swimlane;

    @Option(names = "--enable-dep-gen", description = "write the dependency graph (deps.json)")
    boolean depGen;

    @Option(names = "--dump-args",
            description = "dump task arguments (level 1; other levels: --runtime-cfg enable_dump_args=N)")
    boolean dumpArgs;

    @Option(names = "--enable-pmu",
            description = "write per-task counters (pmu.csv) and print a per-kernel table (event type 2; other "
                    + "types: --runtime-cfg enable_pmu=N)")
    boolean pmu;

    @Option(names = "--verbose", description = "show stack traces of errors")
    boolean verbose;

    /** Every DFX output a report draws from: scope statistics, swimlane, dependency graph, PMU counters. */
    void enableForReport() {
        runtimeCfg.putIfAbsent("enable_chip_swimlane", "4"); // with submit times: when each task became ready
        scopeStats = true;
        swimlane = true;
        depGen = true;
        pmu = true;
    }

    /**
     * The runtime_cfg entries these options stand for: the --runtime-cfg map plus the DFX switches, with
     * {@code output_prefix} set to {@code outputDir} when a DFX output is on (by a switch or a --runtime-cfg entry)
     * and none was given.
     *
     * @throws UsageException when a DFX output is on but there is nowhere to write
     */
    Map<String, String> runtimeCfg(Optional<Path> outputDir) {
        Map<String, String> cfg = new LinkedHashMap<>(runtimeCfg);
        String firstDfx = null;
        for (Map.Entry<String, String> e : runtimeCfg.entrySet()) {
            if (firstDfx == null && writesFiles(e.getKey(), e.getValue())) {
                firstDfx = "--runtime-cfg " + e.getKey() + "=" + e.getValue();
            }
        }
        if (scopeStats) {
            cfg.put("enable_scope_stats", "true");
            firstDfx = firstDfx == null ? "--enable-scope-stats" : firstDfx;
        }
        if (swimlane) {
            cfg.putIfAbsent("enable_chip_swimlane", "1"); // an explicit level wins
            firstDfx = firstDfx == null ? "--enable-chip-swimlane" : firstDfx;
        }
        if (depGen) {
            cfg.put("enable_dep_gen", "true");
            firstDfx = firstDfx == null ? "--enable-dep-gen" : firstDfx;
        }
        if (dumpArgs) {
            cfg.putIfAbsent("enable_dump_args", "1");
            firstDfx = firstDfx == null ? "--dump-args" : firstDfx;
        }
        if (pmu) {
            cfg.putIfAbsent("enable_pmu", "2"); // PIPE_UTILIZATION, the original's default event type
            firstDfx = firstDfx == null ? "--enable-pmu" : firstDfx;
        }
        if (firstDfx != null && !cfg.containsKey("output_prefix")) {
            String flag = firstDfx;
            Path dir = outputDir.orElseThrow(() -> new UsageException(flag
                    + " writes files: give --output-dir DIR (or --runtime-cfg output_prefix=DIR)"));
            cfg.put("output_prefix", dir.toAbsolutePath().toString());
        }
        return cfg;
    }

    /** Whether one valid runtime_cfg entry switches on a DFX output: the runtime's rule (CallConfig.anyDiagnostic). */
    private static boolean writesFiles(String key, String value) {
        try {
            RunConfig entry = RunConfig.defaults().with(key, value);
            entry.withOutputPrefix("dfx").validate(); // a level out of range is not a request for files
            return CallConfigs.writesDiagnostics(entry);
        } catch (IllegalArgumentException e) {
            return false; // a bad entry is reported, in its context, where the whole config is resolved
        }
    }
}
