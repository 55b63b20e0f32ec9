package dev.jpto.runtime.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.Platform;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The timeline replay on hand-built DAGs. The spec is a2a3's cores at a 1 GHz clock (1 cycle = 1 ns) with round
 * runtime costs, so every expectation is worked out in the comments.
 */
class DeviceReplayTest {
    private static HardwareSpec spec(long submitNs, long dispatchNs, long completionNs) {
        HardwareSpec a2 = HardwareSpec.of(Platform.A2A3SIM);
        return new HardwareSpec(Platform.A2A3SIM, "test", 1000, a2.cube(), a2.vector(), a2.memory(), a2.buffers(),
                new HardwareSpec.RuntimeCosts(submitNs, dispatchNs, completionNs), 1);
    }

    private static DeviceTask task(long id, CoreType type, long cycles, Long... preds) {
        return new DeviceTask(id, "k" + id, type, cycles, 0, List.of(preds), 1);
    }

    private static BlockRun run(DeviceTimeline tl, long id) {
        return tl.runs().stream().filter(r -> r.taskId() == id).findFirst().orElseThrow();
    }

    @Test
    void aDiamondFollowsItsCriticalPathAndPaysDispatchAndCompletionPerTask() {
        // A(AIV 1000) -> B(AIC 3000), A -> C(AIV 500), B, C -> D(AIV 200); dispatch 100 ns, completion 50 ns
        List<DeviceTask> g = List.of(task(1, CoreType.AIV, 1000), task(2, CoreType.AIC, 3000, 1L),
                task(3, CoreType.AIV, 500, 1L), task(4, CoreType.AIV, 200, 2L, 3L));
        DeviceTimeline tl = DeviceReplay.replay(spec(0, 100, 50), g);
        // A 100..1100, done 1150; B and C ready 1150, start 1250; B ends 4250, done 4300; D 4400..4600, done 4650
        assertThat(run(tl, 1)).isEqualTo(new BlockRun(1, "k1", 0, CoreType.AIV, 0, 0, 0, 0, 100_000, 1_100_000));
        assertThat(run(tl, 2)).isEqualTo(new BlockRun(2, "k2", 0, CoreType.AIC, 0, 0, 1_150_000, 1_150_000,
                1_250_000, 4_250_000));
        assertThat(run(tl, 3).startPs()).isEqualTo(1_250_000);
        assertThat(run(tl, 3).core()).as("A's core is free again: lowest index first").isZero();
        assertThat(run(tl, 4).readyPs()).isEqualTo(4_300_000);
        assertThat(run(tl, 4).startPs()).isEqualTo(4_400_000);
        assertThat(tl.makespanPs()).isEqualTo(4_650_000);
        // (100 + 1000 + 50) + (100 + 3000 + 50) + (100 + 200 + 50): no core is contended, so it is the makespan
        assertThat(tl.criticalPath()).containsExactly(1L, 2L, 4L);
        assertThat(tl.criticalPathPs()).isEqualTo(4_650_000);
        assertThat(tl.deviceMicros()).isEqualTo(4.65);
    }

    @Test
    void moreReadyTasksThanCoresWaitForAFreeCoreLowestIdFirst() {
        // 26 independent AIC tasks on 24 AIC cores, listed with descending ids: the two highest ids wait
        List<DeviceTask> g = new ArrayList<>();
        for (int i = 0; i < 26; i++) {
            g.add(task(100 - i, CoreType.AIC, 1000));
        }
        DeviceTimeline tl = DeviceReplay.replay(spec(0, 100, 50), g);
        for (long id = 75; id <= 98; id++) {
            assertThat(run(tl, id).startPs()).as("task %d", id).isEqualTo(100_000);
        }
        // cores 0 and 1 (taken by ids 75 and 76) free at 1100; the waiting tasks start 100 ns later
        assertThat(run(tl, 99)).isEqualTo(new BlockRun(99, "k99", 0, CoreType.AIC, 0, 0, 0, 1_100_000, 1_200_000,
                2_200_000));
        assertThat(run(tl, 100).core()).isEqualTo(1);
        assertThat(tl.makespanPs()).isEqualTo(2_250_000);
        assertThat(tl.criticalPathPs()).as("a lower bound only: contention is not on it").isEqualTo(1_150_000);
        assertThat(tl.criticalPath()).containsExactly(75L);
    }

    @Test
    void theOrchestratorSubmitsOneTaskAtATime() {
        // submit 1000 ns each: independent AIV tasks become ready at 1000, 2000, 3000
        List<DeviceTask> g = List.of(task(1, CoreType.AIV, 10), task(2, CoreType.AIV, 10), task(3, CoreType.AIV, 10));
        DeviceTimeline tl = DeviceReplay.replay(spec(1000, 100, 50), g);
        for (long id = 1; id <= 3; id++) {
            BlockRun r = run(tl, id);
            assertThat(r.submittedPs()).isEqualTo(id * 1_000_000);
            assertThat(r.readyPs()).isEqualTo(id * 1_000_000);
            assertThat(r.startPs() - r.dispatchPs()).as("dispatch cost").isEqualTo(100_000);
        }
        assertThat(tl.makespanPs()).isEqualTo(3_000_000 + 100_000 + 10_000 + 50_000);
    }

