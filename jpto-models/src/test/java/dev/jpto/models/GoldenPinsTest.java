package dev.jpto.models;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.isa.Tensor;
import dev.jpto.lib.registry.ProgramSpec;
import dev.jpto.lib.registry.Programs;
import dev.jpto.lib.runner.InputGeneration;
import java.lang.foreign.Arena;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every program's golden at its {@code tiny} preset, seed 0, has exactly the bits recorded from the scalar
 * goldens (before they were parallelised and vectorised): {@code pins/goldens-tiny-seed0.txt}.
 */
class GoldenPinsTest {
    private static final TensorPins PINS = TensorPins.load("/pins/goldens-tiny-seed0.txt");

    static Stream<Arguments> programs() {
        return Programs.registry().all().stream().filter(p -> p.presets().contains("tiny"))
                .map(p -> Arguments.of(p.name()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("programs")
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void goldenKeepsItsPinnedBits(String name) {
        ProgramSpec program = Programs.registry().get(name).spec("tiny");
        try (Arena arena = Arena.ofShared()) {
            Map<String, Tensor> inputs = InputGeneration.inputs(program, 0, arena);
            Map<String, Tensor> initial = InputGeneration.initialOutputs(program, 0, arena);
            Map<String, Tensor> golden = new LinkedHashMap<>();
            for (TensorDecl d : program.outputs()) {
                Tensor t = Tensor.allocate(arena, d.dtype(), d.shape());
                if (initial.containsKey(d.name())) {
                    t.copyFrom(initial.get(d.name()));
                }
                golden.put(d.name(), t);
            }
            program.golden().compute(Map.copyOf(inputs), golden);
            Set<String> actual = TensorPins.lines(name, "tiny", golden);
            Set<String> pinned = PINS.of(name, "tiny");
            assertThat(actual).as(TensorPins.diff(pinned, actual)).hasSize(program.outputs().size())
                    .isEqualTo(pinned);
        }
    }
}
