package dev.jpto.compiler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.plan.PlanPrograms;
import dev.jpto.compiler.plan.RingPlan;
import dev.jpto.compiler.plan.RingPlanner;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.RunReport;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code ring_*=auto} reaches the chip as the plan's recommendation on every dispatch surface. */
@Timeout(120)
class AutoRingSurfacesTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @EnumSource(SurfaceRingSizingTest.Surface.class)
    void autoIsThePlanOnEverySurface(SurfaceRingSizingTest.Surface surface) {
        Program p = PlanPrograms.accumulate(2, 5);
        RingPlan plan = RingPlanner.plan(p);
        RunConfig auto = RunConfig.fromMap(Map.of("ring_heap", "auto", "ring_task_window", "auto", "ring_dep_pool",
                "auto"));
        try (Arena arena = Arena.ofShared()) {
            Tensor x = Tensors.random(arena, 3, p.inputs().getFirst().shape()[0], 64);
            double[] want = PlanPrograms.reference(p, x.toDoubleArray());
            Tensor y = Tensor.allocate(arena, DType.FP32, p.outputs().getFirst().shape());
            RunReport r = surface.run(p, Map.of("x", x, "y", y), auto, tmp);
            for (int ring = 0; ring < 4; ring++) {
                assertThat(new long[] {r.ring(ring).taskWindow(), r.ring(ring).heapBytes(), r.ring(ring).depPool()})
                        .as("%s ring %d", surface, ring).containsExactly(plan.ring(ring).recommendedTaskWindow(),
                                plan.ring(ring).recommendedHeap(), plan.ring(ring).recommendedDepPool());
            }
            assertThat(r.ring(1).taskWindow()).isEqualTo(8);
            assertThat(r.ring(1).depPool()).isEqualTo(16);
            assertThat(y.toDoubleArray()).isEqualTo(want);
        }
    }
}
