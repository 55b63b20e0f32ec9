package dev.jpto.compiler.l3;

import dev.jpto.isa.DType;
import java.util.Arrays;

/**
 * What a chip-program parameter is bound to: a whole host tensor ({@link HostTensor}) or a box of one
 * ({@link HostSlice}). The box ({@link #starts}, {@link #extents}) is what host-level dependencies compare; the
 * {@link #shape} is what the chip program sees (the extents without the dimensions {@link HostTensor#at} dropped).
 */
public sealed interface HostView permits HostTensor, HostSlice {
    /** The host tensor this view is part of. */
    HostTensor tensor();

    /** First index of the box in every dimension of {@link #tensor()}. */
    long[] starts();

    /** Extent of the box in every dimension of {@link #tensor()}. */
    long[] extents();

    /** The shape the chip program sees. */
    long[] shape();

    /** Whether dimension {@code d} of the tensor is left out of {@link #shape} (a dimension {@link #at} picked). */
    boolean dropped(int d);

    /**
     * The box {@code starts[i] .. starts[i]+extents[i]} of this view, in this view's own dimensions ({@link #shape}).
     */
    default HostSlice slice(long[] starts, long[] extents) {
        long[] shape = shape();
        if (starts.length != shape.length || extents.length != shape.length) {
            throw new IllegalArgumentException("a slice of " + text() + " (shape " + Arrays.toString(shape)
                    + ") needs " + shape.length + " starts and extents, got starts="
                    + Arrays.toString(starts) + " extents=" + Arrays.toString(extents));
        }
        long[] s = starts();
        long[] e = extents();
        boolean[] dropped = new boolean[s.length];
        int k = 0;
        for (int d = 0; d < s.length; d++) {
            dropped[d] = dropped(d);
            if (dropped[d]) {
                continue;
            }
            if (starts[k] < 0 || extents[k] < 1 || starts[k] + extents[k] > shape[k]) {
                throw new IllegalArgumentException("slice [" + starts[k] + ", " + (starts[k] + extents[k])
                        + ") is outside dimension " + k + " of " + text() + " (shape "
                        + Arrays.toString(shape) + ")");
            }
            s[d] += starts[k];
            e[d] = extents[k];
            k++;
        }
        return new HostSlice(tensor(), s, e, dropped);
    }

    /** Rows {@code start .. start+count} (dimension 0 of this view), all of the other dimensions. */
    default HostSlice rows(long start, long count) {
        long[] s = new long[shape().length];
        long[] e = shape();
        s[0] = start;
        e[0] = count;
        return slice(s, e);
    }

    /** Columns {@code start .. start+count} (dimension 1) of a matrix view, all rows. */
    default HostSlice cols(long start, long count) {
        long[] shape = shape();
        if (shape.length != 2) {
            throw new IllegalArgumentException("cols() needs a matrix; " + text() + " has shape "
                    + Arrays.toString(shape) + " (use slice)");
        }
        return slice(new long[] {0, start}, new long[] {shape[0], count});
    }

    /**
     * Index {@code i} of this view's dimension 0, that dimension dropped: {@code t.at(1)} of a {@code [2, M, N]}
     * tensor is an {@code [M, N]} view.
     */
    default HostSlice at(long i) {
        long[] shape = shape();
        if (shape.length < 2) {
            throw new IllegalArgumentException("at() drops a dimension and needs rank >= 2; " + text() + " has shape "
                    + Arrays.toString(shape) + " (use rows(i, 1))");
        }
        long[] e = shape.clone();
        long[] st = new long[shape.length];
        st[0] = i;
        e[0] = 1;
        HostSlice box = slice(st, e);
        boolean[] dropped = box.dropped();
        for (int d = 0; d < dropped.length; d++) {
            if (!dropped[d]) {
                dropped[d] = true; // the first dimension still in this view's shape
                break;
            }
        }
        return new HostSlice(tensor(), box.starts(), box.extents(), dropped);
    }

    default DType dtype() {
        return tensor().dtype();
    }

    /** Whether the boxes of two views share an element (same tensor, overlapping in every dimension). */
    default boolean overlaps(HostView other) {
        if (!tensor().name().equals(other.tensor().name())) {
            return false;
        }
        long[] s1 = starts();
        long[] e1 = extents();
        long[] s2 = other.starts();
        long[] e2 = other.extents();
        for (int d = 0; d < s1.length; d++) {
            if (e1[d] == 0 || e2[d] == 0 || s1[d] + e1[d] <= s2[d] || s2[d] + e2[d] <= s1[d]) {
                return false;
            }
        }
        return true;
    }

    /** "a[0:64, 128:256]", or the tensor's name for a whole tensor. */
    String text();
}
