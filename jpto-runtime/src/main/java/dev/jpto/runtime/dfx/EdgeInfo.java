package dev.jpto.runtime.dfx;

import dev.jpto.runtime.ring.Ring;
import dev.jpto.runtime.tensormap.Overlap;
import java.util.ArrayList;
import java.util.List;

/** A dependency found at submit: {@code succ} waits for {@code pred} because of argument {@code arg}. */
record EdgeInfo(long pred, long succ, int arg, int source, long flags, int overlap, long tensorId) {

    String sourceName() {
        return switch (source) {
            case TaskEvents.SOURCE_CREATOR -> "creator";
            case TaskEvents.SOURCE_EXPLICIT -> "explicit";
            default -> "tensormap";
        };
    }

    List<String> flagNames() {
        List<String> f = new ArrayList<>(2);
        if ((flags & Ring.EDGE_WAIT) != 0) {
            f.add("wait");
        }
        if ((flags & Ring.EDGE_RETAIN) != 0) {
            f.add("retain");
        }
        return f;
    }

    /** {@code covered} (the new view contains the writer's), {@code partial}, or null for creator edges. */
    String overlapName() {
        return switch (overlap) {
            case Overlap.COVERED -> "covered";
            case Overlap.OTHER -> "partial";
            default -> null;
        };
    }
}
