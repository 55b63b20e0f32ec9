package dev.jpto.isa.kernel;

import dev.jpto.isa.DType;

/** A tensor parameter of a kernel: the tensor it is given must have this dtype and rank. */
public record TensorParam(String name, DType dtype, int rank, Access access) {
    /** Whether the kernel reads, writes, or both. */
    public enum Access { READ, WRITE, READ_WRITE }
}
