package dev.jpto.tools.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.Tensor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** How the runner classifies what it cannot accept: a late run, a disagreeing result, a program that does not compile. */
class FuzzRunnerTest {
    private static FuzzCase someCase() {
        return ProgramGenerator.generate(7).withConfig(RunConfig.defaults());
    }

    @Test
    void aRunPastTheDeadlineIsAHangAndTheRunnerGoesOnWithAFreshChip() throws IOException {
        Path root = Files.createTempDirectory("jpto-fuzz-hang");
        try (FuzzRunner runner = new FuzzRunner(root, Duration.ofNanos(1))) {
            for (int i = 0; i < 2; i++) {
                Outcome o = runner.run(someCase());
                assertThat(o).isInstanceOf(Outcome.Finding.class);
                assertThat(((Outcome.Finding) o).kind()).isEqualTo(Outcome.Kind.HANG);
                assertThat(o.toString()).contains("no result within 0 ms");
            }
        }
        try (FuzzRunner runner = new FuzzRunner(root, Duration.ofSeconds(60))) {
            assertThat(runner.run(someCase())).isInstanceOf(Outcome.Pass.class);
        }
    }

    @Test
    void aWrongResultNamesTheOutputTheElementAndBothValues() throws IOException {
        Path root = Files.createTempDirectory("jpto-fuzz-wrong");
        FuzzRunner.Reference offByHalf = (program, args) -> {
            int tasks = ReferenceExecutor.run(program, args);
            Tensor y = args.get(program.outputs().getFirst().name());
            y.setDouble(1, y.getDouble(1) + 0.5);
            return tasks;
        };
        FuzzCase c = someCase();
        long cols = c.program().outputs().getFirst().shape()[1];
        try (FuzzRunner runner = new FuzzRunner(root, Duration.ofSeconds(60), offByHalf)) {
            Outcome o = runner.run(c);
            assertThat(o).isInstanceOf(Outcome.Finding.class);
            Outcome.Finding f = (Outcome.Finding) o;
            assertThat(f.kind()).isEqualTo(Outcome.Kind.WRONG_RESULT);
            assertThat(f.detail()).startsWith("output '" + c.program().outputs().getFirst().name() + "' element ["
                    + 1 / cols + ", " + 1 % cols + "] is ").contains(".5");
            assertThat(f.signature()).isEqualTo("WRONG_RESULT");
        }
    }

    @Test
    void aProgramTheCompilerRejectsIsAnUnexpectedErrorOfTheCompileStage() throws IOException {
        Path root = Files.createTempDirectory("jpto-fuzz-bad");
        FuzzCase c = someCase();
        FuzzCase broken = c.withProgram(c.program().withBody(java.util.List.of()));
        try (FuzzRunner runner = new FuzzRunner(root, Duration.ofSeconds(60))) {
            Outcome o = runner.run(broken);
            assertThat(o).isInstanceOf(Outcome.Finding.class);
            assertThat(((Outcome.Finding) o).signature())
                    .isEqualTo("UNEXPECTED_ERROR compile/load dev.jpto.compiler.ir.VerificationException");
        }
    }
}
