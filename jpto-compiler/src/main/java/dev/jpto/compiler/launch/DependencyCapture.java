package dev.jpto.compiler.launch;

import dev.jpto.compiler.CompiledProgram;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.RunReport;
import java.nio.file.Path;
import java.util.Map;

/**
 * Runs a program with dependency capture on (enable_dep_gen: the runtime writes {@code deps.json} under the
 * output prefix). The capture run keeps every other field of the RunConfig — ring sizing in particular: a
 * graph captured under other ring sizes would be the graph of another run.
 */
public final class DependencyCapture {
    /** Where outputs go when the config has no output_prefix and the program has a work dir. */
    public static final String DEFAULT_OUTPUT_DIR = "dfx_outputs";

    private DependencyCapture() {
    }

    /** The config the capture run uses: {@code config} with enable_dep_gen on and an output prefix. */
    public static RunConfig captureConfig(CompiledProgram program, RunConfig config) {
        RunConfig c = config.withEnableDepGen(true);
        if (c.outputPrefix().isEmpty()) {
            Path dir = program.workDir().orElseThrow(() -> new IllegalArgumentException("dependency capture needs "
                    + "output_prefix (the directory for deps.json): output_prefix is empty and program "
                    + program.name() + " has no work dir; set output_prefix"));
            c = c.withOutputPrefix(dir.resolve(DEFAULT_OUTPUT_DIR).toString());
        }
        return c;
    }

    public static RunReport capture(CompiledProgram program, Map<String, Tensor> args, RunConfig config) {
        return Runner.run(program, args, captureConfig(program, config));
    }
}
