package dev.jpto.runtime.device;

import java.util.Arrays;
import java.util.List;

/**
 * The GM lines one task touched, for the L2 model ({@link L2Cache}): the distinct lines its loads read and its
 * stores wrote (sorted line keys: the storage's address plus the byte offset in it ÷ {@link #LINE_BYTES}, so the
 * keys depend only on which storage and where, not on how the host aligned it), and the bytes those tracked loads
 * moved. Loads whose addresses come from data (load_rows) are not tracked: their bytes always count as HBM reads.
 */
public record GmFootprint(long[] readLines, long[] writtenLines, long trackedReadBytes) {
    /** The line the L2 model caches (**assumption**, see docs/device-model.md). */
    public static final int LINE_BYTES = 512;
    private static final int LINE_SHIFT = Integer.numberOfTrailingZeros(LINE_BYTES);
    /** Nothing tracked: every byte of the task is an HBM byte. */
    public static final GmFootprint NONE = new GmFootprint(new long[0], new long[0], 0);

    /** Equal lines and bytes (records compare arrays by identity otherwise). */
    @Override
    public boolean equals(Object o) {
        return o instanceof GmFootprint f && trackedReadBytes == f.trackedReadBytes
                && Arrays.equals(readLines, f.readLines) && Arrays.equals(writtenLines, f.writtenLines);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Arrays.hashCode(readLines) + Arrays.hashCode(writtenLines)) + Long.hashCode(trackedReadBytes);
    }

    @Override
    public String toString() {
        return "GmFootprint[" + readLines.length + " lines read, " + writtenLines.length + " written, "
                + trackedReadBytes + " B tracked]";
    }

    /** The footprint of two blocks of one task: the union of their lines, the sum of their tracked bytes. */
    public static GmFootprint union(GmFootprint a, GmFootprint b) {
        return unionAll(List.of(a, b));
    }

    /**
     * The footprint of all {@code parts} (a task's blocks): their lines concatenated and sorted once, their tracked
     * bytes summed; a lone part (or none: {@link #NONE}) is returned as it is. Folding a task's blocks one pair at a
     * time re-sorted the growing set per block, quadratic in the blocks of an SPMD task (23 % of
     * {@code dsv4.prefill_mtp}'s warm samples at pro).
     */
    public static GmFootprint unionAll(List<GmFootprint> parts) {
        int reads = 0;
        int writes = 0;
        long bytes = 0;
        GmFootprint only = NONE;
        int nonEmpty = 0;
        for (GmFootprint f : parts) {
            if (f != NONE) {
                reads += f.readLines.length;
                writes += f.writtenLines.length;
                bytes += f.trackedReadBytes;
                only = f;
                nonEmpty++;
            }
        }
        if (nonEmpty <= 1) {
            return only;
        }
        long[] r = new long[reads];
        long[] w = new long[writes];
        reads = 0;
        writes = 0;
        for (GmFootprint f : parts) {
            System.arraycopy(f.readLines, 0, r, reads, f.readLines.length);
            System.arraycopy(f.writtenLines, 0, w, writes, f.writtenLines.length);
            reads += f.readLines.length;
            writes += f.writtenLines.length;
        }
        return new GmFootprint(Lines.sortedDistinct(r, reads), Lines.sortedDistinct(w, writes), bytes);
    }

    /** A growable list of line keys, sorted and deduplicated when done. */
    static final class Lines {
        private long[] keys = new long[64];
        private int size;

        /** Adds the lines of {@code bytes} bytes at {@code offset} of the storage at {@code base}. */
        void addRange(long base, long offset, long bytes) {
            if (bytes <= 0) {
                return;
            }
            for (long line = offset >> LINE_SHIFT, last = (offset + bytes - 1) >> LINE_SHIFT; line <= last; line++) {
                long key = base + line;
                if (size > 0 && keys[size - 1] == key) {
                    continue; // the next row's segment in the same line: common, and cheap to drop here
                }
                if (size == keys.length) {
                    keys = Arrays.copyOf(keys, 2 * size);
                }
                keys[size++] = key;
            }
        }

        long[] done() {
            long[] out = sortedDistinct(keys, size);
            size = 0;
            return out;
        }

        void clear() {
            size = 0;
        }

        static long[] sortedDistinct(long[] keys, int n) {
            long[] s = Arrays.copyOf(keys, n);
            boolean sorted = true; // a streaming kernel adds its lines in order: no sort needed
            for (int i = 1; i < n && sorted; i++) {
                sorted = s[i - 1] <= s[i];
            }
            if (!sorted) {
                Arrays.sort(s);
            }
            int k = 0;
            for (int i = 0; i < n; i++) {
                if (k == 0 || s[i] != s[k - 1]) {
                    s[k++] = s[i];
                }
            }
            return Arrays.copyOf(s, k);
        }
    }
}
