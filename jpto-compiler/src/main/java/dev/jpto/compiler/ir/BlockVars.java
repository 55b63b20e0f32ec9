package dev.jpto.compiler.ir;

import java.util.Map;

/**
 * The block variables of an SPMD submit ({@link Stmt.Submit#blockNum} blocks): {@code block_idx}, {@code block_num}
 * and the derived {@code block_idx_div_N}, {@code block_idx_mod_N} and {@code block_idx_div_N_mod_M} (block_idx / N,
 * block_idx % N and (block_idx / N) % M), which split a 1-D block index into the coordinates of a grid, as the
 * original's kernels do with {@code get_block_idx()}. They may appear in a submit's index arguments and in the slice starts of its tensor
 * arguments; a tensor argument whose view moves with the block is, for dependency tracking, the bounding box of
 * every block's view (one TensorMap entry per argument, as the original's task).
 */
public final class BlockVars {
    private static final String DIV = Stmt.Submit.BLOCK_IDX + "_div_";
    private static final String MOD = Stmt.Submit.BLOCK_IDX + "_mod_";

    private BlockVars() {
    }

    /** The variable {@code block_idx / n}. */
    public static Affine div(long n) {
        return Affine.var(DIV + positive(n));
    }

    /** The variable {@code block_idx % n}. */
    public static Affine mod(long n) {
        return Affine.var(MOD + positive(n));
    }

    /** The variable {@code (block_idx / d) % n}: the middle coordinate of a 3-D grid. */
    public static Affine divMod(long d, long n) {
        return Affine.var(DIV + positive(d) + "_mod_" + positive(n));
    }

    private static long positive(long n) {
        if (n < 1) {
            throw new IllegalArgumentException("block index divisor must be >= 1, got " + n);
        }
        return n;
    }

    /** Whether {@code var} is a block variable (the sub-block index of a mixed submit's vector lane included). */
    public static boolean is(String var) {
        return var.equals(Stmt.Submit.BLOCK_IDX) || var.equals(Stmt.Submit.BLOCK_NUM)
                || var.equals(Stmt.Submit.SUB_BLOCK_IDX) || parse(var) != null;
    }

    /** Whether {@code a} uses a block variable. */
    public static boolean uses(Affine a) {
        return a.terms().stream().anyMatch(t -> is(t.var()));
    }

    /** Whether a slice start anywhere in {@code e} uses a block variable. */
    public static boolean uses(TensorExpr e) {
        return switch (e) {
            case TensorExpr.Ref r -> false;
            case TensorExpr.Slice s -> s.starts().stream().anyMatch(BlockVars::uses) || uses(s.base());
            case TensorExpr.Reshape r -> uses(r.base());
        };
    }

    /** {@code {divisor, modulus}} of a derived block variable (1 / 0 when absent), or null for any other name. */
    private static long[] parse(String var) {
        String rest;
        long div = 1;
        if (var.startsWith(DIV)) {
            rest = var.substring(DIV.length());
            int m = rest.indexOf("_mod_");
            String digits = m < 0 ? rest : rest.substring(0, m);
            div = number(digits);
            rest = m < 0 ? null : rest.substring(m + "_mod_".length());
        } else if (var.startsWith(MOD)) {
            rest = var.substring(MOD.length());
        } else {
            return null;
        }
        long mod = rest == null ? 0 : number(rest);
        return div < 1 || mod < 0 || (rest != null && mod < 1) ? null : new long[] {div, mod};
    }

    private static long number(String digits) {
        boolean ok = !digits.isEmpty() && digits.length() <= 18 && digits.chars().allMatch(Character::isDigit);
        return ok ? Long.parseLong(digits) : -1;
    }

    /** The value of block variable {@code var} in block {@code idx} of {@code num}, lane {@code sub}. */
    public static long value(String var, long idx, long num, long sub) {
        if (var.equals(Stmt.Submit.SUB_BLOCK_IDX)) {
            return sub;
        }
        if (var.equals(Stmt.Submit.BLOCK_IDX)) {
            return idx;
        }
        if (var.equals(Stmt.Submit.BLOCK_NUM)) {
            return num;
        }
        long[] dm = parse(var);
        if (dm == null) {
            throw new IllegalArgumentException("'" + var + "' is not a block variable");
        }
        long q = idx / dm[0];
        return dm[1] == 0 ? q : q % dm[1];
    }

    /** The smallest and largest value of block variable {@code var} over the blocks of a {@code num}-block task. */
    public static long[] interval(String var, long num) {
        if (var.equals(Stmt.Submit.SUB_BLOCK_IDX)) {
            return new long[] {0, 1};
        }
        long[] dm = parse(var);
        long hi = value(var, num - 1, num, 0);
        if (dm != null && dm[1] > 0) {
            hi = Math.min(dm[1] - 1, (num - 1) / dm[0]);
        }
        return new long[] {value(var, 0, num, 0), hi};
    }

    /** {@code a} in block {@code idx} of {@code num}, vector lane {@code sub}; other variables from {@code vars}. */
    public static long eval(Affine a, Map<String, Long> vars, long idx, long num, long sub) {
        long v = a.constant();
        for (Affine.Term t : a.terms()) {
            long x = is(t.var()) ? value(t.var(), idx, num, sub) : lookup(vars, t.var(), a);
            v = Math.addExact(v, Math.multiplyExact(t.coeff(), x));
        }
        return v;
    }

    /** The smallest and largest value of {@code a} over the blocks of a {@code num}-block task (interval bound). */
    public static long[] range(Affine a, Map<String, Long> vars, long num) {
        long lo = a.constant();
        long hi = a.constant();
        for (Affine.Term t : a.terms()) {
            long[] iv = is(t.var()) ? interval(t.var(), num) : new long[] {lookup(vars, t.var(), a),
                    lookup(vars, t.var(), a)};
            long x = Math.multiplyExact(t.coeff(), iv[0]);
            long y = Math.multiplyExact(t.coeff(), iv[1]);
            lo = Math.addExact(lo, Math.min(x, y));
            hi = Math.addExact(hi, Math.max(x, y));
        }
        return new long[] {lo, hi};
    }

    private static long lookup(Map<String, Long> vars, String var, Affine a) {
        Long x = vars.get(var);
        if (x == null) {
            throw new IllegalStateException("loop variable '" + var + "' is not defined here: " + a);
        }
        return x;
    }
}
