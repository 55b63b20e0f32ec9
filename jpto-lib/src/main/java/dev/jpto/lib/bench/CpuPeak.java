package dev.jpto.lib.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Single-core FP32 FMA peak: {@code GHz × FMA units × fp32 lanes × 2 flop}. The clock is read from Linux's
 * BogoMIPS (which on x86 is twice the TSC frequency in MHz, i.e. the nominal base clock, not turbo); the lane
 * count is the vector engine's preferred species; the number of FMA units per core is not visible from
 * software and is an explicit assumption (2 for Xeon server cores with AVX-512, e.g. Skylake-SP Gold/Platinum,
 * Ice Lake-SP, Sapphire Rapids).
 */
public record CpuPeak(String model, double ghz, String clockSource, int fmaUnits, int lanes) {

    /** Reads {@code /proc/cpuinfo}; the error says how to pass the clock by hand when it cannot be read. */
    public static CpuPeak detect(int fmaUnits, int lanes) {
        List<String> lines;
        try {
            lines = Files.readAllLines(Path.of("/proc/cpuinfo"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read /proc/cpuinfo to derive the CPU clock (pass --ghz)", e);
        }
        String model = field(lines, "model name");
        String bogo = field(lines, "bogomips");
        if (bogo == null) {
            throw new IllegalStateException("/proc/cpuinfo has no bogomips line to derive the clock from (pass --ghz)");
        }
        double mips = Double.parseDouble(bogo);
        return new CpuPeak(model == null ? "unknown CPU" : model, mips / 2000.0,
                String.format(Locale.ROOT, "BogoMIPS %.2f / 2", mips), fmaUnits, lanes);
    }

    /** A peak from a clock given by hand. */
    public static CpuPeak of(double ghz, int fmaUnits, int lanes) {
        return new CpuPeak("(clock given)", ghz, "--ghz", fmaUnits, lanes);
    }

    private static String field(List<String> lines, String name) {
        for (String l : lines) {
            int colon = l.indexOf(':');
            if (colon > 0 && l.substring(0, colon).trim().equalsIgnoreCase(name)) {
                return l.substring(colon + 1).trim();
            }
        }
        return null;
    }

    public double gflops() {
        return ghz * fmaUnits * lanes * 2;
    }

    /** "166.4 GFLOP/s = 2.60 GHz (BogoMIPS 5199.99 / 2) × 2 FMA units × 16 fp32 lanes × 2 flop". */
    public String derivation() {
        return String.format(Locale.ROOT, "%.1f GFLOP/s = %.2f GHz (%s) x %d FMA units (assumed) x %d fp32 lanes x 2 flop",
                gflops(), ghz, clockSource, fmaUnits, lanes);
    }
}
