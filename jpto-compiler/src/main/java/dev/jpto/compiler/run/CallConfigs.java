package dev.jpto.compiler.run;

import dev.jpto.runtime.CallConfig;
import dev.jpto.runtime.RuntimeEnv;
import java.util.Map;

/**
 * The one place a {@link CallConfig} is built from a {@link RunConfig}, ring fields included. Every dispatch
 * surface calls {@link #from}; none builds a CallConfig of its own (a test scans the sources for that).
 */
public final class CallConfigs {
    /**
     * RunConfig components (by key) that are deliberately not part of the CallConfig, with where they are
     * applied instead. Every other component must change the CallConfig (a test walks the components).
     */
    public static final Map<String, String> HOST_ONLY = Map.of(
            "platform", "selects the chip that is opened (Chip.open)",
            "device_id", "selects the chip that is opened (Chip.open)",
            "os_env", "applied to the chip's host-side options when it is opened (OsEnv.chipOptions)");

    private CallConfigs() {
    }

    /**
     * The CallConfig for {@code config}: thread count, DFX flags and prefix, and the three ring fields as
     * runtime_env entries (an absent field leaves its entries 0, so the runtime's defaults apply). Validated:
     * an invalid value is an IllegalArgumentException naming the key, the rule, the value and a fix.
     */
    public static CallConfig from(RunConfig config) {
        RuntimeEnv env = new RuntimeEnv(config.ringTaskWindow().entries(), config.ringHeap().entries(),
                config.ringDepPool().entries());
        CallConfig call = new CallConfig(config.aicpuThreadNum(), config.enableChipSwimlane(), config.enableDumpArgs(),
                config.enablePmu(), config.enableDepGen(), config.enableScopeStats(), config.outputPrefix(), env);
        call.validate();
        return call;
    }
}
