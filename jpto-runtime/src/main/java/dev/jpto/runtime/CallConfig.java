package dev.jpto.runtime;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Per-run configuration (simpler's {@code CallConfig}). {@code aicpuThreadNum} 0 means the platform default,
 * explicit values must be ≥ 2 (one orchestrator plus at least one scheduler). DFX levels: swimlane 0–4,
 * dump_args 0–3, pmu ≥ 0. {@code outputPrefix} is required when any DFX flag is on and must be shorter than
 * 1024 bytes (UTF-8).
 */
public record CallConfig(int aicpuThreadNum,
                         int enableChipSwimlane, int enableDumpArgs, int enablePmu,
                         boolean enableDepGen, boolean enableScopeStats,
                         String outputPrefix,
                         RuntimeEnv runtimeEnv) {
    public static final int MAX_OUTPUT_PREFIX_BYTES = 1024;

    public CallConfig {
        runtimeEnv = runtimeEnv == null ? RuntimeEnv.defaults() : runtimeEnv;
        outputPrefix = outputPrefix == null ? "" : outputPrefix;
    }

    public static CallConfig defaults() {
        return new CallConfig(0, 0, 0, 0, false, false, "", RuntimeEnv.defaults());
    }

    public CallConfig withAicpuThreadNum(int n) {
        return new CallConfig(n, enableChipSwimlane, enableDumpArgs, enablePmu, enableDepGen, enableScopeStats,
                outputPrefix, runtimeEnv);
    }

    public CallConfig withRuntimeEnv(RuntimeEnv env) {
        return new CallConfig(aicpuThreadNum, enableChipSwimlane, enableDumpArgs, enablePmu, enableDepGen,
                enableScopeStats, outputPrefix, Objects.requireNonNull(env));
    }

    /** Turns on scope statistics, written under {@code prefix}/scope_stats/scope_stats.jsonl. */
    public CallConfig withScopeStats(String prefix) {
        return new CallConfig(aicpuThreadNum, enableChipSwimlane, enableDumpArgs, enablePmu, enableDepGen, true,
                prefix, runtimeEnv);
    }

    public boolean anyDiagnostic() {
        return enableChipSwimlane != 0 || enableDumpArgs != 0 || enablePmu != 0 || enableDepGen || enableScopeStats;
    }

    /** The AICPU thread count in force on {@code platform} for one chip on this host. */
    public int aicpuThreads(Platform platform) {
        return aicpuThreads(platform, 1);
    }

    /**
     * The AICPU thread count in force on {@code platform} when {@code hostChips} chips share this host: the value
     * set, or for 0 the host default ({@link Platform#hostAicpuThreadNum}).
     */
    public int aicpuThreads(Platform platform, int hostChips) {
        return aicpuThreadNum == 0 ? platform.hostAicpuThreadNum(hostChips) : aicpuThreadNum;
    }

    /** Throws IllegalArgumentException naming the field, rule, value and fix. */
    public void validate() {
        if (aicpuThreadNum != 0 && aicpuThreadNum < 2) {
            throw new IllegalArgumentException("aicpu_thread_num must be 0 (platform default) or >= 2 (one "
                    + "orchestrator plus at least one scheduler): aicpu_thread_num=" + aicpuThreadNum + " (try 2)");
        }
        if (aicpuThreadNum > 64) {
            throw new IllegalArgumentException("aicpu_thread_num must be <= 64 in the simulator: aicpu_thread_num="
                    + aicpuThreadNum + " (try 0 for the platform default)");
        }
        range("enable_chip_swimlane", enableChipSwimlane, 0, 4);
        range("enable_dump_args", enableDumpArgs, 0, 3);
        range("enable_pmu", enablePmu, 0, Integer.MAX_VALUE);
        if (anyDiagnostic() && outputPrefix.isEmpty()) {
            throw new IllegalArgumentException("output_prefix is required when a diagnostic flag is on ("
                    + diagnostics() + "): output_prefix is empty (set it to a directory, e.g. build/dfx)");
        }
        int bytes = outputPrefix.getBytes(StandardCharsets.UTF_8).length;
        if (bytes >= MAX_OUTPUT_PREFIX_BYTES) {
            throw new IllegalArgumentException("output_prefix must be shorter than " + MAX_OUTPUT_PREFIX_BYTES
                    + " bytes: output_prefix has " + bytes + " bytes (use a shorter directory)");
        }
        runtimeEnv.validate();
    }

    private String diagnostics() {
        StringBuilder sb = new StringBuilder();
        if (enableChipSwimlane != 0) sb.append("enable_chip_swimlane=").append(enableChipSwimlane).append(' ');
        if (enableDumpArgs != 0) sb.append("enable_dump_args=").append(enableDumpArgs).append(' ');
        if (enablePmu != 0) sb.append("enable_pmu=").append(enablePmu).append(' ');
        if (enableDepGen) sb.append("enable_dep_gen=1 ");
        if (enableScopeStats) sb.append("enable_scope_stats=1 ");
        return sb.toString().trim();
    }

    private static void range(String name, int v, int lo, int hi) {
        if (v < lo || v > hi) {
            throw new IllegalArgumentException(name + " must be in [" + lo + ", " + hi + "]: " + name + "=" + v
                    + " (try " + Math.max(lo, Math.min(hi, v)) + ")");
        }
    }
}
