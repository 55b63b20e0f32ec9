package dev.jpto.models.dsv4;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The Pro ring-heap figures of the original's decomposition (docs/dsv4-decomposition.md). */
class Dsv4HeapPlanTest {
    private static final double MIB = 1 << 20;

    @Test
    void proPeakOnRingOneExceeds256MiBAndFitsIn512() {
        for (Dsv4Program prog : Dsv4Program.values()) {
            List<Dsv4HeapPlan.Alloc> plan = Dsv4HeapPlan.of(prog, Dsv4Preset.pro());
            long peak = Dsv4HeapPlan.peakBytes(plan, 1);
            long raw = plan.stream().mapToLong(Dsv4HeapPlan.Alloc::bytes).sum();
            Map<String, Long> byStage = new TreeMap<>();
            plan.forEach(a -> byStage.merge(a.stage(), a.heapBytes(), Long::sum));
            System.out.printf("%s pro: %d allocations, raw %.2f MiB, ring-1 heap %.2f MiB (%d B); by stage %s%n",
                    prog, plan.size(), raw / MIB, peak / MIB, peak, byStage);
            assertThat(peak).isGreaterThan(256L << 20).isLessThanOrEqualTo(512L << 20);
            for (int ring : new int[] {0, 2, 3}) {
                assertThat(Dsv4HeapPlan.peakBytes(plan, ring)).isZero();
            }
        }
    }

    @Test
    void at256MiBTheProgramBlocksOnTheProjBPartials() {
        for (Dsv4Program prog : Dsv4Program.values()) {
            List<Dsv4HeapPlan.Alloc> plan = Dsv4HeapPlan.of(prog, Dsv4Preset.pro());
            assertThat(Dsv4HeapPlan.firstBlocked(plan, 1, 256L << 20)).get()
                    .extracting(Dsv4HeapPlan.Alloc::name).isEqualTo("partials");
            assertThat(Dsv4HeapPlan.firstBlocked(plan, 1, 512L << 20)).isEmpty();
            assertThat(Dsv4HeapPlan.firstBlocked(plan, 1, Dsv4HeapPlan.peakBytes(plan, 1))).isEmpty();
            assertThat(Dsv4HeapPlan.firstBlocked(plan, 1, Dsv4HeapPlan.peakBytes(plan, 1) - 1)).isPresent();
        }
    }

    @Test
    void proSumsMatchTheSpecTotals() {
        assertThat(rawMiB(Dsv4Program.SWA)).isCloseTo(292.7, within(0.1));
        assertThat(rawMiB(Dsv4Program.CSA)).isCloseTo(297.8, within(0.15));
        assertThat(rawMiB(Dsv4Program.HCA)).isCloseTo(289.2, within(0.1));
    }

    private static double rawMiB(Dsv4Program p) {
        return Dsv4HeapPlan.of(p, Dsv4Preset.pro()).stream().mapToLong(Dsv4HeapPlan.Alloc::bytes).sum() / MIB;
    }

    @Test
    void theFiveBigBuffersAreSizedByProWidth() {
        List<Dsv4HeapPlan.Alloc> plan = Dsv4HeapPlan.of(Dsv4Program.SWA, Dsv4Preset.pro());
        assertThat(bytesOf(plan, "sparse_blk_oi")).isEqualTo(128L * 128 * 3 * 512 * 4);
        assertThat(bytesOf(plan, "partials")).isEqualTo(128L * 16 * 7168 * 4);
        assertThat(bytesOf(plan, "sparse_kv")).isEqualTo(128L * 384 * 512 * 2);
        assertThat(bytesOf(plan, "q_proj_i32")).isEqualTo(32L << 20);
        assertThat(bytesOf(plan, "o_packed")).isEqualTo(16L << 20);
    }

    private static long bytesOf(List<Dsv4HeapPlan.Alloc> plan, String name) {
        return plan.stream().filter(a -> a.name().equals(name)).findFirst().orElseThrow().bytes();
    }

    @Test
    void smallerPresetsFitTheDefaultHeap() {
        for (Dsv4Program prog : Dsv4Program.values()) {
            for (Dsv4Preset p : List.of(Dsv4Preset.tiny(), Dsv4Preset.demo())) {
                long peak = Dsv4HeapPlan.peakBytes(Dsv4HeapPlan.of(prog, p), 1);
                System.out.printf("%s %s: ring-1 heap %.2f MiB%n", prog, p.name(), peak / MIB);
                assertThat(peak).isLessThan(256L << 20);
            }
        }
    }

    @Test
    void everyAllocationIsRoundedToTheOutputGranule() {
        for (Dsv4HeapPlan.Alloc a : Dsv4HeapPlan.of(Dsv4Program.CSA, Dsv4Preset.tiny())) {
            assertThat(a.heapBytes() % Dsv4HeapPlan.OUTPUT_ALIGN).isZero();
            assertThat(a.heapBytes()).isBetween(a.bytes(), a.bytes() + Dsv4HeapPlan.OUTPUT_ALIGN - 1);
        }
    }
}
