package dev.jpto.cli;

import dev.jpto.lib.registry.ProgramDef;
import dev.jpto.lib.registry.ProgramRegistry;
import dev.jpto.lib.registry.ProgramSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code PROGRAM [--preset NAME]}: a registered program at one of its presets. */
final class ProgramOptions {
    @Parameters(index = "0", paramLabel = "PROGRAM", description = "a registered program (see 'jpto list')")
    String program;

    @Option(names = "--preset", paramLabel = "NAME", description = "the program's size (default: its default preset)")
    String preset;

    /** The program at the chosen preset; an unknown name lists the valid ones. */
    ProgramSpec spec(ProgramRegistry registry) {
        ProgramDef def = registry.get(program);
        if (preset != null && !def.presets().contains(preset)) {
            throw new UsageException("--preset " + preset + " is not a preset of " + def.name() + "; valid presets: "
                    + String.join(", ", def.presets()));
        }
        return def.spec(preset == null ? def.defaultPreset() : preset);
    }
}
