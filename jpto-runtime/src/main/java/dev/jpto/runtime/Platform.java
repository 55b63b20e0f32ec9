package dev.jpto.runtime;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The chips jpto knows. Core counts are simpler's platform constants: a2a3 has 24 blocks and a5 has 36, each
 * block being one AIC (cube) core and two AIV (vector) cores. The default AICPU thread count is one
 * orchestrator plus the schedulers (a2a3: 4, a5: 5); a simulated chip runs them as OS threads, capped by the host's
 * cores ({@link #hostAicpuThreadNum}). Only the simulated platforms run in this build.
 */
public enum Platform {
    A2A3SIM("a2a3sim", true, 24, 48, 4),
    A5SIM("a5sim", true, 36, 72, 5),
    A2A3("a2a3", false, 24, 48, 4),
    A5("a5", false, 36, 72, 5);

    private final String text;
    private final boolean simulated;
    private final int aicCores;
    private final int aivCores;
    private final int defaultAicpuThreadNum;

    Platform(String text, boolean simulated, int aicCores, int aivCores, int defaultAicpuThreadNum) {
        this.text = text;
        this.simulated = simulated;
        this.aicCores = aicCores;
        this.aivCores = aivCores;
        this.defaultAicpuThreadNum = defaultAicpuThreadNum;
    }

    /** Parses a platform name ({@code a2a3sim}, {@code a5sim}, {@code a2a3}, {@code a5}); the error lists them. */
    public static Platform parse(String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        for (Platform p : values()) {
            if (p.text.equals(t)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown platform '" + text + "'; valid: "
                + Arrays.stream(values()).map(Platform::text).collect(Collectors.joining(", ")));
    }

    public boolean simulated() {
        return simulated;
    }

    /** Logical cube (AIC) cores. */
    public int aicCores() {
        return aicCores;
    }

    /** Logical vector (AIV) cores. */
    public int aivCores() {
        return aivCores;
    }

    /** AICPU threads when {@code aicpu_thread_num} is 0: one orchestrator plus {@code n - 1} schedulers. */
    public int defaultAicpuThreadNum() {
        return defaultAicpuThreadNum;
    }

    /**
     * AICPU threads a simulated chip starts when {@code aicpu_thread_num} is 0 and {@code chips} chips share this
     * host: {@link #aicpuThreadsOnHost} with the JVM's available processors.
     */
    public int hostAicpuThreadNum(int chips) {
        return aicpuThreadsOnHost(defaultAicpuThreadNum, Runtime.getRuntime().availableProcessors(), chips);
    }

    /**
     * The host rule for the default AICPU thread count: {@code min(platformDefault, 1 + max(1, cores / chips))}, one
     * orchestrator (mostly waiting once the tasks are submitted) plus one scheduler per host core a chip gets, at
     * least one. Scheduler threads beyond the cores only time-slice the same cores (2 chips × 4 threads on 2 cores
     * ran 0.65× of 1 chip); the simulated core counts do not change, only how many OS threads run them.
     */
    public static int aicpuThreadsOnHost(int platformDefault, int cores, int chips) {
        if (platformDefault < 2 || cores < 1 || chips < 1) {
            throw new IllegalArgumentException("host AICPU threads need platformDefault >= 2, cores >= 1, chips >= 1: "
                    + "platformDefault=" + platformDefault + ", cores=" + cores + ", chips=" + chips);
        }
        return Math.min(platformDefault, 1 + Math.max(1, cores / chips));
    }

    public int cores(CoreType type) {
        return type == CoreType.AIC ? aicCores : aivCores;
    }

    /** The cluster of logical core {@code core}: cube core {@code k} and vector cores {@code 2k, 2k + 1} form one. */
    public static int clusterOf(CoreType type, int core) {
        return type == CoreType.AIC ? core : core / 2;
    }

    /**
     * The scheduler thread (of {@code threads}) that runs logical core {@code core}: whole clusters are dealt round
     * robin, so a mixed task's cluster belongs to one thread.
     */
    public static int schedulerThreadOf(CoreType type, int core, int threads) {
        return clusterOf(type, core) % threads;
    }

    /**
     * This platform if it can run in this build; a hardware platform is an IllegalArgumentException naming the
     * simulated platform to use instead (there is no device runtime here).
     */
    public Platform requireSimulated() {
        if (!simulated) {
            throw new IllegalArgumentException("platform " + text + " is hardware: no device runtime in this build; use "
                    + simulatedTwin().text + " (or a2a3sim / a5sim)");
        }
        return this;
    }

    /** The simulated platform with this one's core layout (a2a3 → a2a3sim, a5 → a5sim). */
    public Platform simulatedTwin() {
        return switch (this) {
            case A2A3SIM, A2A3 -> A2A3SIM;
            case A5SIM, A5 -> A5SIM;
        };
    }

    public String text() {
        return text;
    }

    @Override
    public String toString() {
        return text;
    }
}
