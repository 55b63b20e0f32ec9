/**
 * Data types with exact rounding (fp32, fp16, bf16, integers, bool), tensors over off-heap memory, and
 * tiles: the values every kernel works on.
 */
package dev.jpto.isa;
