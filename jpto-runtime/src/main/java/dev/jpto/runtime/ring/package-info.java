/**
 * The per-scope-depth ring buffers: task window, heap, dependency pool and fan-in pool, reclaimed in order.
 */
package dev.jpto.runtime.ring;
