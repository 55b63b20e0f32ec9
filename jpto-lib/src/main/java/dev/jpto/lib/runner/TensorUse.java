package dev.jpto.lib.runner;

import dev.jpto.compiler.ir.TensorDecl;
import java.util.Arrays;

/**
 * A tensor a command will allocate, {@code copies} times (a run holds an output twice: the golden's and the
 * chip's), as counted against the {@link MemoryBudget} before anything is allocated.
 *
 * @param role   what it is to the command: input, output, scratch
 * @param tensor its name, dtype and shape
 * @param copies how many buffers of it the command holds at once (≥ 1)
 */
public record TensorUse(String role, TensorDecl tensor, int copies) {
    public TensorUse {
        if (copies < 1) {
            throw new IllegalArgumentException("copies must be >= 1: copies=" + copies);
        }
    }

    /**
     * The bytes of all its copies.
     *
     * @throws JitConfigException when they do not fit in a long (a declared shape too large for any host)
     */
    public long bytes() {
        try {
            return Math.multiplyExact(Math.multiplyExact(tensor.numel(), tensor.dtype().byteSize()), copies);
        } catch (ArithmeticException e) {
            throw new JitConfigException(this + " has more than " + Long.MAX_VALUE + " bytes: no host can hold it",
                    e);
        }
    }

    /** "output 'z' fp32[65536, 65536]", with the copies when there are several ("… (2 copies)"). */
    @Override
    public String toString() {
        return role + " '" + tensor.name() + "' " + tensor.dtype().text() + Arrays.toString(tensor.shape())
                + (copies == 1 ? "" : " (" + copies + " copies)");
    }
}
