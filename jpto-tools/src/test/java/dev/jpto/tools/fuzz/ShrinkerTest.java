package dev.jpto.tools.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.Stmt;
import dev.jpto.compiler.ir.SubmitArg;
import dev.jpto.compiler.ir.Verifier;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.Direction;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A fault injected into the reference (it disagrees whenever a task passes a NO_DEP argument) is found, and the
 * shrinker reduces the program to the few tasks that still show it.
 */
class ShrinkerTest {
    /** The real reference, off by one in the first output element when the program has a NO_DEP argument. */
    static final FuzzRunner.Reference FAULTY = (program, args) -> {
        int tasks = ReferenceExecutor.run(program, args);
        if (hasNoDep(program.body())) {
            Tensor first = args.get(program.outputs().getFirst().name());
            first.setDouble(0, first.getDouble(0) + 1);
        }
        return tasks;
    };

    static boolean hasNoDep(List<Stmt> body) {
        for (Stmt s : body) {
            boolean found = switch (s) {
                case Stmt.For f -> hasNoDep(f.body());
                case Stmt.Scope sc -> hasNoDep(sc.body());
                case Stmt.Alloc a -> false;
                case Stmt.Read r -> false;
                case Stmt.Submit sub -> sub.args().stream().anyMatch(a -> a instanceof SubmitArg.TensorArg ta
                        && ta.direction() == Direction.NO_DEP);
            };
            if (found) {
                return true;
            }
        }
        return false;
    }

    /** A seed whose program is large and has a NO_DEP argument. */
    private static FuzzCase bigNoDepCase() {
        for (long s = 0; ; s++) {
            FuzzCase c = ProgramGenerator.generate(s);
            if (hasNoDep(c.program().body()) && OrderingRules.check(c.program()).facts().tasks() >= 15) {
                return c.withConfig(RunConfig.defaults()); // default rings: no ring error hides the finding
            }
        }
    }

    @Test
    void theReproducerIsMuchSmallerAndStillFailsTheSameWay() throws IOException {
        Path root = Files.createTempDirectory("jpto-shrink-test");
        try (FuzzRunner runner = new FuzzRunner(root, Duration.ofSeconds(60), FAULTY)) {
            FuzzCase c = bigNoDepCase();
            Outcome first = runner.run(c);
            assertThat(first).isInstanceOf(Outcome.Finding.class);
            Outcome.Finding f = (Outcome.Finding) first;
            assertThat(f.kind()).isEqualTo(Outcome.Kind.WRONG_RESULT);

            Shrinker.Result r = Shrinker.shrink(c, x -> runner.run(x) instanceof Outcome.Finding g
                    && g.signature().equals(f.signature()), 400);
            Program small = r.reduced().program();
            int before = OrderingRules.check(c.program()).facts().tasks();
            int after = OrderingRules.check(small).facts().tasks();
            assertThat(after).as(r.reduced().describe()).isLessThanOrEqualTo(2).isLessThan(before);
            assertThat(r.accepted()).isPositive();
            assertThat(hasNoDep(small.body())).isTrue();
            assertThat(Verifier.check(small)).isEmpty();
            assertThat(runner.run(r.reduced())).isInstanceOf(Outcome.Finding.class);
            assertThat(r.sizes()).startsWith(before + " tasks").contains("-> " + after + " tasks");
        } finally {
            Files.deleteIfExists(root);
        }
    }

    @Test
    void aSessionPrintsTheSeedTheReducedProgramAndTheReplayCommand() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8);
        Fuzzer.Settings s = new Fuzzer.Settings(0, 24, Duration.ZERO, Duration.ofSeconds(60), false, 150, 1,
                Duration.ofSeconds(10), ProgramGenerator.Options.defaults());
        FuzzSummary summary = Fuzzer.run(s, out, FAULTY);
        String text = buf.toString(StandardCharsets.UTF_8);
        assertThat(summary.programs()).isEqualTo(24);
        assertThat(summary.wrongResults()).as(text).isPositive();
        assertThat(summary.passes() + summary.ringErrors() + summary.findings()).isEqualTo(24);
        long seed = summary.findingSeeds().getFirst();
        assertThat(text).contains("[FUZZ] FINDING seed=" + seed + " WRONG_RESULT")
                .contains("[FUZZ] reduced in ")
                .contains("orchestration")
                .contains("[FUZZ] reduced work dir: ")
                .contains("[FUZZ] replay: jpto fuzz --seed " + seed + " --count 1")
                .contains("[FUZZ] FAIL: " + summary.findings() + " finding(s)");
    }

    @Test
    void aCleanSessionCountsEveryProgramAndPasses() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8);
        FuzzSummary summary = Fuzzer.run(Fuzzer.Settings.of(100, 16, Duration.ZERO).withVerbose(true), out);
        String text = buf.toString(StandardCharsets.UTF_8);
        assertThat(summary.findings()).as(text).isZero();
        assertThat(summary.programs()).isEqualTo(16);
        assertThat(summary.passes() + summary.ringErrors()).isEqualTo(16);
        assertThat(summary.errorCodes().values().stream().mapToLong(Long::longValue).sum())
                .isEqualTo(summary.ringErrors());
        assertThat(text).contains("[FUZZ] seed 100 ").contains("[FUZZ] seed 115 ")
                .contains("[FUZZ] programs=16 passes=" + summary.passes()).contains("[FUZZ] error codes: ")
                .contains("[FUZZ] PASS: no findings");
    }
}
