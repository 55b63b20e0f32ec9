package dev.jpto.lib.registry;

import dev.jpto.isa.Tensor;
import java.util.Map;

/**
 * A program's reference: plain Java written from the math (fp64 accumulation), never calling kernels or the
 * runtime. It reads the inputs and writes every output tensor (allocated by the runner with the program's output
 * dtypes and shapes; values are rounded to those dtypes on store).
 */
@FunctionalInterface
public interface Golden {
    void compute(Map<String, Tensor> inputs, Map<String, Tensor> outputs);
}
