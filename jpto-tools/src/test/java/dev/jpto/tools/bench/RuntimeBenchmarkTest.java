package dev.jpto.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.runtime.Platform;
import java.util.List;
import org.junit.jupiter.api.Test;

class RuntimeBenchmarkTest {
    @Test
    void quantileInterpolatesBetweenSortedValues() {
        double[] v = {9, 1, 5, 3};
        assertThat(RuntimeBenchmark.quantile(v, 0.5)).isEqualTo(4.0);
        assertThat(RuntimeBenchmark.quantile(v, 0.0)).isEqualTo(1.0);
        assertThat(RuntimeBenchmark.quantile(v, 1.0)).isEqualTo(9.0);
        assertThat(RuntimeBenchmark.quantile(v, 0.25)).isEqualTo(2.5);
        assertThat(v).containsExactly(9, 1, 5, 3); // the input is not reordered
    }

    @Test
    void threadsMustBeDefaultOrAtLeastTwo() {
        assertThatThrownBy(() -> new RuntimeBenchmark.Options(Platform.A2A3SIM, 256, 64, 0, 1, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("threads=1");
        assertThat(new RuntimeBenchmark.Options(Platform.A2A3SIM, 256, 64, 0, 1, 2).workers()).isEqualTo(1);
        assertThat(new RuntimeBenchmark.Options(Platform.A2A3SIM, 256, 64, 0, 1, 0).workers())
                .isEqualTo(Platform.A2A3SIM.hostAicpuThreadNum(1) - 1);
    }

    @Test
    void reportsEveryShapeWithWallAndCpuFiguresOfBothSides() {
        RuntimeBenchmark.Options o = new RuntimeBenchmark.Options(Platform.A2A3SIM, 256, 64, 1, 3, 2);
        List<RuntimeBenchmark.Row> rows = RuntimeBenchmark.run(o);
        assertThat(rows).extracting(RuntimeBenchmark.Row::shape).containsExactly(RuntimeWorkload.Shape.values());
        for (RuntimeBenchmark.Row r : rows) {
            assertThat(r.jptoNsPerTask()).isPositive();
            assertThat(r.forkJoinNsPerTask()).isPositive();
            assertThat(r.jptoCpuNsPerTask()).isPositive();
            assertThat(r.forkJoinCpuNsPerTask()).isPositive();
            assertThat(r.jptoSubmitCpuNsPerTask()).isPositive().isLessThanOrEqualTo(r.jptoCpuNsPerTask());
            assertThat(r.forkJoinSubmitCpuNsPerTask()).isPositive().isLessThanOrEqualTo(r.forkJoinCpuNsPerTask());
            assertThat(r.ratioQ1()).isLessThanOrEqualTo(r.ratio());
            assertThat(r.ratio()).isLessThanOrEqualTo(r.ratioQ3());
        }
        List<String> lines = RuntimeBenchmark.lines(o, rows);
        assertThat(lines.get(1)).contains("1 orchestrator + 1 schedulers").contains("1 submitter + 1 workers");
        assertThat(lines).hasSize(4 + rows.size());
        assertThat(lines.get(4)).startsWith("  independent");
    }
}