    @Test
    void anSpmdTaskSpreadsItsBlocksAndCompletesWithItsLastBlock() {
        // 30 blocks of 1000 cycles on 24 AIC cores: 24 run 100..1100, 6 run 1200..2200; done 2250; its AIV consumer
        // starts at 2350
        List<DeviceTask> g = List.of(new DeviceTask(1, "spmd", CoreType.AIC, 1000, 0, List.of(), 30),
                task(2, CoreType.AIV, 10, 1L));
        DeviceTimeline tl = DeviceReplay.replay(spec(0, 100, 50), g);
        List<BlockRun> blocks = tl.runs().stream().filter(r -> r.taskId() == 1).toList();
        assertThat(blocks).hasSize(30);
        assertThat(blocks.stream().filter(b -> b.startPs() == 100_000)).hasSize(24);
        assertThat(blocks.stream().filter(b -> b.startPs() == 1_200_000)).hasSize(6);
        assertThat(blocks.stream().mapToInt(BlockRun::block).distinct()).hasSize(30);
        assertThat(run(tl, 2).startPs()).isEqualTo(2_350_000);
    }

    @Test
    void theChipsGmBandwidthIsAFloorOnTheDeviceTime() {
        // 16 MB at 1.6 TB/s = 10 us, far above the 1.15 us of the task itself
        List<DeviceTask> g = List.of(new DeviceTask(1, "stream", CoreType.AIV, 1000, 16_000_000, List.of(), 1));
        DeviceTimeline tl = DeviceReplay.replay(spec(0, 100, 50), g);
        assertThat(tl.makespanPs()).isEqualTo(1_150_000);
        assertThat(tl.gmFloorPs()).isEqualTo(10_000_000);
        assertThat(tl.devicePs()).isEqualTo(10_000_000);
    }

    private static long[] lines(long from, long count) {
        return java.util.stream.LongStream.range(from, from + count).toArray();
    }

    private static DeviceTask reader(long id, long[] lines) {
        long bytes = (long) lines.length * GmFootprint.LINE_BYTES;
        return new DeviceTask(id, "read", CoreType.AIV, 1000, bytes, List.of(), 1,
                new GmFootprint(lines, new long[0], bytes));
    }

    @Test
    void dataReReadWithinTheL2IsNotChargedAtHbmBandwidth() {
        // two tasks read the same 8 MiB (16384 lines): the first from HBM, the second from L2 (192 MiB)
        long n = 16_384;
        DeviceTimeline tl = DeviceReplay.replay(spec(0, 100, 50), List.of(reader(1, lines(0, n)),
                reader(2, lines(0, n))));
        long bytes = n * GmFootprint.LINE_BYTES;
        assertThat(tl.gmBytes()).isEqualTo(2 * bytes);
        assertThat(tl.hbmBytes()).isEqualTo(bytes);
        // floor: 8 MiB at 1600 GB/s = 5242.88 ns, above 16 MiB at the L2's 4884 GB/s = 3435.1 ns
        assertThat(tl.gmFloorPs()).isEqualTo(5_242_880);
    }

    @Test
    void dataEvictedFromTheL2IsReadFromHbmAgain() {
        // a5's L2 holds 112 MiB = 229376 lines; task 2 reads that many other lines, evicting the oldest two, task 1's
        HardwareSpec a5 = HardwareSpec.of(Platform.A5SIM);
        long cap = a5.memory().l2Bytes() / GmFootprint.LINE_BYTES;
        assertThat(cap).isEqualTo(229_376);
        DeviceTimeline tl = DeviceReplay.replay(a5, List.of(reader(1, lines(0, 2)), reader(2, lines(10, cap)),
                reader(3, lines(0, 2))));
        // so task 3 reads both from HBM again; with two lines fewer in task 2 they stay and both hit
        assertThat(tl.gmBytes() - tl.hbmBytes()).isZero();
        DeviceTimeline kept = DeviceReplay.replay(a5, List.of(reader(1, lines(0, 2)), reader(2, lines(10, cap - 2)),
                reader(3, lines(0, 2))));
        assertThat(kept.gmBytes() - kept.hbmBytes()).isEqualTo(2 * GmFootprint.LINE_BYTES);
    }

    @Test
    void aTaskWithoutFootprintIsAllHbm() {
        List<DeviceTask> g = List.of(new DeviceTask(1, "s", CoreType.AIV, 1000, 4096, List.of(), 1),
                new DeviceTask(2, "s", CoreType.AIV, 1000, 4096, List.of(), 1));
        assertThat(DeviceReplay.replay(spec(0, 100, 50), g).hbmBytes()).isEqualTo(8192);
    }

    @Test
    void theSameGraphGivesTheSameTimeline() {
        List<DeviceTask> g = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            List<Long> preds = i < 3 ? List.of() : List.of((long) (i * 7 % i), (long) (i - 1));
            g.add(new DeviceTask(i, "k", i % 3 == 0 ? CoreType.AIC : CoreType.AIV, 100 + i * 37 % 500, 0, preds,
                    1 + i % 2));
        }
        HardwareSpec a2 = HardwareSpec.of(Platform.A2A3SIM);
        assertThat(DeviceReplay.replay(a2, g)).isEqualTo(DeviceReplay.replay(a2, List.copyOf(g)));
    }

    @Test
    void aPredecessorMustBeAnEarlierTaskAndIdsAreUnique() {
        assertThatThrownBy(() -> DeviceReplay.replay(spec(0, 0, 0),
                List.of(task(1, CoreType.AIV, 1, 2L), task(2, CoreType.AIV, 1))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("task 1 (k1) waits for task 2, which is not submitted before it; predecessors must be"
                        + " earlier tasks of the list");
        assertThatThrownBy(() -> DeviceReplay.replay(spec(0, 0, 0),
                List.of(task(1, CoreType.AIV, 1), task(1, CoreType.AIC, 1))))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("task id 1 (k1) appears twice");
        assertThatThrownBy(() -> new DeviceTask(5, "x", CoreType.AIV, 1, 0, List.of(), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("task 5 (x): blocks must be >= 1, got 0");
    }
}
