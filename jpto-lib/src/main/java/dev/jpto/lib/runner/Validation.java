package dev.jpto.lib.runner;

import dev.jpto.isa.Tensor;
import dev.jpto.lib.compare.CompareContext;
import dev.jpto.lib.compare.CompareResult;
import dev.jpto.lib.compare.GoldenComparator;
import dev.jpto.lib.registry.NotValidated;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Outputs compared with their goldens, and the last line that says how it went: what run and exec both print. */
public final class Validation {
    private Validation() {
    }

    /** One check per comparator, in the map's order; the context lets comparators see other tensors. */
    public static List<OutputCheck> check(Map<String, GoldenComparator> comparators, Map<String, Tensor> actual,
                                          Map<String, Tensor> golden, Map<String, Tensor> inputs) {
        CompareContext context = new CompareContext(actual, golden, inputs);
        List<OutputCheck> checks = new ArrayList<>();
        for (Map.Entry<String, GoldenComparator> e : comparators.entrySet()) {
            Tensor a = actual.get(e.getKey());
            CompareResult r = e.getValue().compare(a, golden.get(e.getKey()), context);
            checks.add(new OutputCheck(e.getKey(), a.dtype(), a.shape(), r, e.getValue() instanceof NotValidated));
        }
        return checks;
    }

    public static boolean passed(List<OutputCheck> checks) {
        return checks.stream().allMatch(OutputCheck::passed);
    }

    /** {@code [RUN] PASS (1.23s)} or {@code [RUN] FAIL (1.23s) 1 of 2 output(s) mismatched: 'y'}. */
    public static String verdict(List<OutputCheck> checks, String total) {
        if (passed(checks)) {
            return "[RUN] PASS (" + total + ")";
        }
        List<String> bad = checks.stream().filter(c -> !c.passed()).map(c -> "'" + c.name() + "'").toList();
        return "[RUN] FAIL (" + total + ") " + bad.size() + " of " + checks.size() + " output(s) mismatched: "
                + String.join(", ", bad);
    }
}
