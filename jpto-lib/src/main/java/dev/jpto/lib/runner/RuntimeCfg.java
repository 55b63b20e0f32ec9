package dev.jpto.lib.runner;

import dev.jpto.compiler.run.RunConfig;
import dev.jpto.runtime.Platform;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns a program's default runtime_cfg, the caller's runtime_cfg and the run's chip into one {@link RunConfig}
 * through {@link RunConfig#fromMap}: the keys are RunConfig's own, so an unknown key is rejected there with the
 * list of valid ones; this class adds no vocabulary of its own.
 */
public final class RuntimeCfg {
    private static final String PLATFORM = "platform";
    private static final String DEVICE_ID = "device_id";

    private RuntimeCfg() {
    }

    /**
     * The RunConfig of a run: {@code defaults} overridden by {@code runtimeCfg}, on {@code platform} device
     * {@code deviceId}. A runtime_cfg that names another platform or device than the run's is refused (one chip per
     * run, and the benchmark must use the same one). A hardware platform, or a ring size beyond the simulator's
     * limits, is refused here too ({@link RunConfig#checkRunnable}), before anything is compiled or computed.
     *
     * @throws JitConfigException naming the key, the value and what is allowed
     */
    public static RunConfig resolve(Map<String, String> defaults, Map<String, String> runtimeCfg, Platform platform,
                                    int deviceId) {
        Map<String, String> merged = new TreeMap<>(defaults);
        merged.putAll(runtimeCfg);
        conflict(runtimeCfg, PLATFORM, platform.text(), "--platform");
        conflict(runtimeCfg, DEVICE_ID, Integer.toString(deviceId), "--device");
        merged.put(PLATFORM, platform.text());
        merged.put(DEVICE_ID, Integer.toString(deviceId));
        RunConfig config;
        try {
            config = RunConfig.fromMap(merged);
        } catch (IllegalArgumentException e) {
            throw new JitConfigException("runtime_cfg: " + e.getMessage(), e);
        }
        try {
            // refused now, not after the compile and the golden a refused run would waste
            return config.checkRunnable();
        } catch (IllegalArgumentException e) {
            throw new JitConfigException(e.getMessage(), e);
        }
    }

    private static void conflict(Map<String, String> cfg, String key, String runValue, String flag) {
        String v = cfg.get(key);
        if (v != null && !v.trim().equalsIgnoreCase(runValue)) {
            throw new JitConfigException("runtime_cfg " + key + "=" + v + " disagrees with the run's " + flag + " "
                    + runValue + "; give the chip once (" + flag + ")", null);
        }
    }
}
