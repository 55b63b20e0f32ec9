package dev.jpto.runtime.device;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

/** {@link LineLru} hits and misses exactly as an access-ordered {@code LinkedHashMap} of the same capacity. */
class LineLruTest {
    @Property(tries = 300)
    void hitsAsTheReferenceLru(@ForAll @IntRange(min = 0, max = 40) int capacity,
            @ForAll @Size(max = 2000) List<@LongRange(min = 0, max = 120) Long> keys,
            @ForAll @LongRange(min = -3, max = 3) long spread) {
        Map<Long, Boolean> reference = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
                return size() > capacity;
            }
        };
        LineLru lru = new LineLru(capacity);
        List<Boolean> expected = new ArrayList<>();
        List<Boolean> actual = new ArrayList<>();
        for (long k : keys) {
            long key = k * (spread == 0 ? 1 : spread * 1_000_003L); // clustered and scattered keys, negatives too
            boolean hit = reference.get(key) != null;
            if (!hit) {
                reference.put(key, Boolean.TRUE);
            }
            expected.add(hit);
            actual.add(lru.touch(key));
        }
        assertThat(actual).isEqualTo(expected);
    }

    @org.junit.jupiter.api.Test
    void aHitRenewsALineAndAMissEvictsTheLeastRecentlyUsed() {
        LineLru lru = new LineLru(2);
        assertThat(lru.touch(1)).isFalse();
        assertThat(lru.touch(2)).isFalse();
        assertThat(lru.touch(1)).isTrue(); // 2 is now the least recently used
        assertThat(lru.touch(3)).isFalse(); // evicts 2
        assertThat(lru.touch(1)).isTrue();
        assertThat(lru.touch(2)).isFalse(); // evicts 3
        assertThat(lru.touch(3)).isFalse();
        assertThat(new LineLru(0).touch(5)).isFalse();
    }
}
