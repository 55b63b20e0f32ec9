package dev.jpto.lib.registry;

import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Kernels of a registered program that are exempt from the compile-time on-chip memory check, and why. It belongs
 * to the program that needs it ({@link ProgramSpec#memoryExemption()}), so an exemption is written, reviewed and
 * removed with the kernels it covers. A user's program has none unless it declares one; the registry's test
 * ({@code MemoryExemptionTest}) fails when an exempt kernel fits, so exemptions only shrink as kernels are re-tiled.
 *
 * @param kernels the kernel names
 * @param reason  why they do not fit yet (what the device kernel does instead), shown by {@code --memory-map}
 */
public record MemoryExemption(Set<String> kernels, String reason) {
    /** No exemption: every kernel is checked. */
    public static final MemoryExemption NONE = new MemoryExemption(Set.of(), "");

    public MemoryExemption {
        kernels = Set.copyOf(kernels);
        Objects.requireNonNull(reason, "reason");
        if (!kernels.isEmpty() && reason.isBlank()) {
            throw new IllegalArgumentException("a memory exemption for kernels " + new TreeSet<>(kernels)
                    + " needs a reason (what the device kernel does that this one does not yet)");
        }
    }

    /** Exempts {@code kernels} for {@code reason}. */
    public static MemoryExemption of(String reason, Set<String> kernels) {
        return new MemoryExemption(kernels, reason);
    }

    public boolean isEmpty() {
        return kernels.isEmpty();
    }
}
