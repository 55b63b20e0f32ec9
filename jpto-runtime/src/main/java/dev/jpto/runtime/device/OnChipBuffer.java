package dev.jpto.runtime.device;

import dev.jpto.runtime.CoreType;
import java.util.Locale;

/**
 * The on-chip buffers a kernel's tiles live in: the unified buffer of a vector core, and the L1 and the cube's
 * operand buffers (L0A for the left matrix, L0B for the right, L0C for the accumulator) of a cube core.
 */
public enum OnChipBuffer {
    UB(CoreType.AIV), L1(CoreType.AIC), L0A(CoreType.AIC), L0B(CoreType.AIC), L0C(CoreType.AIC);

    private final CoreType core;

    OnChipBuffer(CoreType core) {
        this.core = core;
    }

    /** The core type that has this buffer. */
    public CoreType core() {
        return core;
    }

    /** Whether the buffer holds one matmul operand at a time (L0A, L0B) rather than all its tiles at once. */
    public boolean staging() {
        return this == L0A || this == L0B;
    }

    /** Bytes this buffer holds on the chip of {@code spec}. */
    public long capacity(HardwareSpec spec) {
        HardwareSpec.Buffers b = spec.buffers();
        return switch (this) {
            case UB -> b.ub();
            case L1 -> b.l1();
            case L0A -> b.l0a();
            case L0B -> b.l0b();
            case L0C -> b.l0c();
        };
    }

    /** The name as printed: {@code UB}, {@code L1}, {@code L0A}, ... */
    public String text() {
        return name().toUpperCase(Locale.ROOT);
    }
}
