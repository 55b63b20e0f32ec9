package dev.jpto.runtime.chip;

import dev.jpto.runtime.ring.NativeRegion;
import java.lang.foreign.MemorySegment;

/**
 * Host address space that costs nothing until touched (the heap ring's anonymous {@code mmap(MAP_NORESERVE)}):
 * for tensors a run binds but never reads or writes, such as a dry run's arguments, so that a program with GiB
 * of inputs can be orchestrated without committing them. Unmapped on {@link #close()}.
 */
public final class ReservedMemory implements AutoCloseable {
    private final NativeRegion region;

    private ReservedMemory(NativeRegion region) {
        this.region = region;
    }

    /** Reserves {@code bytes} (at least 1) of zero-filled, lazily committed memory. */
    public static ReservedMemory reserve(long bytes, String what) {
        return new ReservedMemory(NativeRegion.reserve(Math.max(1, bytes), what));
    }

    /** The whole region; slices of it are valid until {@link #close()}. */
    public MemorySegment segment() {
        return region.segment();
    }

    @Override
    public void close() {
        region.close();
    }
}
