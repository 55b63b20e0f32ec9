package dev.jpto.compiler.run;

import dev.jpto.runtime.CallConfig;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.RingField;
import dev.jpto.runtime.chip.Chip;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * How to run a compiled program: which chip, and every per-run setting the chip takes. Every dispatch surface
 * accepts one and turns it into the runtime's CallConfig through {@link CallConfigs#from} only.
 *
 * <p>The string form ({@code --runtime-cfg KEY=VALUE}, {@link #fromMap}) uses the snake_case names of these
 * record components ({@link RunConfigKeys}); there is no other list of keys.
 *
 * @param platform         the chip ({@code a2a3sim} by default); host-only: chooses the chip that is opened
 * @param deviceId         the device index (default 0); host-only
 * @param aicpuThreadNum   AICPU threads (1 orchestrator + schedulers); 0 = the platform's default capped by the
 *                         host's cores ({@code Platform.hostAicpuThreadNum}), else ≥ 2
 * @param enableChipSwimlane swimlane trace level 0–4
 * @param enableDumpArgs   argument dump level 0–3
 * @param enablePmu        PMU event type, 0 = off
 * @param enableDepGen     write the dependency graph (deps.json)
 * @param enableScopeStats write scope statistics (scope_stats/scope_stats.jsonl)
 * @param outputPrefix     directory for DFX outputs; required when any DFX flag is on; "" = none
 * @param ringTaskWindow   task slots per ring ({@link RingField#TASK_WINDOW}), or auto (from the ring plan)
 * @param ringHeap         heap bytes per ring ({@link RingField#HEAP}), or auto (from the ring plan)
 * @param ringDepPool      dependency entries per ring ({@link RingField#DEP_POOL}), or auto (from the ring plan)
 * @param osEnv            OS environment overrides for the run — not ring sizing (see {@link OsEnv} for what is
 *                         accepted); host-only
 *
 * <p>Validation choices (spec g.1 and h.2): ring ranges are simpler's ({@link RingField}, applied by
 * {@link CallConfigs#from}); in particular {@code ring_heap} has no power-of-two rule, because the simulated heap
 * ring allocates any size exactly and such a rule would only reject working sizes such as 768MiB. Like pypto, a
 * scalar 0 is rejected (omit the field to keep defaults) while 0 inside a four-value list keeps that ring's
 * default. Booleans are not accepted for the integer DFX levels.
 */
public record RunConfig(
        @Knob("chip platform: a2a3sim, a5sim (a2a3, a5: hardware, not in this build)") Platform platform,
        @Knob("device index") int deviceId,
        @Knob(value = "AICPU threads, 1 orchestrator + schedulers; 0 = platform default, else >= 2", programNeed = true)
        int aicpuThreadNum,
        @Knob("chip swimlane trace level 0-4") int enableChipSwimlane,
        @Knob("argument dump level 0-3") int enableDumpArgs,
        @Knob("PMU event type, 0 = off") int enablePmu,
        @Knob("write the dependency graph deps.json") boolean enableDepGen,
        @Knob("write scope_stats/scope_stats.jsonl") boolean enableScopeStats,
        @Knob("directory for DFX outputs; required when a DFX flag is on") String outputPrefix,
        @Knob(programNeed = true) RingSize ringTaskWindow,
        @Knob(programNeed = true) RingSize ringHeap,
        @Knob(programNeed = true) RingSize ringDepPool,
        @Knob("OS environment for the chip host, NAME=value,...: " + OsEnv.SCHEDULER_TIMEOUT_MS
                + " only (not ring sizing)") Map<String, String> osEnv) {
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    public RunConfig {
        Objects.requireNonNull(platform, "platform (use Platform.A2A3SIM)");
        Objects.requireNonNull(outputPrefix, "output_prefix (use \"\" for none)");
        Objects.requireNonNull(ringTaskWindow, "ring_task_window (use RingSize.absent())");
        Objects.requireNonNull(ringHeap, "ring_heap (use RingSize.absent())");
        Objects.requireNonNull(ringDepPool, "ring_dep_pool (use RingSize.absent())");
        Objects.requireNonNull(osEnv, "os_env (use Map.of())");
        if (deviceId < 0) {
            throw new IllegalArgumentException("device_id must be >= 0: device_id=" + deviceId + " (try 0)");
        }
        noScalarZero("ring_task_window", ringTaskWindow);
        noScalarZero("ring_heap", ringHeap);
        noScalarZero("ring_dep_pool", ringDepPool);
        for (String name : osEnv.keySet()) {
            if (!ENV_NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("os_env names must be environment variable names "
                        + "([A-Za-z_][A-Za-z0-9_]*): os_env has '" + name + "'");
            }
        }
        osEnv = Map.copyOf(new TreeMap<>(osEnv));
    }

    private static void noScalarZero(String key, RingSize size) {
        switch (size) {
            case RingSize.Uniform u when u.value() <= 0 -> throw new IllegalArgumentException(key
                    + " must be positive: " + key + "=" + u.value() + " (omit " + key
                    + " to keep the defaults, or give four values with 0 for the rings that keep theirs)");
            case RingSize.PerRing p -> {
                for (long v : p.entries()) {
                    if (v < 0) {
                        throw new IllegalArgumentException(key + " entries must be >= 0 (0 = default): " + key + "="
                                + p.text());
                    }
                }
            }
            default -> { }
        }
    }

    /** Defaults: a2a3sim, device 0, platform thread count, no DFX, default rings, no OS overrides. */
    public static RunConfig defaults() {
        return new RunConfig(Platform.A2A3SIM, 0, 0, 0, 0, 0, false, false, "", RingSize.absent(), RingSize.absent(),
                RingSize.absent(), Map.of());
    }

    /**
     * Builds a config from {@code key=value} strings over the defaults. Keys are the snake_case component names;
     * an unknown key, a malformed value or a wrong count is an IllegalArgumentException naming the key and listing
     * the valid ones; the result is fully validated (as {@link CallConfigs#from} would).
     */
    public static RunConfig fromMap(Map<String, String> values) {
        RunConfig c = RunConfigKeys.apply(defaults(), values);
        c.validate();
        return c;
    }

    /**
     * Checks everything a dispatch would check before opening a chip: the CallConfig rules
     * ({@link CallConfigs#from}) and the os_env names ({@link OsEnv#chipOptions}). Returns this config.
     */
    public RunConfig validate() {
        CallConfigs.from(AutoRings.withoutAuto(this));
        OsEnv.chipOptions(osEnv);
        return this;
    }

    /**
     * Checks what this build could not run although the config is valid: a hardware platform (no device runtime),
     * explicit ring sizes beyond the simulator's preallocation limits, and heap rings this host cannot map (tried
     * here, then released). Returns this config; callers check before work a refused run would waste (compiling,
     * computing a golden).
     *
     * @throws IllegalArgumentException naming the platform to use, or the field, value and limit
     */
    public RunConfig checkRunnable() {
        platform.requireSimulated();
        CallConfig call = CallConfigs.from(AutoRings.withoutAuto(this));
        Chip.checkSimulatorLimits(call);
        Chip.checkHeapReservable(call);
        return this;
    }

    /** This config as {@code key=value} strings (absent ring fields and empty os_env omitted); fromMap inverts it. */
    public Map<String, String> asMap() {
        return RunConfigKeys.asMap(this);
    }

    /** A copy with one field changed from its string form, e.g. {@code with("ring_heap", "512MiB")}. */
    public RunConfig with(String key, String value) {
        return RunConfigKeys.apply(this, Map.of(key, value));
    }

    public RunConfig withPlatform(Platform p) {
        return new RunConfig(p, deviceId, aicpuThreadNum, enableChipSwimlane, enableDumpArgs, enablePmu, enableDepGen,
                enableScopeStats, outputPrefix, ringTaskWindow, ringHeap, ringDepPool, osEnv);
    }

    public RunConfig withDeviceId(int id) {
        return new RunConfig(platform, id, aicpuThreadNum, enableChipSwimlane, enableDumpArgs, enablePmu, enableDepGen,
                enableScopeStats, outputPrefix, ringTaskWindow, ringHeap, ringDepPool, osEnv);
    }

    public RunConfig withAicpuThreadNum(int n) {
        return new RunConfig(platform, deviceId, n, enableChipSwimlane, enableDumpArgs, enablePmu, enableDepGen,
                enableScopeStats, outputPrefix, ringTaskWindow, ringHeap, ringDepPool, osEnv);
    }

    public RunConfig withEnableChipSwimlane(int level) {
        return new RunConfig(platform, deviceId, aicpuThreadNum, level, enableDumpArgs, enablePmu, enableDepGen,
                enableScopeStats, outputPrefix, ringTaskWindow, ringHeap, ringDepPool, osEnv);
    }

    public RunConfig withEnableDumpArgs(int level) {
        return new RunConfig(platform, deviceId, aicpuThreadNum, enableChipSwimlane, level, enablePmu, enableDepGen,
                enableScopeStats, outputPrefix, ringTaskWindow, ringHeap, ringDepPool, osEnv);
    }

    public RunConfig withEnablePmu(int eventType) {
        return new RunConfig(platform, deviceId, aicpuThreadNum, enableChipSwimlane, enableDumpArgs, eventType,
                enableDepGen, enableScopeStats, outputPrefix, ringTaskWindow, ringHeap, ringDepPool, osEnv);
    }

    public RunConfig withEnableDepGen(boolean on) {
        return new RunConfig(platform, deviceId, aicpuThreadNum, enableChipSwimlane, enableDumpArgs, enablePmu, on,
                enableScopeStats, outputPrefix, ringTaskWindow, ringHeap, ringDepPool, osEnv);
    }

    public RunConfig withEnableScopeStats(boolean on) {
        return new RunConfig(platform, deviceId, aicpuThreadNum, enableChipSwimlane, enableDumpArgs, enablePmu,
                enableDepGen, on, outputPrefix, ringTaskWindow, ringHeap, ringDepPool, osEnv);
    }

    public RunConfig withOutputPrefix(String prefix) {
        return new RunConfig(platform, deviceId, aicpuThreadNum, enableChipSwimlane, enableDumpArgs, enablePmu,
                enableDepGen, enableScopeStats, prefix, ringTaskWindow, ringHeap, ringDepPool, osEnv);
    }

    public RunConfig withRingTaskWindow(RingSize size) {
        return new RunConfig(platform, deviceId, aicpuThreadNum, enableChipSwimlane, enableDumpArgs, enablePmu,
                enableDepGen, enableScopeStats, outputPrefix, size, ringHeap, ringDepPool, osEnv);
    }

    public RunConfig withRingHeap(RingSize size) {
        return new RunConfig(platform, deviceId, aicpuThreadNum, enableChipSwimlane, enableDumpArgs, enablePmu,
                enableDepGen, enableScopeStats, outputPrefix, ringTaskWindow, size, ringDepPool, osEnv);
    }

    public RunConfig withRingDepPool(RingSize size) {
        return new RunConfig(platform, deviceId, aicpuThreadNum, enableChipSwimlane, enableDumpArgs, enablePmu,
                enableDepGen, enableScopeStats, outputPrefix, ringTaskWindow, ringHeap, size, osEnv);
    }

    /** One task-window size for all four rings. */
    public RunConfig withRingTaskWindow(long slots) {
        return withRingTaskWindow(RingSize.of(slots));
    }

    /** One heap size (bytes) for all four rings. */
    public RunConfig withRingHeap(long bytes) {
        return withRingHeap(RingSize.of(bytes));
    }

    /** Heap sizes (bytes) per ring; 0 keeps a ring's default. */
    public RunConfig withRingHeap(long ring0, long ring1, long ring2, long ring3) {
        return withRingHeap(RingSize.of(ring0, ring1, ring2, ring3));
    }

    /** One dep-pool size for all four rings. */
    public RunConfig withRingDepPool(long entries) {
        return withRingDepPool(RingSize.of(entries));
    }

    public RunConfig withOsEnv(Map<String, String> env) {
        return new RunConfig(platform, deviceId, aicpuThreadNum, enableChipSwimlane, enableDumpArgs, enablePmu,
                enableDepGen, enableScopeStats, outputPrefix, ringTaskWindow, ringHeap, ringDepPool, env);
    }
}
