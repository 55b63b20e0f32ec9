package dev.jpto.compiler.l3;

import java.util.Arrays;
import java.util.Objects;

/**
 * A box of a host tensor: {@code starts[d] .. starts[d]+extents[d]} in every dimension; the dimensions marked
 * {@code dropped} (extent 1) are not part of the shape the chip program sees. Made by {@link HostTensor#slice},
 * {@link HostTensor#rows}, {@link HostTensor#cols} and {@link HostTensor#at}.
 */
public record HostSlice(HostTensor tensor, long[] starts, long[] extents, boolean[] dropped) implements HostView {
    public HostSlice {
        Objects.requireNonNull(tensor, "tensor");
        starts = starts.clone();
        extents = extents.clone();
        dropped = dropped.clone();
        long[] shape = tensor.shape();
        if (starts.length != shape.length || extents.length != shape.length || dropped.length != shape.length) {
            throw new IllegalArgumentException("a slice of host tensor " + tensor + " needs " + shape.length
                    + " starts and extents, got starts=" + Arrays.toString(starts) + " extents="
                    + Arrays.toString(extents));
        }
        for (int d = 0; d < shape.length; d++) {
            // extents[d] > shape[d] - starts[d], not starts[d] + extents[d] > shape[d]: the sum may overflow
            if (starts[d] < 0 || extents[d] < 1 || extents[d] > shape[d] - starts[d]) {
                throw new IllegalArgumentException("slice [" + starts[d] + ", " + (starts[d] + extents[d])
                        + ") is outside dimension " + d + " of host tensor " + tensor + " (need 0 <= start, "
                        + "1 <= extent, start + extent <= " + shape[d] + ")");
            }
            if (dropped[d] && extents[d] != 1) {
                throw new IllegalArgumentException("only a dimension of extent 1 can be dropped: dimension " + d
                        + " of a slice of " + tensor + " has extent " + extents[d]);
            }
        }
    }

    @Override
    public long[] starts() {
        return starts.clone();
    }

    @Override
    public long[] extents() {
        return extents.clone();
    }

    @Override
    public boolean dropped(int d) {
        return dropped[d];
    }

    @Override
    public boolean[] dropped() {
        return dropped.clone();
    }

    @Override
    public long[] shape() {
        return Arrays.stream(range()).filter(d -> !dropped[d]).mapToLong(d -> extents[d]).toArray();
    }

    private int[] range() {
        int[] r = new int[extents.length];
        Arrays.setAll(r, i -> i);
        return r;
    }

    @Override
    public String text() {
        StringBuilder sb = new StringBuilder(tensor.name()).append('[');
        for (int d = 0; d < starts.length; d++) {
            sb.append(d == 0 ? "" : ", ");
            if (dropped[d]) {
                sb.append(starts[d]);
            } else {
                sb.append(starts[d]).append(':').append(starts[d] + extents[d]);
            }
        }
        return sb.append(']').toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HostSlice s && tensor.equals(s.tensor) && Arrays.equals(starts, s.starts)
                && Arrays.equals(extents, s.extents) && Arrays.equals(dropped, s.dropped);
    }

    @Override
    public int hashCode() {
        return Objects.hash(tensor, Arrays.hashCode(starts), Arrays.hashCode(extents), Arrays.hashCode(dropped));
    }

    @Override
    public String toString() {
        return text();
    }
}
