/**
 * The Vector API kernels behind the vector engine: matmul micro-kernels, lane-wise and row-wise loops, masks
 * and widening. Internal to the engine.
 */
package dev.jpto.isa.engine.simd;
