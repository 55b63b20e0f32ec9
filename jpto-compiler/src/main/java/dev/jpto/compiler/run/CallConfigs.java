package dev.jpto.compiler.run;

import dev.jpto.compiler.ir.Program;
import dev.jpto.runtime.CallConfig;
import dev.jpto.runtime.RuntimeEnv;
import java.util.List;
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
     * an invalid value is an IllegalArgumentException naming the key, the rule, the value and a fix. A ring field
     * set to {@code auto} needs the program: use {@link #from(RunConfig, Program)}.
     */
    public static CallConfig from(RunConfig config) {
        if (AutoRings.any(config)) {
            String keys = String.join(", ", AutoRings.autoKeys(config));
            throw new IllegalArgumentException(keys + "=auto sizes the rings from the program's ring plan, and this "
                    + "call has no program; dispatch through a surface that holds it (compiled.run, "
                    + "Runner.executeCompiled, ChipWorker.run, Benchmark.run), or give " + keys + " explicitly "
                    + "(jpto plan PROGRAM prints the values)");
        }
        RuntimeEnv env = new RuntimeEnv(config.ringTaskWindow().entries(), config.ringHeap().entries(),
                config.ringDepPool().entries());
        CallConfig call = unvalidated(config, env);
        call.validate();
        return call;
    }

    /**
     * True if {@code config} switches on a DFX output (files under {@code output_prefix}), as the runtime decides it
     * ({@link CallConfig#anyDiagnostic()}); nothing else is checked, so a caller can supply the missing prefix.
     */
    public static boolean writesDiagnostics(RunConfig config) {
        return unvalidated(config, RuntimeEnv.defaults()).anyDiagnostic();
    }

    private static CallConfig unvalidated(RunConfig config, RuntimeEnv env) {
        return new CallConfig(config.aicpuThreadNum(), config.enableChipSwimlane(), config.enableDumpArgs(),
                config.enablePmu(), config.enableDepGen(), config.enableScopeStats(), config.outputPrefix(), env);
    }

    /**
     * As {@link #from(RunConfig)}, with {@code auto} ring fields first replaced by {@code program}'s ring plan
     * ({@link AutoRings#resolve}); the path every dispatch surface takes, since each has the program at hand.
     */
    public static CallConfig from(RunConfig config, Program program) {
        return from(AutoRings.resolve(config, program));
    }

    /** As {@link #from(RunConfig, Program)} for one CallConfig shared by several programs (L3): auto covers all. */
    public static CallConfig from(RunConfig config, List<Program> programs) {
        return from(AutoRings.resolve(config, programs));
    }
}
