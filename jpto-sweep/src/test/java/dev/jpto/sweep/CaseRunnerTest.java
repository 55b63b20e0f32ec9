package dev.jpto.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.lib.runner.MemoryBudget;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CaseRunnerTest {
    @Test
    void casesSideBySideShareTheDefaultBudget() {
        long host = MemoryBudget.ofPhysicalMemory().bytes();
        assertThat(CaseRunner.share(1)).isEqualTo(MemoryBudget.ofPhysicalMemory());
        assertThat(CaseRunner.share(4).bytes()).isEqualTo(host / 4);
        assertThat(CaseRunner.share(4).origin()).endsWith(", shared by 4 cases at once (--max-parallel)");
    }

    @Test
    void aCaseOverItsShareIsAnErrorWithExit2AndTheBudgetsOrigin(@TempDir Path tmp) {
        CaseRunner tight = new CaseRunner(new ProgramRefs(Map.of("JPTO_CACHE_DIR", tmp.toString())), "m",
                new MemoryBudget(1024, "a test's 1KiB"));
        CaseResult r = tight.run(new SweepCase("basic.matmul", "basic.matmul", "tiny", Map.of(), "a2a3sim", 0, 0,
                "PASS"));
        assertThat(r.outcome()).isEqualTo(CaseResult.ERROR);
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.errorCode()).isEqualTo("BAD_CONFIG");
        assertThat(r.message()).contains("a test's 1KiB");
        assertThat(r.asExpected()).isFalse();
    }
}
