package dev.jpto.compiler.plan;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Planner figures against values worked out by hand from the runtime rules (spec a.3, b.2, b.3). */
class RingPlannerTest {
    private static final long K = 1024;

    @Test
    void printPlans() {
        System.out.println(RingPlanner.plan(PlanPrograms.scopedChain(6)));
        System.out.println(RingPlanner.plan(PlanPrograms.nested(5)));
        System.out.println(RingPlanner.plan(PlanPrograms.heapHogAt(2, 8)));
        System.out.println(RingPlanner.plan(PlanPrograms.mixedSizes(3)));
        System.out.println(RingPlanner.plan(PlanPrograms.accumulate(3, 5)));
    }
}
