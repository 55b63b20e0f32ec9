package dev.jpto.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SweepFileTest {
    @TempDir
    Path dir;

    private Path file(String text) throws IOException {
        return Files.writeString(dir.resolve("sweep.yaml"), text);
    }

    private List<SweepCase> read(String text) throws IOException {
        return SweepFile.read(file(text), Map.of("JPTO_CACHE_DIR", dir.resolve("cache").toString()));
    }

    @Test
    void aGoodFileIsTheCrossProductInFileOrderWithItsExpectations() throws IOException {
        List<SweepCase> cases = read("""
                programs: [basic.vector_add, basic.matmul]
                presets: [tiny]
                runtime_cfg:
                  ring_heap: [1024, 64MiB]
                platforms: [a2a3sim, a5sim]
                seeds: [0, 7]
                bench: 2
                expect:
                  "program=basic.matmul,ring_heap=1024": HEAP_RING_DEADLOCK
                """);
        assertThat(cases).hasSize(2 * 2 * 2 * 2);
        assertThat(cases.getFirst()).isEqualTo(new SweepCase("basic.vector_add", "basic.vector_add", "tiny",
                Map.of("ring_heap", "1024"), "a2a3sim", 0, 2, "PASS"));
        assertThat(cases.get(1).seed()).isEqualTo(7);
        assertThat(cases.get(2).platform()).isEqualTo("a5sim");
        assertThat(cases.get(4).runtimeCfg()).containsEntry("ring_heap", "64MiB");
        assertThat(cases.stream().filter(c -> c.expect().equals("HEAP_RING_DEADLOCK")))
                .hasSize(4).allMatch(c -> c.name().equals("basic.matmul") && c.runtimeCfg().get("ring_heap")
                        .equals("1024"));
        assertThat(cases.stream().map(SweepCase::id).distinct()).hasSize(16);
    }

    @Test
    void theIdIsTheSha256OfTheCanonicalDefinitionAndIgnoresTheExpectation() {
        SweepCase c = new SweepCase("basic.matmul", "basic.matmul", "tiny", Map.of("ring_heap", "1024"), "a2a3sim",
                0, 0, "PASS");
        // independent reference: printf 'program=basic.matmul\npreset=tiny\nplatform=a2a3sim\nseed=0\nbench=0\n
        // runtime_cfg.ring_heap=1024\n' | sha256sum
        assertThat(c.id()).isEqualTo("af80b39fc4622245be9d83384eab70c306fc81898929c153c5574b4143d457b5");
        SweepCase expected = new SweepCase("basic.matmul", "basic.matmul", "tiny", Map.of("ring_heap", "1024"),
                "a2a3sim", 0, 0, "HEAP_RING_DEADLOCK");
        assertThat(expected.id()).isEqualTo(c.id());
    }

    @Test
    void anUnknownProgramNamesItsLineAndTheValidPrograms() throws IOException {
        assertThatThrownBy(() -> read("presets: [tiny]\nprograms:\n  - basic.vector_add\n  - basic.nope\n"))
                .isInstanceOf(SweepFileException.class)
                .hasMessageStartingWith(dir.resolve("sweep.yaml") + ":4: program basic.nope: unknown program "
                        + "'basic.nope'; valid programs: ")
                .hasMessageContaining("basic.matmul");
    }

    @Test
    void anUnknownKeyNamesItsLineAndTheAllowedKeys() throws IOException {
        assertThatThrownBy(() -> read("programs: [basic.matmul]\nrepeats: 3\n"))
                .isInstanceOf(SweepFileException.class)
                .hasMessage(dir.resolve("sweep.yaml") + ":2: unknown key 'repeats'; allowed keys: bench, expect, "
                        + "platforms, presets, programs, runtime_cfg, seeds");
    }

    @Test
    void anUnknownPresetNamesItsLineAndTheProgramsPresets() throws IOException {
        assertThatThrownBy(() -> read("programs: [basic.matmul]\npresets:\n  - tiny\n  - huge\n"))
                .isInstanceOf(SweepFileException.class)
                .hasMessageStartingWith(dir.resolve("sweep.yaml") + ":4: 'huge' is not a preset of basic.matmul; "
                        + "valid presets: ")
                .hasMessageContaining("tiny");
    }

    @Test
    void anUnknownRuntimeCfgKeyIsRefusedWithRunConfigsOwnList() throws IOException {
        assertThatThrownBy(() -> read("programs: [basic.matmul]\nruntime_cfg:\n  ring_heep: [1024]\n"))
                .isInstanceOf(SweepFileException.class)
                .hasMessageStartingWith(dir.resolve("sweep.yaml") + ":3: runtime_cfg ring_heep=1024: ")
                .hasMessageContaining("ring_heap");
    }

    @Test
    void anUnknownExpectedOutcomeListsTheAllowedOnes() throws IOException {
        assertThatThrownBy(() -> read("programs: [basic.matmul]\nexpect:\n  seed=0: DEADLOCK\n"))
                .isInstanceOf(SweepFileException.class)
                .hasMessageStartingWith(dir.resolve("sweep.yaml") + ":3: expect seed=0: unknown outcome 'DEADLOCK'; "
                        + "allowed: PASS, FAIL, SCOPE_DEADLOCK, HEAP_RING_DEADLOCK");
    }

    @Test
    void malformedYamlNamesItsLine() throws IOException {
        assertThatThrownBy(() -> read("programs: [basic.matmul\npresets: [tiny]\n"))
                .isInstanceOf(SweepFileException.class)
                .hasMessageStartingWith(dir.resolve("sweep.yaml") + ":")
                .hasMessageContaining("not a valid sweep file");
    }

    @Test
    void aMissingProgramListIsRefused() throws IOException {
        assertThatThrownBy(() -> read("presets: [tiny]\n"))
                .isInstanceOf(SweepFileException.class)
                .hasMessage(dir.resolve("sweep.yaml") + ":1: 'programs:' is missing: list at least one program");
    }
}
