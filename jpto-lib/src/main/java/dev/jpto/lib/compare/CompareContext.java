package dev.jpto.lib.compare;

import dev.jpto.isa.Tensor;
import java.util.Map;

/**
 * What a comparator may consult besides the pair it compares: all outputs of the run (actual and golden) and
 * its inputs, by name. Used by {@link TopkPair} (the paired value tensor) and {@link MappedPool} (the mapping).
 */
public record CompareContext(Map<String, Tensor> actualOutputs, Map<String, Tensor> expectedOutputs,
        Map<String, Tensor> inputs) {
    public CompareContext {
        actualOutputs = Map.copyOf(actualOutputs);
        expectedOutputs = Map.copyOf(expectedOutputs);
        inputs = Map.copyOf(inputs);
    }

    /** No other tensors: enough for element-wise comparators. */
    public static CompareContext empty() {
        return new CompareContext(Map.of(), Map.of(), Map.of());
    }
}
