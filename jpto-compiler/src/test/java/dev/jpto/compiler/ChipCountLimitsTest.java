package dev.jpto.compiler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.compiler.l3.L3Program;
import dev.jpto.compiler.launch.DistributedRunner;
import dev.jpto.compiler.launch.DistributedWorker;
import dev.jpto.compiler.run.RunConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 20 items 9 and 11: chip counts are bounded (one constant, {@link L3Program#MAX_CHIPS}) and must leave the
 * device ids in range, and a heap ring this host cannot map is refused by {@link RunConfig#checkRunnable} — the
 * check a run makes before compiling — not first by the chip after the golden.
 */
@Timeout(60)
class ChipCountLimitsTest {
    @Test
    void anL3ProgramsDefaultChipCountIsBounded() {
        assertThat(L3Program.builder("p").chips(L3Program.MAX_CHIPS)).isNotNull();
        assertThatThrownBy(() -> L3Program.builder("p").chips(Integer.MAX_VALUE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("L3 program p: chips must be in 1..64: chips=2147483647");
    }

    @Test
    void aRunsChipCountAndItsLastDeviceIdAreCheckedBeforeAnyChipIsOpened() {
        DistributedRunner.checkChips(64, Integer.MAX_VALUE - 63); // the last device is the largest id: fine
        assertThatThrownBy(() -> DistributedRunner.checkChips(2_000_000, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("an L3 run takes 1..64 chips: chips=2000000 (try 2)");
        assertThatThrownBy(() -> DistributedRunner.checkChips(2, Integer.MAX_VALUE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("2 chips from device 2147483647 need device ids up to 2147483648, past the largest device "
                        + "id 2147483647 (use device 2147483646 or lower)");
        // the worker refuses too (a caller that skipped the early check): no chip with id -2147483648 is opened
        assertThatThrownBy(() -> DistributedWorker.open(RunConfig.defaults().withDeviceId(Integer.MAX_VALUE), 2))
                .hasMessageContaining("past the largest device id 2147483647");
    }

    @Test
    void aHeapRingBeyondTheAddressSpaceIsRefusedByCheckRunnable() {
        long ring0 = 4194304L << 40; // 2^62 bytes: more than any host's address space
        RunConfig config = RunConfig.defaults().withRingHeap(ring0, 0, 0, 0);
        assertThatThrownBy(config::checkRunnable).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ring_heap for ring 0 cannot be reserved on this host (mmap of 4194304TiB failed: address "
                        + "space exhausted): ring_heap[0]=" + ring0 + " (use a smaller ring_heap, e.g. the default "
                        + "256MiB)");
        RunConfig gib = RunConfig.defaults().withRingHeap(1L << 30);
        assertThat(gib.checkRunnable()).isSameAs(gib); // 4 x 1GiB of address space: reserved, released, fine
    }
}
