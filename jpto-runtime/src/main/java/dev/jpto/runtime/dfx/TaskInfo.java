package dev.jpto.runtime.dfx;

import dev.jpto.runtime.CoreType;
import java.util.List;

/** A submitted task as the orchestrator saw it (dependency graph, swimlane slice arguments). */
record TaskInfo(long id, String kernel, CoreType coreType, int scopeDepth, List<ArgInfo> args) {
    int ring() {
        return (int) (id >>> 32);
    }

    long local() {
        return id & 0xFFFF_FFFFL;
    }

    static String hex(long id) {
        return String.format("0x%016x", id);
    }
}
