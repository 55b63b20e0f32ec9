package dev.jpto.runtime.dfx;

import dev.jpto.runtime.CoreType;

/** One task execution on a logical core: when (nanoseconds since the run's origin), where, and its counters. */
record ExecInfo(long id, String kernel, int thread, CoreType coreType, int core, long start, long end,
                long flops, long bytesRead, long bytesWritten, long deviceCycles) {
    long wallNanos() {
        return end - start;
    }
}
