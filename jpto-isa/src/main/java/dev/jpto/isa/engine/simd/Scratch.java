package dev.jpto.isa.engine.simd;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** A reusable native scratch buffer that grows (by doubling) and never shrinks: no allocation once warm. */
public final class Scratch {
    private MemorySegment segment = MemorySegment.NULL;

    /** A 64-byte-aligned segment of at least {@code bytes} bytes; contents are unspecified. */
    public MemorySegment atLeast(long bytes) {
        if (segment.byteSize() < bytes) {
            segment = allocate(Math.max(bytes, 2 * segment.byteSize()));
        }
        return segment;
    }

    static MemorySegment allocate(long bytes) {
        return Arena.ofAuto().allocate(Math.max(bytes, 64), 64);
    }
}
