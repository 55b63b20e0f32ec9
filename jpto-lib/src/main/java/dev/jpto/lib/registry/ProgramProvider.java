package dev.jpto.lib.registry;

import java.util.List;

/**
 * What a source file, a jar or a model family implements to give jpto its programs. jpto finds providers with
 * {@link java.util.ServiceLoader}: the built-in models declare theirs in {@code module-info.java}, a jar on
 * {@code --program-path} in {@code META-INF/services/dev.jpto.lib.registry.ProgramProvider}, and a source file run
 * as {@code jpto run Prog.java} needs no declaration at all: every public top-level class of the file that
 * implements this interface (with a public no-argument constructor) is a provider.
 *
 * <pre>{@code
 * public final class MyKernels implements ProgramProvider {
 *     public List<ProgramDef> programs() {
 *         return List.of(new PresetProgram<>("my.relu_dense", "relu(x·w + b)", PRESETS, Preset::name, "tiny",
 *                 MyKernels::spec));
 *     }
 * }
 * }</pre>
 */
public interface ProgramProvider {
    /** The programs this provider contributes; their names must be unique across every provider in use. */
    List<ProgramDef> programs();
}
