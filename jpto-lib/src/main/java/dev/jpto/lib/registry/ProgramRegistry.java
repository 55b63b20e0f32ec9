package dev.jpto.lib.registry;

import dev.jpto.compiler.text.DidYouMean;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Programs by name, each with the place it came from (the built-in models, a jar, a source file).
 * {@link dev.jpto.lib.registry.Programs#registry()} holds the built-ins; {@link #with} adds a user's programs.
 */
public final class ProgramRegistry {
    /** Where the built-in models come from. */
    public static final String BUILT_IN = "built-in";

    /** A program and where it came from (e.g. {@code built-in}, a jar's path, a source file's path). */
    public record Entry(ProgramDef def, String origin) {
    }

    private final Map<String, Entry> programs = new TreeMap<>();

    /** A registry of built-in {@code programs}; names must be unique. */
    public ProgramRegistry(List<? extends ProgramDef> programs) {
        this(programs, BUILT_IN);
    }

    /** A registry of {@code programs} from {@code origin}; names must be unique. */
    public ProgramRegistry(List<? extends ProgramDef> programs, String origin) {
        addAll(programs, origin);
    }

    private ProgramRegistry(Map<String, Entry> entries) {
        programs.putAll(entries);
    }

    /**
     * This registry plus {@code more} programs from {@code origin}.
     *
     * @throws IllegalArgumentException when a name is taken, naming the program and both origins
     */
    public ProgramRegistry with(List<? extends ProgramDef> more, String origin) {
        ProgramRegistry r = new ProgramRegistry(programs);
        r.addAll(more, origin);
        return r;
    }

    private void addAll(List<? extends ProgramDef> defs, String origin) {
        for (ProgramDef p : defs) {
            Entry old = programs.putIfAbsent(p.name(), new Entry(p, origin));
            if (old != null) {
                String where = old.origin().equals(origin) ? "twice by " + origin
                        : "twice: by " + old.origin() + " and by " + origin;
                throw new IllegalArgumentException("program '" + p.name() + "' is defined " + where
                        + "; rename one of them");
            }
        }
    }

    /** Every program, sorted by name. */
    public List<ProgramDef> all() {
        return entries().stream().map(Entry::def).toList();
    }

    /** Every program with its origin, sorted by name. */
    public List<Entry> entries() {
        return List.copyOf(new ArrayList<>(programs.values()));
    }

    public List<String> names() {
        return List.copyOf(programs.keySet());
    }

    /** Where {@code name} came from, if it is registered. */
    public Optional<String> origin(String name) {
        return Optional.ofNullable(programs.get(name)).map(Entry::origin);
    }

    /**
     * The program called {@code name}.
     *
     * @throws IllegalArgumentException for an unknown name, listing the registered ones
     */
    public ProgramDef get(String name) {
        Entry p = programs.get(name);
        if (p == null) {
            throw new IllegalArgumentException("unknown program '" + name + "'; valid programs: "
                    + String.join(", ", programs.keySet()) + " (see 'jpto list')"
                    + DidYouMean.hint(name, programs.keySet()));
        }
        return p.def();
    }
}
