package dev.jpto.lib.registry;

import java.util.List;

/**
 * A program in the registry: a name, a one-line description, and its presets (named sizes: {@code tiny} for
 * tests, {@code demo}, larger ones where meaningful), each of which builds a {@link ProgramSpec}.
 * {@link PresetProgram} is the usual implementation: presets as records, one function from preset to spec.
 */
public interface ProgramDef {
    /** Dotted registry name, e.g. {@code basic.flash_attention}. */
    String name();

    /** One line for {@code jpto list}. */
    String description();

    /** Preset names, smallest first. */
    List<String> presets();

    /** The preset {@code jpto run} uses when none is given. */
    String defaultPreset();

    /**
     * The program at {@code preset}.
     *
     * @throws IllegalArgumentException for an unknown preset, listing the valid ones
     */
    ProgramSpec spec(String preset);
}
