package dev.jpto.models;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.lib.registry.ProgramDef;
import dev.jpto.lib.registry.Programs;
import dev.jpto.lib.runner.GoldenRunner;
import dev.jpto.lib.runner.OutputCheck;
import dev.jpto.lib.runner.RunResult;
import dev.jpto.lib.runner.RunSpec;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every registered program, at every tiny preset, passes against its golden through the full runner. */
class TinyPresetsTest {
    static Stream<Arguments> tinyPresets() {
        return Programs.registry().all().stream().flatMap(p -> p.presets().stream()
                .filter(n -> n.startsWith("tiny")).map(n -> Arguments.of(p.name(), n)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("tinyPresets")
    void passes(String name, String preset) {
        ProgramDef def = Programs.registry().get(name);
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8);
        RunResult r = GoldenRunner.runJit(def.spec(preset), RunSpec.defaults(out).withSeed(7), Map.of());
        String log = buf.toString(StandardCharsets.UTF_8);
        assertThat(r.passed()).as(log).isTrue();
        assertThat(r.outputs()).isNotEmpty().allMatch(OutputCheck::passed);
        assertThat(r.report().tasksExecuted()).isGreaterThan(1);
        assertThat(log.strip().lines().reduce((a, b) -> b).orElseThrow()).matches("\\[RUN\\] PASS \\(\\d+\\.\\d+s\\)");
    }

    @org.junit.jupiter.api.Test
    void everyProgramHasTinyAndDemoPresets() {
        for (ProgramDef p : Programs.registry().all()) {
            assertThat(p.presets()).as(p.name()).contains("tiny", "demo");
            assertThat(p.presets()).contains(p.defaultPreset());
            assertThat(p.description()).isNotBlank().doesNotContain("\n");
        }
    }
}
