package dev.jpto.lib.load;

import java.io.File;
import java.lang.module.Configuration;
import java.lang.module.FindException;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.lang.module.ResolutionException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The module path a user's sources compile against: {@value #API_MODULE} and the modules it needs, taken from the
 * jars jpto runs from. On a module path javac enforces jpto's exports, so a source that imports a package jpto does
 * not publish fails to compile with javac's own message ("package … is not visible … does not export it to the
 * unnamed module") instead of compiling and then failing when it runs.
 */
final class ApiModulePath {
    /** The module a program author requires; it reads the rest of the published API transitively. */
    static final String API_MODULE = "dev.jpto.lib";

    private ApiModulePath() {
    }

    /**
     * The entries (jars or class directories) holding {@value #API_MODULE} and every module it requires, in a
     * stable order, from the modules the launcher resolved or, when jpto itself runs on a class path (tests, an
     * IDE), from that class path.
     */
    static List<Path> of() {
        List<Path> candidates = new ArrayList<>();
        if (ApiModulePath.class.getModule().isNamed()) {
            ModuleLayer.boot().configuration().modules().stream().map(m -> m.reference().location())
                    .flatMap(Optional::stream).filter(uri -> "file".equals(uri.getScheme())).map(Path::of)
                    .forEach(candidates::add);
        } else {
            for (String e : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
                if (!e.isBlank()) {
                    candidates.add(Path.of(e));
                }
            }
        }
        return resolve(candidates);
    }

    /** The candidates that hold {@value #API_MODULE} and what it requires (the first entry of a name wins). */
    static List<Path> resolve(List<Path> candidates) {
        Map<String, Path> byModule = new LinkedHashMap<>();
        for (Path p : candidates) {
            for (ModuleReference m : modulesIn(p)) {
                byModule.putIfAbsent(m.descriptor().name(), p);
            }
        }
        if (!byModule.containsKey(API_MODULE)) {
            throw new ProgramLoadException("cannot compile user sources: module " + API_MODULE + " is on neither the "
                    + "module path nor the class path jpto runs from (run jpto through its launcher, ./jpto)");
        }
        Configuration graph;
        try {
            graph = Configuration.empty().resolve(ModuleFinder.of(byModule.values().stream().distinct()
                    .toArray(Path[]::new)), ModuleFinder.ofSystem(), Set.of(API_MODULE));
        } catch (FindException | ResolutionException e) {
            throw new ProgramLoadException("cannot compile user sources: jpto's modules do not resolve: "
                    + e.getMessage(), e);
        }
        return graph.modules().stream().map(m -> m.reference().location()).flatMap(Optional::stream)
                .filter(uri -> "file".equals(uri.getScheme())).map(Path::of).sorted().toList();
    }

    /** The module a jar or class directory holds; none for a directory without module-info or a broken jar. */
    private static Set<ModuleReference> modulesIn(Path entry) {
        boolean packaged = Files.isRegularFile(entry) && entry.toString().endsWith(".jar");
        boolean exploded = Files.isRegularFile(entry.resolve("module-info.class"));
        if (!packaged && !exploded) {
            return Set.of(); // a plain class directory would be read as a directory of modules
        }
        try {
            return ModuleFinder.of(entry).findAll();
        } catch (FindException e) {
            return Set.of(); // e.g. a jar whose name gives no valid automatic module name: not one of jpto's
        }
    }
}
