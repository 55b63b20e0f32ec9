package dev.jpto.runtime.dfx;

/** The orchestrator blocked on a full {@code resource} of {@code ring} (nanoseconds since the run's origin). */
record WaitInfo(int ring, int resource, long start, long end) {
    String resourceName() {
        return switch (resource) {
            case TaskEvents.RES_TASK_WINDOW -> "task_window";
            case TaskEvents.RES_HEAP -> "heap";
            case TaskEvents.RES_DEP_POOL -> "dep_pool";
            case TaskEvents.RES_FANIN_POOL -> "fanin_pool";
            default -> "tensormap";
        };
    }
}
