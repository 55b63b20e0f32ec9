package dev.jpto.compiler.dsl;

import dev.jpto.compiler.ir.Affine;
import dev.jpto.compiler.ir.SubmitArg;
import dev.jpto.runtime.Direction;

/**
 * One argument of {@link Orch#submit}: statically import these factories and write
 * {@code o.submit(add, in(xs), in(ys), outExisting(zs), scalar(i))}. Arguments follow the kernel's parameter
 * order: tensors first, then scalars.
 */
public record TaskArg(SubmitArg arg) {
    /** A tensor the task reads; waits for its producers. */
    public static TaskArg in(TensorVar t) {
        return tensor(t, Direction.INPUT);
    }

    /** Produces a new intermediate (declared with {@link Orch#alloc}); the runtime allocates it on the heap ring. */
    public static TaskArg out(TensorVar t) {
        return tensor(t, Direction.OUTPUT);
    }

    /** Reads and writes an existing tensor (an accumulator); ordered after earlier writers and readers. */
    public static TaskArg inout(TensorVar t) {
        return tensor(t, Direction.INOUT);
    }

    /** Writes an existing tensor (a program output or an already produced intermediate). */
    public static TaskArg outExisting(TensorVar t) {
        return tensor(t, Direction.OUTPUT_EXISTING);
    }

    /** Passes a tensor without dependency tracking: the caller guarantees the ordering. */
    public static TaskArg noDep(TensorVar t) {
        return tensor(t, Direction.NO_DEP);
    }

    /** An integer scalar, e.g. a constant length. */
    public static TaskArg scalar(long value) {
        return new TaskArg(new SubmitArg.IndexArg(Affine.of(value)));
    }

    /** An integer scalar that depends on loop variables, e.g. {@code scalar(i.times(64))}. */
    public static TaskArg scalar(Affine value) {
        return new TaskArg(new SubmitArg.IndexArg(value));
    }

    /** A floating-point scalar, e.g. a scale factor. */
    public static TaskArg scalar(double value) {
        return new TaskArg(new SubmitArg.FloatArg(value));
    }

    private static TaskArg tensor(TensorVar t, Direction d) {
        return new TaskArg(new SubmitArg.TensorArg(t.expr(), d));
    }
}
