package dev.jpto.tools.fuzz;

import dev.jpto.compiler.ir.IrPrinter;
import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.run.RunConfig;
import java.util.Map;
import java.util.TreeMap;

/**
 * One fuzz program and how to run it: the program (verified IR), the run config (platform, thread count, ring
 * sizes) and the seed everything was derived from, input data included.
 */
public record FuzzCase(long seed, Program program, RunConfig config) {
    /** The command that generates and runs this case again (before any shrinking). */
    public static String replayCommand(long seed) {
        return "jpto fuzz --seed " + seed + " --count 1";
    }

    /** The run config's fields that differ from {@link RunConfig#defaults()}, in RunConfig's own key vocabulary. */
    public Map<String, String> nonDefaultCfg() {
        Map<String, String> defaults = RunConfig.defaults().asMap();
        Map<String, String> m = new TreeMap<>(config.asMap());
        m.entrySet().removeIf(e -> e.getValue().equals(defaults.get(e.getKey())));
        m.putIfAbsent("platform", config.platform().text());
        return m;
    }

    /** {@link #nonDefaultCfg()} as {@code key=value} pairs on one line. */
    public String runtimeCfg() {
        StringBuilder sb = new StringBuilder();
        nonDefaultCfg().forEach((k, v) -> sb.append(sb.isEmpty() ? "" : " ").append(k).append('=').append(v));
        return sb.toString();
    }

    /** The program's IR text and the run config, as a reproducer prints them. */
    public String describe() {
        return IrPrinter.print(program) + "  runtime_cfg: " + runtimeCfg() + "\n";
    }

    public FuzzCase withProgram(Program p) {
        return new FuzzCase(seed, p, config);
    }

    public FuzzCase withConfig(RunConfig c) {
        return new FuzzCase(seed, program, c);
    }
}
