package dev.jpto.lib.compare;

import dev.jpto.isa.Tensor;

/**
 * Decides whether one output tensor matches its golden reference. Implementations are immutable values
 * (records) built by {@link Comparators}; a program may also supply its own.
 *
 * <p>The element-wise comparators read values as doubles, in C order of each view: exact for every dtype except
 * int64 magnitudes beyond 2^53, which are rounded to double before comparing.
 */
public interface GoldenComparator {
    /**
     * Compares {@code actual} (the runtime's output) with {@code expected} (the golden). Never throws for data
     * that does not match — a wrong shape, a missing paired tensor or a bad mapping is a failed result whose
     * description says what was wrong.
     *
     * @param context the run's other outputs and inputs, for comparators that need a paired tensor
     */
    CompareResult compare(Tensor actual, Tensor expected, CompareContext context);

    /** The comparator and its parameters, e.g. {@code allclose(rtol=1e-05, atol=1e-05)}. */
    String name();
}
