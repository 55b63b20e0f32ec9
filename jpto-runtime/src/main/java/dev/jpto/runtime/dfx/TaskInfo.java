package dev.jpto.runtime.dfx;

import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.ScopeKind;
import java.util.List;

/**
 * A submitted task as the orchestrator saw it (dependency graph, swimlane slice arguments).
 *
 * @param syncStart  whether all blocks must start together ({@code require_sync_start})
 * @param activeMask the lanes of a mixed task (bit 0 AIC, 1 AIV0, 2 AIV1), 0 for a single-kernel task
 */
record TaskInfo(long id, String kernel, CoreType coreType, int scopeDepth, ScopeKind scope, int blockNum,
                boolean syncStart, int activeMask, List<ArgInfo> args) {
    int ring() {
        return (int) (id >>> 32);
    }

    long local() {
        return id & 0xFFFF_FFFFL;
    }

    private static final char[] DIGITS = "0123456789abcdef".toCharArray();

    /** {@code 0x%016x} without the formatter (called once or more per task by every writer). */
    static String hex(long id) {
        char[] c = new char[18];
        c[0] = '0';
        c[1] = 'x';
        for (int i = 17; i >= 2; i--) {
            c[i] = DIGITS[(int) (id & 15)];
            id >>>= 4;
        }
        return new String(c);
    }

    /** Whether {@code s} is an id as {@link #hex} writes it. */
    static boolean isHex(String s) {
        return s.length() == 18 && s.startsWith("0x") && s.substring(2).chars().allMatch(ch -> ch >= '0' && ch <= '9'
                || ch >= 'a' && ch <= 'f');
    }
}
