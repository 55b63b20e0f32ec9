package dev.jpto.runtime.dfx;

import dev.jpto.isa.DType;

/**
 * One buffer version: a caller buffer, or a heap-ring output (a later output at the same address is a new
 * version, since the ring reuses memory).
 *
 * @param creator the task whose OUTPUT allocated it, or −1 for caller buffers
 */
record TensorInfo(long id, long address, int version, DType dtype, long bufferNumel, long creator) {
}
