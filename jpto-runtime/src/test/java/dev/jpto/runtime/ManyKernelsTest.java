package dev.jpto.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.runtime.chip.Chip;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every task runs its own body under its own name, however many distinct kernels a run submits: a ring names the
 * first few dozen by a table id and the rest by the slot's own references (a fresh capturing lambda per task is
 * the common way to get hundreds).
 */
@Timeout(60)
class ManyKernelsTest {
    @Test
    void freshLambdasAndNamesPerTaskEachRunTheirOwnBody() {
        int n = 300;
        AtomicIntegerArray ran = new AtomicIntegerArray(n);
        AtomicIntegerArray namedRight = new AtomicIntegerArray(n);
        try (Chip chip = Chip.open(Platform.A2A3SIM, 0)) {
            for (int run = 0; run < 3; run++) {
                chip.run(orch -> {
                    for (int i = 0; i < n; i++) {
                        int task = i;
                        String name = "k" + i;
                        orch.submit(name, (i & 1) == 0 ? CoreType.AIV : CoreType.AIC, ctx -> {
                            ran.incrementAndGet(task);
                            if (ctx.kernelName().equals(name)) {
                                namedRight.incrementAndGet(task);
                            }
                        });
                    }
                }, CallConfig.defaults());
            }
        }
        for (int i = 0; i < n; i++) {
            assertThat(ran.get(i)).as("task %d", i).isEqualTo(3);
            assertThat(namedRight.get(i)).as("task %d", i).isEqualTo(3);
        }
    }

    @Test
    void aFailingKernelPastTheTableIsNamedInTheError() {
        TaskBody fixed = ctx -> { };
        try (Chip chip = Chip.open(Platform.A2A3SIM, 0)) {
            assertThatThrownBy(() -> chip.run(orch -> {
                for (int i = 0; i < 200; i++) {
                    orch.submit("fixed", CoreType.AIV, fixed);
                    int task = i;
                    orch.submit("fresh_" + i, CoreType.AIV, ctx -> {
                        if (task == 150) {
                            throw new IllegalStateException("bad input in task 150");
                        }
                    });
                }
            }, CallConfig.defaults())).isInstanceOf(ChipRuntimeException.class)
                    .hasMessageContaining("kernel 'fresh_150'")
                    .hasMessageContaining("bad input in task 150");
            // The chip runs the next program, with kernels from the table again.
            AtomicIntegerArray ran = new AtomicIntegerArray(1);
            chip.run(orch -> orch.submit("after", CoreType.AIC, ctx -> ran.incrementAndGet(0)), CallConfig.defaults());
            assertThat(ran.get(0)).isEqualTo(1);
        }
    }
}
