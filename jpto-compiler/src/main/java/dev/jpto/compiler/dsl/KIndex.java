package dev.jpto.compiler.dsl;

import dev.jpto.isa.op.Idx;
import java.util.Map;
import java.util.TreeMap;

/**
 * An integer index inside a kernel: a scalar parameter, a loop variable, or an affine combination of them
 * ({@code kt.times(64).plus(8)}). Wherever a kernel op takes an index, an {@code int}/{@code long} works too.
 */
public sealed interface KIndex permits KScalar, KIndex.Expr {
    /** The ISA index this denotes. */
    Idx idx();

    /** The builder whose scalar registers this refers to (null for a constant). */
    KernelBuilder owner();

    default KIndex plus(long c) {
        Idx i = idx();
        return new Expr(owner(), new Idx(Math.addExact(i.constant(), c), i.slots(), i.coeffs()));
    }

    default KIndex plus(KIndex other) {
        return new Expr(KernelBuilder.sameOwner(owner(), other.owner()), combine(idx(), other.idx(), 1));
    }

    default KIndex minus(KIndex other) {
        return new Expr(KernelBuilder.sameOwner(owner(), other.owner()), combine(idx(), other.idx(), -1));
    }

    default KIndex times(long factor) {
        Idx i = idx();
        long[] c = i.coeffs().clone();
        for (int k = 0; k < c.length; k++) {
            c[k] = Math.multiplyExact(c[k], factor);
        }
        return new Expr(owner(), new Idx(Math.multiplyExact(i.constant(), factor), i.slots(), c));
    }

    /** An affine combination, normalised (slots sorted, zero coefficients dropped). */
    record Expr(KernelBuilder owner, Idx idx) implements KIndex {
    }

    private static Idx combine(Idx a, Idx b, long sign) {
        TreeMap<Integer, Long> terms = new TreeMap<>();
        add(terms, a, 1);
        add(terms, b, sign);
        terms.values().removeIf(v -> v == 0);
        int[] slots = new int[terms.size()];
        long[] coeffs = new long[terms.size()];
        int k = 0;
        for (Map.Entry<Integer, Long> e : terms.entrySet()) {
            slots[k] = e.getKey();
            coeffs[k++] = e.getValue();
        }
        return new Idx(Math.addExact(a.constant(), Math.multiplyExact(sign, b.constant())), slots, coeffs);
    }

    private static void add(TreeMap<Integer, Long> terms, Idx i, long sign) {
        int[] s = i.slots();
        long[] c = i.coeffs().clone();
        for (int k = 0; k < s.length; k++) {
            terms.merge(s[k], Math.multiplyExact(sign, c[k]), Math::addExact);
        }
    }
}
