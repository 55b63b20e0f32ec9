/**
 * numpy {@code .npy} files: reading and writing tensors, with strict header checks.
 */
package dev.jpto.lib.npy;
