/**
 * Kernels: tile declarations, tensor parameters and an op stream; their static checks, their executor, and the
 * {@code .pto} kernel text format (printer, parser, the generated ISA reference).
 */
package dev.jpto.isa.kernel;
