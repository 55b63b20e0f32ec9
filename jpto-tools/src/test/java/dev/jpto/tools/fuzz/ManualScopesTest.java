package dev.jpto.tools.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.compiler.ir.Stmt;
import dev.jpto.runtime.ScopeKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The generator's manual scopes: they occur, carry explicit dependencies, and the chip still matches the reference. */
@Timeout(300)
class ManualScopesTest {
    private static boolean hasManual(List<Stmt> body) {
        for (Stmt s : body) {
            if (s instanceof Stmt.Scope sc && (sc.kind() == ScopeKind.MANUAL || hasManual(sc.body()))
                    || s instanceof Stmt.For f && hasManual(f.body())) {
                return true;
            }
        }
        return false;
    }

    private static int explicitDeps(List<Stmt> body) {
        int n = 0;
        for (Stmt s : body) {
            n += switch (s) {
                case Stmt.Scope sc -> explicitDeps(sc.body());
                case Stmt.For f -> explicitDeps(f.body());
                case Stmt.Submit sub -> sub.after().size();
                default -> 0;
            };
        }
        return n;
    }

    @Test
    void generatedManualScopesRunLikeTheSequentialReference() throws Exception {
        List<FuzzCase> manual = new ArrayList<>();
        int deps = 0;
        for (long seed = 0; seed < 200 && manual.size() < 8; seed++) {
            FuzzCase c = ProgramGenerator.generate(seed);
            if (hasManual(c.program().body())) {
                manual.add(c);
                deps += explicitDeps(c.program().body());
            }
        }
        assertThat(manual).as("seeds 0..199 give manual scopes").hasSize(8);
        assertThat(deps).as("and explicit dependencies").isPositive();
        Path root = Files.createTempDirectory("jpto-manual-fuzz");
        try (FuzzRunner runner = new FuzzRunner(root, Duration.ofSeconds(60))) {
            for (FuzzCase c : manual) {
                Outcome o = runner.run(c);
                assertThat(o).as("seed %d", c.seed()).isNotInstanceOf(Outcome.Finding.class);
            }
        }
    }
}
