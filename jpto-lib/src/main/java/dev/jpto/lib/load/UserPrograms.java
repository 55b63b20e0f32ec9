package dev.jpto.lib.load;

import dev.jpto.lib.registry.ProgramDef;
import dev.jpto.lib.registry.ProgramProvider;
import java.io.IOException;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.Stream;

/**
 * A user's programs, from Java sources ({@link #fromSources}: compiled in-process, cached by content hash) or from a
 * jar or class directory ({@link #fromProgramPath}: providers declared in {@code META-INF/services}). The classes are
 * loaded by a class loader whose parent holds jpto, so they see jpto's published packages and nothing of each other.
 */
public final class UserPrograms {
    /** Environment variable that moves the class cache (default {@code $XDG_CACHE_HOME/jpto} or ~/.cache/jpto). */
    public static final String CACHE_ENV = "JPTO_CACHE_DIR";

    private UserPrograms() {
    }

    /**
     * Programs a load found, where they came from, and one line saying how the load went.
     *
     * @param programs the programs, in provider order
     * @param origin   the path that declared them, as {@code jpto list} shows it
     * @param note     e.g. {@code compiled Prog.java (1 file) in 0.84s} or {@code Prog.java unchanged: cached classes}
     */
    public record Loaded(List<ProgramDef> programs, String origin, String note) {
        public Loaded {
            programs = List.copyOf(programs);
        }
    }

    /**
     * Compiles the {@code .java} file or directory at {@code path} (javac also searching {@code sourcePath} when not
     * null) and returns the programs of every public top-level {@link ProgramProvider} in it.
     *
     * @throws ProgramLoadException for a compile error (javac's diagnostics with file:line:column), sources that
     *                              declare no provider, or a provider that fails
     */
    public static Loaded fromSources(Path path, Path sourcePath, Path cacheRoot) {
        SourceSet sources = SourceSet.of(path, sourcePath);
        SourceCompiler.Compiled c = SourceCompiler.compile(sources, cacheRoot);
        ClassLoader loader = loader(c.classes());
        List<ProgramDef> programs = new ArrayList<>();
        for (Class<? extends ProgramProvider> type : providerClasses(c.classes(), loader, sources.label())) {
            programs.addAll(Providers.programs(Providers.instantiate(type, sources.label()), sources.label()));
        }
        if (programs.isEmpty()) {
            throw new ProgramLoadException(sources.label() + " declares no program: a public top-level class "
                    + "implementing " + ProgramProvider.class.getName() + " (with a public no-argument constructor) "
                    + "returns them from programs()");
        }
        String files = sources.files().size() == 1 ? "1 file" : sources.files().size() + " files";
        String note = c.fromCache() ? sources.label() + " unchanged (" + files + "): cached classes"
                : String.format(java.util.Locale.ROOT, "compiled %s (%s) in %.2fs", sources.label(), files,
                c.nanos() / 1e9);
        return new Loaded(programs, sources.label(), note);
    }

    /**
     * The programs of the providers a jar or class directory declares in
     * {@code META-INF/services/dev.jpto.lib.registry.ProgramProvider}.
     *
     * @throws ProgramLoadException for a missing path, one that declares no provider, or a failing provider
     */
    public static Loaded fromProgramPath(Path jarOrDir) {
        Path p = jarOrDir.toAbsolutePath().normalize();
        String label = jarOrDir.toString();
        if (!Files.isDirectory(p) && !(Files.isRegularFile(p) && p.toString().endsWith(".jar"))) {
            throw new ProgramLoadException("--program-path " + label + ": " + (Files.exists(p)
                    ? "expected a .jar file or a directory of classes" : "no such file or directory"));
        }
        ClassLoader loader = loader(p);
        List<ProgramDef> programs = new ArrayList<>();
        try {
            ServiceLoader.load(ProgramProvider.class, loader).stream()
                    .filter(s -> s.type().getClassLoader() == loader) // not jpto's own, seen through the parent
                    .forEach(s -> programs.addAll(Providers.programs(s.get(), label)));
        } catch (java.util.ServiceConfigurationError e) {
            throw new ProgramLoadException("--program-path " + label + ": " + e.getMessage(), e);
        }
        if (programs.isEmpty()) {
            throw new ProgramLoadException("--program-path " + label + " declares no program: list provider classes "
                    + "in META-INF/services/" + ProgramProvider.class.getName());
        }
        return new Loaded(programs, label, "loaded " + programs.size() + " program(s) from " + label);
    }

    /** Where compiled sources are cached: {@code $JPTO_CACHE_DIR}, else the user's cache directory. */
    public static Path defaultCacheRoot(Map<String, String> env) {
        String own = env.get(CACHE_ENV);
        if (own != null && !own.isBlank()) {
            return Path.of(own).resolve("classes");
        }
        String xdg = env.get("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("jpto").resolve("classes");
    }

    private static ClassLoader loader(Path classes) {
        try {
            return new URLClassLoader("jpto-user-programs", new URL[] {classes.toUri().toURL()},
                    UserPrograms.class.getClassLoader());
        } catch (MalformedURLException e) {
            throw new ProgramLoadException(classes + ": not a loadable location: " + e.getMessage(), e);
        }
    }

    private static List<Class<? extends ProgramProvider>> providerClasses(Path classes, ClassLoader loader,
                                                                         String label) {
        List<String> names;
        try (Stream<Path> s = Files.walk(classes)) {
            names = s.filter(f -> f.toString().endsWith(".class") && !f.getFileName().toString().contains("$"))
                    .map(f -> classes.relativize(f).toString().replace(java.io.File.separatorChar, '.'))
                    .map(n -> n.substring(0, n.length() - ".class".length())).sorted().toList();
        } catch (IOException e) {
            throw new ProgramLoadException(label + ": cannot list the compiled classes: " + e.getMessage(), e);
        }
        List<Class<? extends ProgramProvider>> out = new ArrayList<>();
        for (String n : names) {
            Class<?> c;
            try {
                c = Class.forName(n, false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                throw new ProgramLoadException(label + ": cannot load compiled class " + n + ": " + e, e);
            }
            if (ProgramProvider.class.isAssignableFrom(c) && Modifier.isPublic(c.getModifiers())
                    && !Modifier.isAbstract(c.getModifiers()) && !c.isInterface()) {
                out.add(c.asSubclass(ProgramProvider.class));
            }
        }
        return out;
    }
}
