package dev.jpto.lib.registry;

import dev.jpto.compiler.text.DidYouMean;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * A {@link ProgramDef} over typed presets: {@code P} is the program's own preset record (sizes, dtypes, block
 * shapes), named by {@code presetName}, and {@code build} turns one into a spec.
 *
 * <pre>{@code
 * new PresetProgram<>("basic.softmax", "row softmax", List.of(Preset.TINY, Preset.DEMO), Preset::name,
 *         "demo", Softmax::spec);
 * }</pre>
 */
public final class PresetProgram<P> implements ProgramDef {
    private final String name;
    private final String description;
    private final Map<String, P> presets = new LinkedHashMap<>();
    private final String defaultPreset;
    private final Function<? super P, ProgramSpec> build;

    public PresetProgram(String name, String description, List<P> presets, Function<? super P, String> presetName,
                         String defaultPreset, Function<? super P, ProgramSpec> build) {
        this.name = Objects.requireNonNull(name, "name");
        this.description = Objects.requireNonNull(description, "description");
        this.build = Objects.requireNonNull(build, "build");
        for (P p : presets) {
            String n = presetName.apply(p);
            if (this.presets.putIfAbsent(n, p) != null) {
                throw new IllegalArgumentException(name + ": preset " + n + " is declared twice");
            }
        }
        if (!this.presets.containsKey(defaultPreset)) {
            throw new IllegalArgumentException(name + ": default preset " + defaultPreset + " is not one of "
                    + this.presets.keySet());
        }
        this.defaultPreset = defaultPreset;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public List<String> presets() {
        return List.copyOf(new ArrayList<>(presets.keySet()));
    }

    @Override
    public String defaultPreset() {
        return defaultPreset;
    }

    /** The preset record named {@code preset}. */
    public P preset(String preset) {
        P p = presets.get(preset);
        if (p == null) {
            throw new IllegalArgumentException("unknown preset '" + preset + "' for " + name + "; valid presets: "
                    + String.join(", ", presets.keySet()) + DidYouMean.hint(preset, presets.keySet()));
        }
        return p;
    }

    @Override
    public ProgramSpec spec(String preset) {
        ProgramSpec spec = build.apply(preset(preset));
        if (!spec.programName().equals(name) || !spec.preset().equals(preset)) {
            throw new IllegalStateException(name + ": preset " + preset + " built a spec for "
                    + spec.programName() + " preset " + spec.preset());
        }
        return spec;
    }
}
