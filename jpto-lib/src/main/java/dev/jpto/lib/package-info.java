/**
 * The built-in program registry, assembled from the {@link dev.jpto.lib.registry.ProgramProvider}s found by
 * ServiceLoader.
 */
package dev.jpto.lib;
