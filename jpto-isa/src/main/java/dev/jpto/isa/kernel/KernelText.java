package dev.jpto.isa.kernel;

/** TEMPORARY shim (compiler branch) until isa-scalar's KernelText is merged; the merge replaces this file. */
public final class KernelText {
    private KernelText() {
    }

    public static String print(Kernel kernel) {
        throw new UnsupportedOperationException("KernelText not merged yet (shim in the compiler branch)");
    }

    public static Kernel parse(String text) {
        throw new UnsupportedOperationException("KernelText not merged yet (shim in the compiler branch)");
    }
}
