package dev.jpto.cli;

import dev.jpto.compiler.text.DidYouMean;
import dev.jpto.lib.load.UserPrograms;
import dev.jpto.lib.registry.ProgramDef;
import dev.jpto.lib.registry.ProgramRegistry;
import dev.jpto.lib.registry.ProgramSpec;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code PROGRAM [--preset NAME]}: a registered program, or a user's program from a {@code .java} file or a directory
 * of them ({@code PATH#NAME} picks one when the sources declare several), at one of its presets.
 */
final class ProgramOptions {
    /** What PROGRAM may be, for every command that takes one. */
    static final String PROGRAM_HELP = "a registered program (see 'jpto list'), or a .java file / directory of "
            + "sources that declares programs (PATH#NAME picks one of several)";

    @Parameters(index = "0", paramLabel = "PROGRAM", description = PROGRAM_HELP)
    String program;

    @Option(names = "--preset", paramLabel = "NAME", description = "the program's size (default: its default preset)")
    String preset;

    @Mixin
    ProgramPathOptions paths = new ProgramPathOptions();

    /** The program at the chosen preset; an unknown name lists the valid ones. */
    ProgramSpec spec(JptoCommand top) {
        return spec(top, top.out);
    }

    /** As {@link #spec(JptoCommand)}, with the note on compiling a user's sources on {@code log}. */
    ProgramSpec spec(JptoCommand top, PrintStream log) {
        ProgramRegistry registry = paths.registry(top);
        ProgramDef def;
        if (isSourcePath(program)) {
            int hash = program.lastIndexOf('#');
            Path sources = Path.of(hash < 0 ? program : program.substring(0, hash));
            UserPrograms.Loaded l = paths.load(top, sources, paths.sourcePath, log);
            registry = registry.with(l.programs(), l.origin());
            def = hash >= 0 ? registry.get(program.substring(hash + 1)) : only(l);
        } else {
            if (paths.sourcePath != null) {
                UserPrograms.Loaded l = paths.load(top, paths.sourcePath, null, log);
                registry = registry.with(l.programs(), l.origin());
            }
            def = registry.get(program);
        }
        if (preset != null && !def.presets().contains(preset)) {
            throw new UsageException("--preset " + preset + " is not a preset of " + def.name() + "; valid presets: "
                    + String.join(", ", def.presets()) + DidYouMean.hint(preset, def.presets()));
        }
        return def.spec(preset == null ? def.defaultPreset() : preset);
    }

    /** A .java file, a directory, or either with {@code #NAME}: registry names have neither '/' nor a .java end. */
    static boolean isSourcePath(String arg) {
        String path = arg.contains("#") ? arg.substring(0, arg.lastIndexOf('#')) : arg;
        return path.endsWith(".java") || path.contains("/") || path.contains(java.io.File.separator)
                || Files.isDirectory(Path.of(path));
    }

    private static ProgramDef only(UserPrograms.Loaded l) {
        if (l.programs().size() != 1) {
            String names = String.join(", ", l.programs().stream().map(ProgramDef::name).toList());
            throw new UsageException(l.origin() + " declares " + l.programs().size() + " programs (" + names
                    + "): pick one as " + l.origin() + "#NAME");
        }
        return l.programs().getFirst();
    }
}
