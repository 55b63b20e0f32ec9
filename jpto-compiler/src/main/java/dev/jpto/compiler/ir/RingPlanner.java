package dev.jpto.compiler.ir;

import dev.jpto.isa.kernel.Kernel;
import dev.jpto.runtime.Direction;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Static ring requirements of a verified program: per ring, the most tasks and heap bytes its open scopes can
 * hold at once. A scope keeps every task it submitted until it closes, so those tasks' slots and output buffers
 * cannot be reclaimed before then; a ring smaller than that peak deadlocks (FLOW_CONTROL / SCOPE /
 * HEAP_RING_DEADLOCK) whatever the scheduler does. Tasks at scope depth d use ring min(d, 3); the executor's
 * root scope is depth 0.
 *
 * <p>The plan is the least each ring must hold for the run to finish: with that much the orchestrator waits for
 * reclamation where it would otherwise deadlock. A run's high-water marks may exceed it, because with more room
 * the orchestrator runs ahead of reclamation.
 *
 * <p>Heap per task follows the runtime (spec b.1): each OUTPUT buffer rounded up to 1024 bytes, the task's total
 * to 64. Loop trip counts use the largest range their bounds allow, so the plan is an upper bound of what a run
 * needs when bounds depend on outer loops, and exact for constant bounds.
 */
public final class RingPlanner {
    /** {@code PTO2_PACKED_OUTPUT_ALIGN}. */
    static final long OUTPUT_ALIGN = 1024;
    /** {@code PTO2_ALIGN_SIZE}. */
    static final long TASK_ALIGN = 64;
    static final int RINGS = 4;

    /** Per-ring totals of tasks and heap bytes. */
    private record Usage(long[] tasks, long[] heap) {
        static Usage zero() {
            return new Usage(new long[RINGS], new long[RINGS]);
        }

        Usage plus(Usage o) {
            Usage u = zero();
            for (int r = 0; r < RINGS; r++) {
                u.tasks[r] = Math.addExact(tasks[r], o.tasks[r]);
                u.heap[r] = Math.addExact(heap[r], o.heap[r]);
            }
            return u;
        }

        Usage times(long n) {
            Usage u = zero();
            for (int r = 0; r < RINGS; r++) {
                u.tasks[r] = Math.multiplyExact(tasks[r], n);
                u.heap[r] = Math.multiplyExact(heap[r], n);
            }
            return u;
        }

        Usage max(Usage o) {
            Usage u = zero();
            for (int r = 0; r < RINGS; r++) {
                u.tasks[r] = Math.max(tasks[r], o.tasks[r]);
                u.heap[r] = Math.max(heap[r], o.heap[r]);
            }
            return u;
        }
    }

    /** What a block holds when it finishes ({@code held}) and the most it holds at any point ({@code peak}). */
    private record Effect(Usage held, Usage peak) {
    }

    private final Map<String, Kernel> kernels = new HashMap<>();
    private final Map<String, long[]> ranges = new HashMap<>();
    private final Map<String, TensorDecl> allocs = new HashMap<>();
    private final long[] largestTask = new long[RINGS];

    private RingPlanner(Program program) {
        for (Kernel k : program.kernels()) {
            kernels.put(k.name(), k);
        }
    }

    /** The plan of a verified program. */
    public static RingPlan plan(Program program) {
        RingPlanner p = new RingPlanner(program);
        Effect e = p.block(program.body(), 0);
        return new RingPlan(e.peak().tasks(), e.peak().heap(), p.largestTask);
    }

    private Effect block(List<Stmt> body, int depth) {
        Usage held = Usage.zero();
        Usage peak = Usage.zero();
        for (Stmt s : body) {
            Effect e = stmt(s, depth);
            peak = peak.max(held.plus(e.peak()));
            held = held.plus(e.held());
        }
        return new Effect(held, peak);
    }

    private Effect stmt(Stmt s, int depth) {
        return switch (s) {
            case Stmt.For f -> {
                long[] start = range(f.start());
                long[] end = range(f.end());
                long trips = Math.max(0, (end[1] - start[0] + f.step() - 1) / f.step());
                long hi = start[0] + Math.max(0, trips - 1) * f.step();
                ranges.put(f.var(), new long[] {start[0], Math.max(start[0], hi)});
                Effect body = block(f.body(), depth);
                ranges.remove(f.var());
                if (trips == 0) {
                    yield new Effect(Usage.zero(), Usage.zero());
                }
                yield new Effect(body.held().times(trips), body.held().times(trips - 1).plus(body.peak()));
            }
            case Stmt.Scope sc -> {
                Effect inner = block(sc.body(), depth + 1);
                // Closing a scope frees its tasks for reclamation, unless it shares its ring with the enclosing
                // scope (depth >= 4 on ring 3): reclamation is in submission order, and the enclosing scope's
                // older tasks are still held.
                yield depth + 1 >= RINGS ? inner : new Effect(Usage.zero(), inner.peak());
            }
            case Stmt.Alloc a -> {
                allocs.put(a.tensor().name(), a.tensor());
                yield new Effect(Usage.zero(), Usage.zero());
            }
            case Stmt.Submit sub -> {
                int ring = Math.min(depth, RINGS - 1);
                long bytes = taskHeapBytes(sub);
                largestTask[ring] = Math.max(largestTask[ring], bytes);
                Usage u = Usage.zero();
                u.tasks()[ring] = 1;
                u.heap()[ring] = bytes;
                yield new Effect(u, u);
            }
        };
    }

    private long taskHeapBytes(Stmt.Submit sub) {
        long total = 0;
        for (SubmitArg a : sub.args()) {
            if (a instanceof SubmitArg.TensorArg t && t.direction() == Direction.OUTPUT) {
                TensorDecl d = allocs.get(t.tensor().root());
                if (d == null) {
                    throw new IllegalStateException("OUTPUT of undeclared intermediate '" + t.tensor().root()
                            + "': plan only verified programs");
                }
                long bytes = Math.max(1, Math.multiplyExact(d.numel(), d.dtype().byteSize()));
                total = Math.addExact(total, align(bytes, OUTPUT_ALIGN));
            }
        }
        return align(total, TASK_ALIGN);
    }

    private static long align(long v, long a) {
        return (v + a - 1) / a * a;
    }

    private long[] range(Affine e) {
        long lo = e.constant();
        long hi = e.constant();
        for (Affine.Term t : e.terms()) {
            long[] r = ranges.get(t.var());
            if (r == null) {
                throw new IllegalStateException("loop variable '" + t.var() + "' undefined: plan only verified programs");
            }
            long a = Math.multiplyExact(t.coeff(), r[0]);
            long b = Math.multiplyExact(t.coeff(), r[1]);
            lo = Math.addExact(lo, Math.min(a, b));
            hi = Math.addExact(hi, Math.max(a, b));
        }
        return new long[] {lo, hi};
    }
}
