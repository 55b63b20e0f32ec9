package dev.jpto.isa.engine.simd;

/**
 * A thread's heap copies of raw (not yet widened, or already narrowed) elements, so that the vector conversions
 * work on arrays only and the segment side is one bulk copy (see {@link Widen}). Grown, never shrunk.
 */
final class RawBuffers {
    private static final ThreadLocal<RawBuffers> CURRENT = ThreadLocal.withInitial(RawBuffers::new);

    private short[] shorts = new short[0];
    private byte[] bytes = new byte[0];

    private RawBuffers() {
    }

    /** At least {@code n} shorts of this thread's buffer. */
    static short[] shorts(int n) {
        RawBuffers b = CURRENT.get();
        if (b.shorts.length < n) {
            b.shorts = new short[n];
        }
        return b.shorts;
    }

    /** At least {@code n} bytes of this thread's buffer. */
    static byte[] bytes(int n) {
        RawBuffers b = CURRENT.get();
        if (b.bytes.length < n) {
            b.bytes = new byte[n];
        }
        return b.bytes;
    }
}
