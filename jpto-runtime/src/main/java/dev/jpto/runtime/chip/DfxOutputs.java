package dev.jpto.runtime.chip;

import dev.jpto.runtime.dfx.DfxRun;
import dev.jpto.runtime.orch.ScopeStats;
import java.io.IOException;
import java.nio.file.Path;

/** The files a chip run's diagnostics (DFX outputs and scope statistics) write under {@code output_prefix}. */
public final class DfxOutputs {
    private DfxOutputs() {
    }

    /** Whether {@code name}, directly under {@code output_prefix}, is one of them (a file or a directory). */
    public static boolean isOutputName(String name) {
        return DfxRun.isOutputName(name) || ScopeStats.isOutputName(name);
    }

    /**
     * Removes them from {@code prefix}, and only them (by name; other files stay, and so does a directory that
     * still holds one), so that a reused directory shows one run's diagnostics, not a mix of several runs'.
     */
    public static void remove(Path prefix) throws IOException {
        DfxRun.removeOutputs(prefix);
        ScopeStats.removeOutput(prefix);
    }
}
