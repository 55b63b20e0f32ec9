package dev.jpto.compiler.plan;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * The TensorMap's producer bookkeeping (spec c.1, c.3) over {@link Region}s instead of addresses. Entries never
 * go stale here: the runtime drops an entry once its producer retires, which depends on timing, so keeping it
 * can only add edges — the dep-pool estimate stays an upper bound.
 */
final class SymbolicTensorMap {
    private record Entry(long producer, Region region) {
    }

    private final Map<String, List<Entry>> byBuffer = new HashMap<>();

    /**
     * Producers an INPUT ({@code inout == false}) or INOUT lookup of {@code region} waits for; an INOUT lookup
     * retires the entries it covers, as the runtime does.
     */
    void lookup(Region region, boolean inout, LongConsumer producers) {
        List<Entry> entries = byBuffer.get(region.buffer());
        if (entries == null) {
            return;
        }
        for (Iterator<Entry> it = entries.iterator(); it.hasNext(); ) {
            Entry e = it.next();
            if (region.overlaps(e.region())) {
                producers.accept(e.producer());
                if (inout && region.covers(e.region())) {
                    it.remove();
                }
            }
        }
    }

    /** Registers {@code producer} as the latest writer of {@code region} (INOUT and OUTPUT_EXISTING). */
    void insert(Region region, long producer) {
        byBuffer.computeIfAbsent(region.buffer(), k -> new ArrayList<>()).add(new Entry(producer, region));
    }
}
