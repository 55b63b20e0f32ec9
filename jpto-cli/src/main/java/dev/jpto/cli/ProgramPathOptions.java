package dev.jpto.cli;

import dev.jpto.lib.load.UserPrograms;
import dev.jpto.lib.registry.ProgramRegistry;
import java.io.File;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** Where a user's programs come from besides the built-ins: jars and class directories, a source directory. */
final class ProgramPathOptions {
    /** Environment variable listing more program-path entries, separated like a class path. */
    static final String PROGRAM_PATH_ENV = "JPTO_PROGRAM_PATH";

    @Option(names = "--program-path", paramLabel = "JAR|DIR",
            description = "a jar or class directory whose META-INF/services declares ProgramProvider classes; "
                    + "repeatable (also $" + PROGRAM_PATH_ENV + ")")
    List<Path> programPath = new ArrayList<>();

    @Option(names = "--source-path", paramLabel = "DIR",
            description = "Java sources of programs: with a registered PROGRAM name, every .java file under DIR is "
                    + "compiled and its programs added; with PROGRAM a .java file, javac finds its imports here")
    Path sourcePath;

    /** The built-ins plus every program-path entry ($JPTO_PROGRAM_PATH first, then --program-path). */
    ProgramRegistry registry(JptoCommand top) {
        ProgramRegistry r = top.registry;
        for (Path p : entries(top)) {
            UserPrograms.Loaded l = UserPrograms.fromProgramPath(p);
            r = r.with(l.programs(), l.origin());
        }
        return r;
    }

    private List<Path> entries(JptoCommand top) {
        List<Path> all = new ArrayList<>();
        String env = top.env.getOrDefault(PROGRAM_PATH_ENV, "");
        for (String e : env.split(File.pathSeparator)) {
            if (!e.isBlank()) {
                all.add(Path.of(e));
            }
        }
        all.addAll(programPath);
        return all;
    }

    /** Compiles {@code sources} (a file or directory; javac also searching --source-path) and adds its programs. */
    UserPrograms.Loaded load(JptoCommand top, Path sources, Path javacSourcePath) {
        return load(top, sources, javacSourcePath, top.out);
    }

    /** As {@link #load(JptoCommand, Path, Path)}, with the compile note on {@code log} (--json: nowhere). */
    UserPrograms.Loaded load(JptoCommand top, Path sources, Path javacSourcePath, PrintStream log) {
        UserPrograms.Loaded l = UserPrograms.fromSources(sources, javacSourcePath,
                UserPrograms.defaultCacheRoot(top.env));
        log.println("[RUN] " + l.note());
        return l;
    }
}
