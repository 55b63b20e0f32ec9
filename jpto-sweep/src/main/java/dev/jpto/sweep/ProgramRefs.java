package dev.jpto.sweep;

import dev.jpto.lib.registry.Programs;
import dev.jpto.lib.load.UserPrograms;
import dev.jpto.lib.registry.ProgramDef;
import dev.jpto.lib.registry.ProgramRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Turns a sweep's program reference into a program: a registered name, or a {@code .java} file (absolute, or
 * {@code FILE#NAME} for one of several) compiled through {@link UserPrograms} — the loader {@code jpto run} uses.
 * Each source file is compiled once per process.
 */
final class ProgramRefs {
    private final ProgramRegistry builtIns = Programs.registry();
    private final Path cacheRoot;
    private final Map<Path, UserPrograms.Loaded> loaded = new ConcurrentHashMap<>();

    ProgramRefs(Map<String, String> env) {
        this.cacheRoot = UserPrograms.defaultCacheRoot(env);
    }

    /** Whether {@code ref} names source code rather than a registered program. */
    static boolean isSource(String ref) {
        String path = ref.contains("#") ? ref.substring(0, ref.lastIndexOf('#')) : ref;
        return path.endsWith(".java");
    }

    /**
     * The program {@code ref} names.
     *
     * @throws IllegalArgumentException for an unknown name (listing the valid ones) or a file of several programs
     *         given without {@code #NAME}
     */
    ProgramDef resolve(String ref) {
        if (!isSource(ref)) {
            return builtIns.get(ref);
        }
        int hash = ref.lastIndexOf('#');
        Path file = Path.of(hash < 0 ? ref : ref.substring(0, hash)).toAbsolutePath().normalize();
        UserPrograms.Loaded l = loaded.computeIfAbsent(file, f -> UserPrograms.fromSources(f, null, cacheRoot));
        if (hash >= 0) {
            return new ProgramRegistry(l.programs(), l.origin()).get(ref.substring(hash + 1));
        }
        List<ProgramDef> programs = l.programs();
        if (programs.size() != 1) {
            throw new IllegalArgumentException(l.origin() + " declares " + programs.size() + " programs ("
                    + String.join(", ", programs.stream().map(ProgramDef::name).toList()) + "): pick one as "
                    + file + "#NAME");
        }
        return programs.getFirst();
    }
}
