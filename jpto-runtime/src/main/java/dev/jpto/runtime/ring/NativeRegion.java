package dev.jpto.runtime.ring;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One contiguous heap-ring region reserved with an anonymous {@code mmap(MAP_NORESERVE)}: the kernel commits
 * pages on first touch, so a 1 GiB ring costs only the pages a program writes. Unmapped by {@link #close()};
 * segments handed out become inaccessible then (a shared arena guards them), never dangling.
 */
@SuppressWarnings("restricted") // mmap/munmap downcalls: the launcher enables native access for this module
public final class NativeRegion implements AutoCloseable {
    private static final int PROT_READ = 1;
    private static final int PROT_WRITE = 2;
    private static final int MAP_PRIVATE = 2;
    private static final boolean MAC = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("mac");
    private static final int MAP_ANONYMOUS = MAC ? 0x1000 : 0x20;
    private static final int MAP_NORESERVE = MAC ? 0x40 : 0x4000;

    /** Linux {@code madvise} advice: back the range with transparent huge pages where the kernel allows. */
    private static final int MADV_HUGEPAGE = 14;

    private static final MethodHandle MMAP;
    private static final MethodHandle MUNMAP;
    private static final MethodHandle MADVISE;

    static {
        Linker linker = Linker.nativeLinker();
        MMAP = linker.downcallHandle(linker.defaultLookup().find("mmap").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
                        ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG));
        MUNMAP = linker.downcallHandle(linker.defaultLookup().find("munmap").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
        MADVISE = linker.downcallHandle(linker.defaultLookup().find("madvise").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
                        ValueLayout.JAVA_INT));
    }

    /** Regions mapped and not yet unmapped, process-wide (a leak check's measure). */
    private static final AtomicLong MAPPED = new AtomicLong();
    private static final AtomicLong MAPPED_BYTES = new AtomicLong();

    private final Arena arena;
    private final MemorySegment segment;
    private final long size;

    private NativeRegion(Arena arena, MemorySegment segment, long size) {
        this.arena = arena;
        this.segment = segment;
        this.size = size;
    }

    /** Reserves {@code size} bytes of address space; pages are committed lazily by the kernel. */
    public static NativeRegion reserve(long size, String what) {
        long addr = map(size, MAP_NORESERVE, what);
        if (addr == -1L || addr == 0L) {
            throw new IllegalStateException("mmap of " + size + " bytes for " + what + " failed (MAP_FAILED): "
                    + "the address space is exhausted; use a smaller ring_heap");
        }
        return region(addr, size);
    }

    /**
     * Maps {@code size} bytes of memory, committed as any allocation is (no {@code MAP_NORESERVE}) but zero-filled
     * by the kernel at first touch, by whichever thread touches it, in transparent huge pages where the host allows
     * them (Linux {@code madvise}; elsewhere, or with THP off, in normal pages). A 4 KiB page fault cost ~2.7 µs on
     * the 2-vCPU KVM guest this was measured on: {@code Arena.allocate} took 2.8 s to zero 1 GiB (jpto-bench).
     *
     * @throws OutOfMemoryError when the host refuses the mapping
     */
    public static NativeRegion allocate(long size, String what) {
        long addr = map(size, 0, what);
        if (addr == -1L || addr == 0L) {
            throw new OutOfMemoryError("Unable to allocate " + size + " bytes (anonymous mapping for " + what + ")");
        }
        if (!MAC) {
            adviseHugePages(addr, size);
        }
        return region(addr, size);
    }

    /** Only advice: a kernel without THP refuses it, and the mapping then works in normal pages. */
    private static void adviseHugePages(long addr, long size) {
        try {
            int ignored = (int) MADVISE.invokeExact(MemorySegment.ofAddress(addr), size, MADV_HUGEPAGE);
        } catch (Throwable t) {
            throw new IllegalStateException("madvise(MADV_HUGEPAGE) failed", t);
        }
    }

    private static long map(long size, int flags, String what) {
        try {
            MemorySegment p = (MemorySegment) MMAP.invokeExact(MemorySegment.NULL, size, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0L);
            return p.address();
        } catch (Throwable t) {
            throw new IllegalStateException("mmap of " + size + " bytes for " + what + " failed", t);
        }
    }

    private static NativeRegion region(long addr, long size) {
        MAPPED.incrementAndGet();
        MAPPED_BYTES.addAndGet(size);
        Arena arena = Arena.ofShared();
        long base = addr;
        MemorySegment seg = MemorySegment.ofAddress(base).reinterpret(size, arena, s -> unmap(base, size));
        return new NativeRegion(arena, seg, size);
    }

    private static void unmap(long addr, long size) {
        try {
            int rc = (int) MUNMAP.invokeExact(MemorySegment.ofAddress(addr), size);
            if (rc != 0) {
                throw new IllegalStateException("munmap(" + Long.toHexString(addr) + ", " + size + ") failed");
            }
            MAPPED.decrementAndGet();
            MAPPED_BYTES.addAndGet(-size);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    public static long mappedRegions() {
        return MAPPED.get();
    }

    public static long mappedBytes() {
        return MAPPED_BYTES.get();
    }

    public MemorySegment segment() {
        return segment;
    }

    public long size() {
        return size;
    }

    public boolean contains(long address) {
        long base = segment.address();
        return address >= base && address - base < size;
    }

    @Override
    public void close() {
        arena.close();
    }
}
