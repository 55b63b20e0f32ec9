package dev.jpto.models.dsv4.kernels;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.Stmt;
import dev.jpto.compiler.plan.RingNeed;
import dev.jpto.compiler.plan.RingPlan;
import dev.jpto.compiler.plan.RingPlanner;
import dev.jpto.models.dsv4.Dsv4Preset;
import dev.jpto.models.dsv4.Dsv4Program;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The ring figures of docs/dsv4-rings.md at tiny: per ring, tasks / live tasks / dependency entries of the ring
 * plan (deterministic: the planner's trace of the orchestration), now that every grid of the original is one SPMD
 * task and the output projection a manual scope with explicit dependencies.
 */
class Dsv4RingFiguresTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {
        "SWA; 76/76/136; 13/12/20",
        "CSA; 118/118/238; 21/12/20",
        "HCA; 88/88/156; 13/12/20",
    })
    void tinyRingPlanMatchesTheDocumentedTable(Dsv4Program prog, String ring1, String ring2) {
        RingPlan plan = RingPlanner.plan(Dsv4Kernels.build(prog, Dsv4Preset.tiny()));
        assertThat(figures(plan.ring(1))).isEqualTo(ring1);
        assertThat(figures(plan.ring(2))).isEqualTo(ring2);
        assertThat(figures(plan.ring(0))).isEqualTo("0/0/0");
        assertThat(figures(plan.ring(3))).isEqualTo("0/0/0");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"SWA", "CSA", "HCA"})
    void theOutputProjectionIsAManualScopeOfSingleBlockTasks(Dsv4Program prog) {
        Program program = Dsv4Kernels.build(prog, Dsv4Preset.tiny());
        List<Stmt.Scope> manual = new ArrayList<>();
        collect(program.body(), manual);
        assertThat(manual).hasSize(1);
        Dsv4Preset tiny = Dsv4Preset.tiny();
        int groups = tiny.dims().oGroups();
        List<Stmt.Submit> subs = manual.getFirst().body().stream().map(Stmt.Submit.class::cast).toList();
        assertThat(subs).allSatisfy(s -> {
            assertThat(s.blockNum()).isEqualTo(1);
            assertThat(s.after()).isNotEmpty();
        });
        assertThat(subs.stream().filter(s -> s.kernel().equals("proj_a_mm")).count() % groups).isZero();
    }

    private static void collect(List<Stmt> body, List<Stmt.Scope> manual) {
        for (Stmt s : body) {
            switch (s) {
                case Stmt.Scope sc when sc.kind() == dev.jpto.runtime.ScopeKind.MANUAL -> manual.add(sc);
                case Stmt.Scope sc -> collect(sc.body(), manual);
                case Stmt.For f -> collect(f.body(), manual);
                default -> { }
            }
        }
    }

    private static String figures(RingNeed r) {
        return r.tasks() + "/" + r.liveTasks() + "/" + r.depEntries();
    }
}
