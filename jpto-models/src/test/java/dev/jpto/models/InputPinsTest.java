package dev.jpto.models;

import static org.assertj.core.api.Assertions.assertThat;

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
 * Every input, and every initial value of an in-place output, of every registered program at its {@code tiny}
 * and {@code demo} presets at seed 0 has exactly the bits recorded from the sequential generators (before input
 * generation was parallelised): {@code pins/inputs-seed0.txt}. A program added later needs its lines added there;
 * the failure message lists them.
 */
class InputPinsTest {
    private static final TensorPins PINS = TensorPins.load("/pins/inputs-seed0.txt");

    static Stream<Arguments> presets() {
        return Programs.registry().all().stream().flatMap(p -> Stream.of("tiny", "demo")
                .filter(p.presets()::contains).map(n -> Arguments.of(p.name(), n)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("presets")
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void inputsKeepTheirPinnedBits(String name, String preset) {
        ProgramSpec program = Programs.registry().get(name).spec(preset);
        try (Arena arena = Arena.ofShared()) {
            Map<String, Tensor> tensors = new LinkedHashMap<>(InputGeneration.inputs(program, 0, arena));
            tensors.putAll(InputGeneration.initialOutputs(program, 0, arena));
            Set<String> actual = TensorPins.lines(name, preset, tensors);
            Set<String> pinned = PINS.of(name, preset);
            assertThat(actual).as(TensorPins.diff(pinned, actual)).hasSize(program.inputs().size()
                    + program.outputFills().size()).isEqualTo(pinned);
        }
    }
}
