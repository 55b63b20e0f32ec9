package dev.jpto.compiler.plan;

/**
 * The part of one buffer a task argument names, as a box in the buffer's own coordinates. A view the planner
 * cannot place exactly (a reshape, or a slice of one) is {@code exact == false} and counts as the whole buffer:
 * it overlaps everything on that buffer and covers nothing, which errs towards more dependency edges.
 *
 * @param buffer one allocation: a program tensor by name, or one instance of an intermediate
 */
record Region(String buffer, long[] lo, long[] hi, boolean exact) {
    static Region whole(String buffer, long[] shape) {
        return new Region(buffer, new long[shape.length], shape.clone(), true);
    }

    static Region inexact(String buffer) {
        return new Region(buffer, new long[0], new long[0], false);
    }

    /** Whether the runtime's overlap test (spec c.3) can find these two views intersecting. */
    boolean overlaps(Region other) {
        if (!exact || !other.exact || lo.length != other.lo.length) {
            return true;
        }
        for (int d = 0; d < lo.length; d++) {
            if (hi[d] <= other.lo[d] || other.hi[d] <= lo[d]) {
                return false;
            }
        }
        return true;
    }

    /** Whether this view contains {@code other} in every dimension (the COVERED case that retires an entry). */
    boolean covers(Region other) {
        if (!exact || !other.exact || lo.length != other.lo.length) {
            return false;
        }
        for (int d = 0; d < lo.length; d++) {
            if (lo[d] > other.lo[d] || other.hi[d] > hi[d]) {
                return false;
            }
        }
        return true;
    }
}
