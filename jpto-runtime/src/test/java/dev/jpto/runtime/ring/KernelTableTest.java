package dev.jpto.runtime.ring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.runtime.TaskBody;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A slot names its kernel by a table id while the table has room and by its own references past that; either way
 * the slot answers with the body and name it was given. Ids stay fixed for the run; the end of the run forgets all.
 */
class KernelTableTest {
    private static TaskBody body() {
        int[] marker = new int[1];
        return ctx -> marker[0]++; // a fresh capturing lambda: a distinct object per call
    }

    @Test
    void aKernelKeepsItsIdAndANameMakesADifferentKernel() {
        KernelTable t = new KernelTable();
        TaskBody a = body();
        TaskBody b = body();
        assertThat(t.idOf(a, "a")).isZero();
        assertThat(t.idOf(b, "b")).isEqualTo(1);
        assertThat(t.idOf(a, "a")).isZero();
        assertThat(t.idOf(a, "other")).isEqualTo(2);
        assertThat(t.idOf(b, "b")).isEqualTo(1);
        assertThat(t.body(2)).isSameAs(a);
        assertThat(t.name(2)).isEqualTo("other");
    }

    @Test
    void aFullTableAnswersNoneForNewKernelsAndStillFindsItsOwn() {
        KernelTable t = new KernelTable();
        List<TaskBody> held = new ArrayList<>();
        List<String> names = new ArrayList<>(); // kernels are told apart by identity, names too
        for (int i = 0; i < KernelTable.CAPACITY; i++) {
            held.add(body());
            names.add("k" + i);
            assertThat(t.idOf(held.get(i), names.get(i))).isEqualTo(i);
        }
        assertThat(t.idOf(body(), "new")).isEqualTo(KernelTable.NONE);
        assertThat(t.idOf(held.get(5), names.get(5))).isEqualTo(5);
        assertThat(t.idOf(held.get(5), new String("k5"))).as("an equal name that is another object")
                .isEqualTo(KernelTable.NONE);
        // A run that keeps bringing new kernels, even between old ones: after CAPACITY misses the table is no longer
        // searched, but the kernel found last is still recognised.
        for (int i = 0; i < 2 * KernelTable.CAPACITY; i++) {
            assertThat(t.idOf(body(), "fresh")).isEqualTo(KernelTable.NONE);
            assertThat(t.idOf(held.get(5), names.get(5))).isEqualTo(5);
        }
        assertThat(t.idOf(held.get(6), names.get(6))).as("no longer searched").isEqualTo(KernelTable.NONE);
        t.clear();
        TaskBody after = body();
        assertThat(t.idOf(after, "after")).as("ids start again").isZero();
        assertThat(t.idOf(held.get(6), names.get(6))).isEqualTo(1);
    }

    @Test
    void aSlotAnswersWithItsKernelWhetherTheTableHoldsItOrNot() {
        Ring ring = new Ring(0, 256, 1024, 8, null);
        List<TaskBody> bodies = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            int slot = ring.slotOf(ring.tasks.take());
            ring.initSlot(slot, Ring.taskId(0, i), 0);
            boolean repeat = i % 3 == 0 && i > 0; // some kernels repeat, most are new
            bodies.add(repeat ? bodies.get(i - 3) : body());
            names.add(repeat ? names.get(i - 3) : "k" + i);
            ring.setKernel(slot, bodies.get(i), names.get(i));
        }
        for (int i = 0; i < 200; i++) {
            assertThat(ring.body(i)).as("slot %d", i).isSameAs(bodies.get(i));
            assertThat(ring.kernelName(i)).isSameAs(names.get(i));
        }
        ring.dropBodies();
        int slot = ring.slotOf(ring.tasks.take());
        TaskBody next = body();
        ring.setKernel(slot, next, "next");
        assertThat(ring.body(slot)).isSameAs(next);
        assertThat(ring.kernelName(slot)).isEqualTo("next");
    }
}
