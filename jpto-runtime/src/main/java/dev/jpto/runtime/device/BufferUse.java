package dev.jpto.runtime.device;

import java.util.List;
import java.util.stream.Collectors;

/**
 * What one kernel puts in one on-chip buffer: its tiles, and the buffer's capacity on the chip. A resident buffer
 * (UB, L1, L0C) keeps every tile for the whole kernel; a staging buffer (L0A, L0B) holds one matmul's operand at a
 * time, moved in from L1 before that matmul.
 */
public record BufferUse(OnChipBuffer buffer, long capacity, List<TilePlacement> tiles) {
    public BufferUse {
        tiles = List.copyOf(tiles);
    }

    /** Bytes the tiles need: all of them together in a resident buffer, the largest in a staging buffer. */
    public long bytes() {
        return buffer.staging() ? tiles.stream().mapToLong(TilePlacement::bytes).max().orElse(0)
                : tiles.stream().mapToLong(TilePlacement::bytes).sum();
    }

    public boolean fits() {
        return bytes() <= capacity;
    }

    /**
     * {@code UB needs 270336 B, has 196608 B (192 KiB): tiles a fp32[256x256] 262144 B (Kern.java:40), b ...}: each
     * tile with the source line that declares it, where known.
     */
    public String describe() {
        return buffer.text() + " needs " + bytes() + " B" + (buffer.staging() ? " (its largest operand)" : "")
                + ", has " + capacity + " B (" + (capacity >> 10) + " KiB): "
                + "tiles " + tiles.stream().map(TilePlacement::describeWithSite).collect(Collectors.joining(", "));
    }
}
