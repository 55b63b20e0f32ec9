package dev.jpto.lib.registry;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Programs by name. {@link dev.jpto.lib.Programs#registry()} is the one {@code jpto} uses. */
public final class ProgramRegistry {
    private final Map<String, ProgramDef> programs = new TreeMap<>();

    /** A registry of {@code programs}; names must be unique. */
    public ProgramRegistry(List<? extends ProgramDef> programs) {
        for (ProgramDef p : programs) {
            if (this.programs.putIfAbsent(p.name(), p) != null) {
                throw new IllegalArgumentException("program " + p.name() + " is registered twice");
            }
        }
    }

    /** Every program, sorted by name. */
    public List<ProgramDef> all() {
        return List.copyOf(new ArrayList<>(programs.values()));
    }

    public List<String> names() {
        return List.copyOf(programs.keySet());
    }

    /**
     * The program called {@code name}.
     *
     * @throws IllegalArgumentException for an unknown name, listing the registered ones
     */
    public ProgramDef get(String name) {
        ProgramDef p = programs.get(name);
        if (p == null) {
            throw new IllegalArgumentException("unknown program '" + name + "'; valid programs: "
                    + String.join(", ", programs.keySet()) + " (see 'jpto list')");
        }
        return p;
    }
}
