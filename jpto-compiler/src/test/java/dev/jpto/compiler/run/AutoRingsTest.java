package dev.jpto.compiler.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.plan.PlanPrograms;
import dev.jpto.compiler.plan.RingPlan;
import dev.jpto.compiler.plan.RingPlanner;
import dev.jpto.runtime.CallConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code auto} ring sizes: parsing, validation without a program, and resolution against the plan. */
class AutoRingsTest {
    private final Program program = PlanPrograms.nested(5);
    private final RingPlan plan = RingPlanner.plan(program);

    @Test
    void autoParsesInAnyCaseAndPrintsBack() {
        RunConfig c = RunConfig.fromMap(Map.of("ring_heap", "auto", "ring_task_window", "AUTO", "ring_dep_pool", " Auto"));
        assertThat(c.ringHeap()).isEqualTo(RingSize.auto());
        assertThat(c.ringTaskWindow().isAuto()).isTrue();
        assertThat(c.asMap()).containsEntry("ring_heap", "auto").containsEntry("ring_task_window", "auto")
                .containsEntry("ring_dep_pool", "auto");
        assertThat(RunConfig.fromMap(c.asMap())).isEqualTo(c);
        assertThat(AutoRings.autoKeys(c)).containsExactly("ring_task_window", "ring_heap", "ring_dep_pool");
        assertThatThrownBy(() -> RingSize.auto().entries()).hasMessageContaining("resolved");
    }

    @Test
    void withoutAProgramAutoIsAnErrorThatSaysWhereToGo() {
        RunConfig c = RunConfig.defaults().withRingHeap(RingSize.auto());
        assertThatThrownBy(() -> CallConfigs.from(c)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ring_heap=auto")
                .hasMessageContaining("jpto plan PROGRAM");
        assertThat(c.validate()).isSameAs(c);
    }

    @Test
    void autoResolvesToThePlanAndLeavesExplicitFieldsAlone() {
        RunConfig c = RunConfig.fromMap(Map.of("ring_heap", "auto", "ring_task_window", "64", "ring_dep_pool", "auto"));
        CallConfig call = CallConfigs.from(c, program);
        assertThat(call.runtimeEnv().ringHeap()).containsExactly(plan.heaps());
        assertThat(call.runtimeEnv().ringDepPool()).containsExactly(plan.depPools());
        assertThat(call.runtimeEnv().ringTaskWindow()).containsExactly(64, 64, 64, 64);
        RunConfig resolved = AutoRings.resolve(c, plan);
        assertThat(resolved.ringHeap()).isEqualTo(RingSize.of(1L << 20));
        assertThat(resolved.ringDepPool()).isEqualTo(RingSize.of(4, 4, 4, 8));
        assertThat(AutoRings.any(resolved)).isFalse();
    }

    @Test
    void aConfigWithoutAutoIsNotPlanned() {
        RunConfig c = RunConfig.fromMap(Map.of("ring_heap", "3MiB"));
        assertThat(AutoRings.resolve(c, program)).isSameAs(c);
        assertThat(CallConfigs.from(c, program)).isEqualTo(CallConfigs.from(c));
    }

    /** One CallConfig for several programs (L3): auto takes, per ring, the largest recommendation. */
    @Test
    void severalProgramsGetThePerRingMaximum() {
        Program hog = PlanPrograms.heapHogAt(0, 40);
        RunConfig c = RunConfig.fromMap(Map.of("ring_task_window", "auto", "ring_heap", "auto"));
        RunConfig both = AutoRings.resolve(c, java.util.List.of(program, hog));
        long[] w = RingPlanner.plan(hog).taskWindows();
        assertThat(w[0]).isEqualTo(128);
        assertThat(both.ringTaskWindow().entries()).containsExactly(128, 4, 4, plan.taskWindows()[3]);
        assertThat(both.ringHeap()).isEqualTo(RingSize.of(1L << 20));
        assertThatThrownBy(() -> AutoRings.resolve(c, java.util.List.of())).hasMessageContaining("at least one program");
    }
}
