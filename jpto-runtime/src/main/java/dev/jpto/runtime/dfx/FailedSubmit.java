package dev.jpto.runtime.dfx;

import dev.jpto.runtime.ErrorCode;

/** A submit of {@code kernel} that failed with {@code error} (nanoseconds since the run's origin). */
record FailedSubmit(String kernel, long start, long end, ErrorCode error) {
}
