package dev.jpto.runtime.device;

import dev.jpto.runtime.CoreType;

/**
 * Where and when one block of a task ran in the replay (picoseconds of device time since the first submit):
 * the task was submitted at {@code submittedPs} and ready (submitted, producers complete) at {@code readyPs}; the
 * scheduler took {@code core} at {@code dispatchPs} and the kernel ran from {@code startPs} to {@code endPs}.
 */
public record BlockRun(long taskId, String kernel, int block, CoreType coreType, int core, long submittedPs,
                       long readyPs, long dispatchPs, long startPs, long endPs) {
}
