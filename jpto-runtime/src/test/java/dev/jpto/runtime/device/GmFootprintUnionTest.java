package dev.jpto.runtime.device;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

/** A task's blocks merged at once ({@link GmFootprint#unionAll}) give what folding {@link GmFootprint#union} gives. */
class GmFootprintUnionTest {
    @Property(tries = 200)
    void unionAllIsTheFoldedUnionAndTheSetUnion(
            @ForAll @Size(max = 12) List<@Size(max = 40) List<@LongRange(min = 0, max = 300) Long>> reads,
            @ForAll @IntRange(min = 0, max = 5) int noneEvery) {
        List<GmFootprint> parts = new ArrayList<>();
        TreeSet<Long> readSet = new TreeSet<>();
        TreeSet<Long> writeSet = new TreeSet<>();
        long bytes = 0;
        for (int b = 0; b < reads.size(); b++) {
            if (noneEvery > 0 && b % noneEvery == 0) {
                parts.add(GmFootprint.NONE);
                continue;
            }
            List<Long> r = reads.get(b);
            long[] readLines = r.stream().mapToLong(Long::longValue).distinct().sorted().toArray();
            long[] writtenLines = r.stream().mapToLong(x -> 1000 + x / 2).distinct().sorted().toArray();
            parts.add(new GmFootprint(readLines, writtenLines, 7L * b));
            r.forEach(readSet::add);
            r.forEach(x -> writeSet.add(1000 + x / 2));
            bytes += 7L * b;
        }
        GmFootprint folded = GmFootprint.NONE;
        for (GmFootprint f : parts) {
            folded = GmFootprint.union(folded, f);
        }
        GmFootprint all = GmFootprint.unionAll(parts);

        assertThat(all).isEqualTo(folded);
        if (parts.stream().anyMatch(f -> f != GmFootprint.NONE)) {
            assertThat(all.readLines()).containsExactly(readSet.stream().mapToLong(Long::longValue).toArray());
            assertThat(all.writtenLines()).containsExactly(writeSet.stream().mapToLong(Long::longValue).toArray());
            assertThat(all.trackedReadBytes()).isEqualTo(bytes);
        } else {
            assertThat(all).isSameAs(GmFootprint.NONE);
        }
    }
}
