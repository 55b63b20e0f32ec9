package dev.jpto.tools.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Nominal single-core FP32 FMA peak: {@code GHz × FMA units × fp32 lanes × 2 flop}. The clock is read from
 * Linux's BogoMIPS (which on x86 is twice the TSC frequency in MHz, i.e. the nominal base clock, not turbo) or
 * given by hand; the lane count is the vector engine's preferred species; the number of FMA units per core is
 * not visible from software and is an explicit assumption (2 for AVX-512 server cores, e.g. Sapphire Rapids,
 * Zen 4/5). Under turbo the core runs faster than the base clock, so this is no ceiling: {@link FmaProbe}
 * measures the real one, and the benchmark's headline uses that.
 */
public record CpuPeak(String model, double ghz, String clockSource, int fmaUnits, int lanes) {
    public CpuPeak {
        if (!(ghz > 0) || Double.isInfinite(ghz)) {
            throw new IllegalArgumentException("--ghz must be a positive clock in GHz: ghz=" + ghz + " (try 3.0)");
        }
        if (fmaUnits < 1) {
            throw new IllegalArgumentException("--fma-units must be >= 1: fma-units=" + fmaUnits + " (try 2)");
        }
        if (lanes < 1) {
            throw new IllegalArgumentException("lanes must be >= 1: lanes=" + lanes);
        }
    }

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
        double mips;
        try {
            mips = Double.parseDouble(bogo);
        } catch (NumberFormatException e) {
            throw new IllegalStateException("/proc/cpuinfo's bogomips '" + bogo + "' is not a number (pass --ghz)");
        }
        if (!(mips > 0)) {
            throw new IllegalStateException("/proc/cpuinfo's bogomips " + bogo + " gives no clock (pass --ghz)");
        }
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
