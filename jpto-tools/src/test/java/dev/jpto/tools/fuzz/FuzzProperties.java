package dev.jpto.tools.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;

/**
 * Generated programs, compiled to a work dir, loaded and run on the chip with their random ring sizes, platform and
 * thread count: each equals the sequential reference bit for bit or fails with a ring error its sizes explain.
 */
class FuzzProperties {
    private static Path root;
    private static FuzzRunner runner;

    @BeforeContainer
    static void open() throws IOException {
        root = Files.createTempDirectory("jpto-fuzz-test");
        runner = new FuzzRunner(root, Duration.ofSeconds(60));
    }

    @AfterContainer
    static void close() throws IOException {
        runner.close();
        Files.deleteIfExists(root);
    }

    @Property(tries = 200, seed = "20261203")
    void everyProgramMatchesTheReferenceOrFailsWithARingErrorItsSizesExplain(@ForAll long seed) {
        FuzzCase c = ProgramGenerator.generate(seed);
        Outcome o = runner.run(c);
        Statistics.collect(switch (o) {
            case Outcome.Pass p -> "pass";
            case Outcome.ExpectedError e -> e.code().toString();
            case Outcome.Finding f -> "FINDING";
        });
        assertThat(o).as("seed %d: %s%n%s", seed, o, c.describe()).isNotInstanceOf(Outcome.Finding.class);
    }
}
