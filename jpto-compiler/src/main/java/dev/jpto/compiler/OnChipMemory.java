package dev.jpto.compiler;

import dev.jpto.compiler.ir.Program;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.device.BufferUse;
import dev.jpto.runtime.device.HardwareSpec;
import dev.jpto.runtime.device.KernelPlacement;
import dev.jpto.runtime.device.TilePlacement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The compile-time check that each kernel's tiles fit its core's on-chip buffers on a platform
 * ({@link KernelPlacement}), and the placement {@code jpto compile --memory-map} prints.
 */
public final class OnChipMemory {
    private OnChipMemory() {
    }

    /** Each kernel of {@code program} placed in the buffers of {@code platform}'s cores, in declaration order. */
    public static List<KernelPlacement> place(Program program, Platform platform) {
        HardwareSpec spec = HardwareSpec.of(platform);
        return program.kernels().stream().map(k -> KernelPlacement.of(k, spec)).toList();
    }

    /**
     * Fails when a kernel of {@code program}, other than those named in {@code exempt}, does not fit its core's
     * buffers on {@code platform}: one line per overflowing buffer, with the bytes needed and available and the
     * tiles that use them.
     *
     * @throws OnChipMemoryException naming every kernel that does not fit
     */
    public static void check(Program program, Platform platform, Set<String> exempt) {
        List<String> findings = new ArrayList<>();
        for (KernelPlacement p : place(program, platform)) {
            if (exempt.contains(p.kernel())) {
                continue;
            }
            for (BufferUse b : p.overflows()) {
                findings.add("kernel " + p.kernel() + " (" + p.core().name().toLowerCase(Locale.ROOT)
                        + "): " + b.describe());
            }
        }
        if (!findings.isEmpty()) {
            throw new OnChipMemoryException("program " + program.name() + " does not fit the on-chip buffers of "
                    + platform.text() + " (" + findings.size() + " finding(s)); use smaller tiles, or loop over a "
                    + "smaller tile, as a device kernel does:\n  " + String.join("\n  ", findings));
        }
    }

    /**
     * The placement as {@code jpto compile --memory-map} prints it: per kernel and buffer, the bytes used of the
     * capacity and the tiles, with {@code DOES NOT FIT} where they overflow.
     */
    public static String map(List<KernelPlacement> placements, Platform platform) {
        StringBuilder sb = new StringBuilder("[MEM] on-chip buffers on " + platform.text() + " ("
                + HardwareSpec.of(platform).chipClass() + "); L0A/L0B hold one matmul operand at a time\n");
        for (KernelPlacement p : placements) {
            sb.append("[MEM] kernel ").append(p.kernel()).append(" (")
                    .append(p.core().name().toLowerCase(Locale.ROOT)).append(")\n");
            for (BufferUse b : p.buffers()) {
                sb.append(String.format(Locale.ROOT, "[MEM]   %-3s %9d / %7d B %4.0f%%%s  %s%n", b.buffer().text(),
                        b.bytes(), b.capacity(), 100.0 * b.bytes() / b.capacity(), b.fits() ? "" : " DOES NOT FIT",
                        b.tiles().stream().map(TilePlacement::describe).collect(Collectors.joining(", "))));
            }
        }
        return sb.toString();
    }
}
