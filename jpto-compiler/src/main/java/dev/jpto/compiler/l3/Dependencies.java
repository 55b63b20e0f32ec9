package dev.jpto.compiler.l3;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Host-level dependencies, the L3 counterpart of the chip's TensorMap: call {@code j} depends on an earlier call
 * {@code i} when a view of {@code j} overlaps a view of {@code i} and at least one of the two is written.
 */
final class Dependencies {
    private Dependencies() {
    }

    static List<List<Integer>> derive(List<ChipCall> calls) {
        List<List<Integer>> preds = new ArrayList<>();
        for (ChipCall j : calls) {
            TreeSet<Integer> p = new TreeSet<>(j.after());
            for (int i = 0; i < j.index(); i++) {
                if (conflict(calls.get(i), j)) {
                    p.add(i);
                }
            }
            preds.add(List.copyOf(p));
        }
        return List.copyOf(preds);
    }

    private static boolean conflict(ChipCall earlier, ChipCall later) {
        for (HostView w : earlier.writes()) {
            if (touches(w, later.reads()) || touches(w, later.writes())) {
                return true;
            }
        }
        for (HostView r : earlier.reads()) {
            if (touches(r, later.writes())) {
                return true;
            }
        }
        return false;
    }

    private static boolean touches(HostView v, List<HostView> others) {
        for (HostView o : others) {
            if (v.overlaps(o)) {
                return true;
            }
        }
        return false;
    }
}
