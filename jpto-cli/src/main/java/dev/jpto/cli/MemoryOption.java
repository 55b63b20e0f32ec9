package dev.jpto.cli;

import dev.jpto.lib.runner.MemoryBudget;
import picocli.CommandLine.Option;

/** {@code --max-memory SIZE}: how many bytes of tensors {@code run} and {@code exec} may allocate. */
final class MemoryOption {
    @Option(names = MemoryBudget.FLAG, paramLabel = "SIZE",
            description = "most bytes of tensors the command may allocate, checked before it allocates any, e.g. "
                    + "8GiB (default: " + MemoryBudget.DEFAULT_PERCENT + "%% of physical memory)")
    String maxMemory;

    /** The budget given, or the default. */
    MemoryBudget budget() {
        return maxMemory == null ? MemoryBudget.ofPhysicalMemory() : MemoryBudget.parse(maxMemory);
    }
}
