package dev.jpto.lib.registry;

import dev.jpto.isa.Tensor;
import dev.jpto.lib.compare.CompareContext;
import dev.jpto.lib.compare.CompareResult;
import dev.jpto.lib.compare.GoldenComparator;
import java.util.List;

/**
 * The comparator of an output that is deliberately not compared (scratch space, a buffer the golden does not
 * model), with the reason. The runner prints {@code '<name>' SKIP …} for it; it never fails a run.
 */
public record NotValidated(String reason) implements GoldenComparator {
    public NotValidated {
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("say why an output is not validated");
        }
    }

    @Override
    public CompareResult compare(Tensor actual, Tensor expected, CompareContext context) {
        return new CompareResult(true, 0, 0, Double.NaN, Double.NaN, List.of(), name());
    }

    @Override
    public String name() {
        return "not validated: " + reason;
    }
}
