package dev.jpto.tools.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.Stmt;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The generator's launches (SPMD and mixed tasks, sync start) and the chip agreeing with the reference on them. */
@Timeout(600)
class LaunchFuzzTest {
    @TempDir
    Path dir;

    /** Every submit of {@code p}, loops and scopes walked once. */
    static List<Stmt.Submit> submits(List<Stmt> body) {
        List<Stmt.Submit> out = new ArrayList<>();
        for (Stmt s : body) {
            switch (s) {
                case Stmt.For f -> out.addAll(submits(f.body()));
                case Stmt.Scope sc -> out.addAll(submits(sc.body()));
                case Stmt.Submit sub -> out.add(sub);
                default -> { }
            }
        }
        return out;
    }

    @Test
    void theGeneratorProducesSpmdMixedAndSyncStartLaunches() {
        int spmd = 0;
        int mixed = 0;
        int sync = 0;
        int allLanes = 0;
        int laneScalars = 0;
        for (long seed = 0; seed < 200; seed++) {
            Program p = ProgramGenerator.generate(seed).program();
            for (Stmt.Submit sub : submits(p.body())) {
                spmd += sub.blockNum() > 1 && sub.mixed() == null ? 1 : 0;
                mixed += sub.mixed() != null ? 1 : 0;
                sync += sub.requireSyncStart() ? 1 : 0;
                allLanes += sub.mixed() != null && sub.mixed().activeMask() == 7 ? 1 : 0;
                laneScalars += sub.args().stream().anyMatch(a -> a.toString().contains(Stmt.Submit.SUB_BLOCK_IDX))
                        ? 1 : 0;
            }
        }
        assertThat(spmd).isGreaterThan(20);
        assertThat(mixed).isGreaterThan(20);
        assertThat(sync).isGreaterThan(10);
        assertThat(allLanes).isGreaterThan(2);
        assertThat(laneScalars).isGreaterThan(5);
    }

    @Test
    void programsWithLaunchesMatchTheReferenceOnTheChip() throws IOException {
        int runs = 0;
        try (FuzzRunner runner = new FuzzRunner(dir, Duration.ofSeconds(60))) {
            for (long seed = 0; runs < 24 && seed < 400; seed++) {
                FuzzCase c = ProgramGenerator.generate(seed);
                if (submits(c.program().body()).stream().noneMatch(s -> s.mixed() != null || s.blockNum() > 1)) {
                    continue;
                }
                runs++;
                Outcome o = runner.run(c);
                assertThat(o).as("seed %d: %s%n%s", seed, o, c.describe()).isNotInstanceOf(Outcome.Finding.class);
            }
        }
        assertThat(runs).isEqualTo(24);
    }
}
