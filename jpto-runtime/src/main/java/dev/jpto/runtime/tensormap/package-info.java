/**
 * The TensorMap: for every argument of a submitted task, the earlier tasks whose views overlap it.
 */
package dev.jpto.runtime.tensormap;
