/**
 * What a program author writes: a {@link dev.jpto.lib.registry.ProgramProvider} of
 * {@link dev.jpto.lib.registry.ProgramDef}s, each preset a {@link dev.jpto.lib.registry.ProgramSpec} (program, inputs,
 * golden, comparators, default runtime_cfg).
 */
package dev.jpto.lib.registry;
