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

/** The one rule for cases at once (issue 27: memory-aware), checked with figures worked out by hand. */
class ConcurrencyTest {
    private static final long GIB = 1L << 30;
    private static final long MIB = 1L << 20;

    @TempDir
    Path tmp;

    @Test
    void theLeastOfHalfTheProcessorsTheMemoryAndTheCapWins() {
        // 8 processors: 4 by cores; 16 GiB / 1 GiB = 16 by memory -> cores decide
        assertThat(Concurrency.of(8, 16 * GIB, GIB, null).slots()).isEqualTo(4);
        // 3.5 GiB / 1 GiB = 3 whole cases -> memory decides
        Concurrency memory = Concurrency.of(8, 3 * GIB + GIB / 2, GIB, null);
        assertThat(memory.slots()).isEqualTo(3);
        assertThat(memory.reason()).isEqualTo("half of 8 processor(s) = 4; 3.5GiB available / 1GiB per case = 3");
        // --max-parallel 2 caps both
        assertThat(Concurrency.of(8, 16 * GIB, GIB, 2).slots()).isEqualTo(2);
        assertThat(Concurrency.of(8, 16 * GIB, GIB, 2).reason()).endsWith("; at most 2 asked");
        // a cap above the others does not raise them
        assertThat(Concurrency.of(2, 16 * GIB, GIB, 8).slots()).isEqualTo(1);
    }

    @Test
    void alwaysAtLeastOneCaseEvenWhenNoneFits() {
        assertThat(Concurrency.of(1, 100 * MIB, GIB, null).slots()).isEqualTo(1);
        assertThat(Concurrency.of(16, 0, Long.MAX_VALUE, null).slots()).isEqualTo(1);
        assertThatThrownBy(() -> Concurrency.of(4, GIB, MIB, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the cases at once must be >= 1: 0 (try 2)");
    }

    @Test
    void aCasesFootprintIsItsTensorsAsRunAllocatesThemPlusTheBaseline() {
        ProgramRefs refs = new ProgramRefs(Map.of("JPTO_CACHE_DIR", tmp.resolve("cache").toString()));
        var spec = refs.resolve("basic.vector_add").spec("tiny");
        long tensor = 128L * 256 * 4; // x, y, z: fp32[128, 256]
        // x and y once; z for the golden and the run, and a third copy for the benchmark
        assertThat(Concurrency.footprint(spec, false)).isEqualTo(Concurrency.CASE_BASELINE + 4 * tensor);
        assertThat(Concurrency.footprint(spec, true)).isEqualTo(Concurrency.CASE_BASELINE + 5 * tensor);
        // 'large' is fp32[8192, 4096]: 128 MiB a tensor
        long large = Concurrency.footprint(refs.resolve("basic.vector_add").spec("large"), false);
        assertThat(large).isEqualTo(Concurrency.CASE_BASELINE + 4 * 128 * MIB);
        SweepCase tiny = new SweepCase("basic.vector_add", "basic.vector_add", "tiny", Map.of(), "a2a3sim", 0, 0,
                "PASS");
        SweepCase big = new SweepCase("basic.vector_add", "basic.vector_add", "large", Map.of(), "a2a3sim", 0, 0,
                "PASS");
        // the largest case sets the memory bound: the reason names its footprint (768 MiB)
        assertThat(Concurrency.forCases(List.of(tiny, big), refs, null).reason()).contains("/ 768MiB per case");
        assertThat(Concurrency.forCases(List.of(tiny), refs, null).reason()).contains("/ 256.5MiB per case");
    }

    @Test
    void memAvailableIsReadFromMeminfoInKibibytes() throws IOException {
        Path meminfo = Files.writeString(tmp.resolve("meminfo"), """
                MemTotal:       24576000 kB
                MemFree:         1024000 kB
                MemAvailable:   12288000 kB
                """);
        assertThat(Concurrency.memAvailable(meminfo)).hasValue(12288000L * 1024);
        assertThat(Concurrency.memAvailable(Files.writeString(tmp.resolve("none"), "MemTotal: 1 kB\n"))).isEmpty();
        assertThat(Concurrency.memAvailable(tmp.resolve("missing"))).isEmpty();
        assertThat(Concurrency.availableMemory()).isPositive();
    }
}
