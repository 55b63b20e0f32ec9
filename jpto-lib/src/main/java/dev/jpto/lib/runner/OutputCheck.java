package dev.jpto.lib.runner;

import dev.jpto.isa.DType;
import dev.jpto.lib.compare.CompareResult;
import java.util.Arrays;

/** One output compared with its golden; {@code skipped} for an output the program marks as not validated. */
public record OutputCheck(String name, DType dtype, long[] shape, CompareResult result, boolean skipped) {
    public OutputCheck {
        shape = shape.clone();
    }

    @Override
    public long[] shape() {
        return shape.clone();
    }

    public boolean passed() {
        return result.passed();
    }

    /**
     * {@code 'o' PASS shape=[8, 1024, 128] dtype=bf16 (allclose(...): 0/… elements outside …)}, or FAIL with the
     * comparator's errors, mismatch count and first mismatching indices.
     */
    public String line() {
        return "'" + name + "' " + (skipped ? "SKIP" : passed() ? "PASS" : "FAIL") + " shape=" + Arrays.toString(shape) + " dtype="
                + dtype.text() + " (" + result.description() + ")";
    }
}
