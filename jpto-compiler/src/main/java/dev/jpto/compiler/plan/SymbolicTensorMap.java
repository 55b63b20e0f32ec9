package dev.jpto.compiler.plan;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.LongConsumer;

/**
 * The TensorMap's producer bookkeeping (spec c.1, c.3) over {@link Region}s instead of addresses. Entries never
 * go stale here: the runtime drops an entry once its producer retires, which depends on timing, so keeping it
 * can only add edges — the dep-pool estimate stays an upper bound.
 *
 * <p>Because entries are kept, a long loop writing blocks of one tensor accumulates many; exact entries are
 * indexed by their start in dimension 0 so a lookup visits only those that can reach its rows.
 */
final class SymbolicTensorMap {
    private record Entry(long producer, Region region) {
    }

    /** The writer entries of one buffer. */
    private static final class Writers {
        final TreeMap<Long, List<Entry>> exactByRow = new TreeMap<>();
        final List<Entry> inexact = new ArrayList<>();
        long maxRows;

        void add(Entry e) {
            Region r = e.region();
            if (!r.exact() || r.lo().length == 0) {
                inexact.add(e);
                return;
            }
            exactByRow.computeIfAbsent(r.lo()[0], k -> new ArrayList<>()).add(e);
            maxRows = Math.max(maxRows, r.hi()[0] - r.lo()[0]);
        }
    }

    private final Map<String, Writers> byBuffer = new HashMap<>();

    /**
     * Producers an INPUT ({@code inout == false}) or INOUT lookup of {@code region} waits for; an INOUT lookup
     * retires the entries it covers, as the runtime does.
     */
    void lookup(Region region, boolean inout, LongConsumer producers) {
        Writers w = byBuffer.get(region.buffer());
        if (w == null) {
            return;
        }
        scan(w.inexact, region, inout, producers);
        NavigableMap<Long, List<Entry>> candidates = w.exactByRow;
        if (region.exact() && region.lo().length > 0) {
            // An entry starting at s spans at most maxRows rows: it can reach [lo, hi) only if lo − maxRows < s < hi.
            candidates = w.exactByRow.subMap(region.lo()[0] - w.maxRows, false, region.hi()[0], false);
        }
        for (Iterator<List<Entry>> it = candidates.values().iterator(); it.hasNext(); ) {
            List<Entry> entries = it.next();
            scan(entries, region, inout, producers);
            if (entries.isEmpty()) {
                it.remove();
            }
        }
    }

    private static void scan(List<Entry> entries, Region region, boolean inout, LongConsumer producers) {
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
        byBuffer.computeIfAbsent(region.buffer(), k -> new Writers()).add(new Entry(producer, region));
    }
}
