package dev.jpto.tools.fuzz;

import dev.jpto.compiler.ir.Affine;
import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.Stmt;
import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.compiler.ir.Verifier;
import dev.jpto.compiler.run.RingSize;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.runtime.Platform;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Reduces a failing case while the same finding persists (greedy, first improvement, restarting after each
 * accepted step): drop statements (outer first, so whole loops and scopes go at once), drop an intermediate with
 * every task that uses it, unwrap scopes, cut loops to one iteration and unroll single iterations, halve tensor
 * extents, and simplify the run config (default thread count and ring sizes, a2a3sim). Every candidate must still pass the verifier and the
 * {@link OrderingRules} before it is run, so the reduced program is as meaningful as the original.
 */
public final class Shrinker {
    /**
     * @param reduced  the smallest case that still fails the same way
     * @param runs     candidate cases run
     * @param accepted steps that kept the finding
     */
    public record Result(FuzzCase original, FuzzCase reduced, int runs, int accepted) {
        /** "23 tasks, 31 statements -> 2 tasks, 3 statements". */
        public String sizes() {
            return size(original.program()) + " -> " + size(reduced.program());
        }

        private static String size(Program p) {
            return OrderingRules.check(p).facts().tasks() + " tasks, " + IrEdits.statements(p.body()) + " statements";
        }
    }

    private Shrinker() {
    }

    /**
     * Shrinks {@code failing}; {@code stillFails} runs a candidate and says whether it shows the same finding.
     * At most {@code maxRuns} candidates are run.
     */
    public static Result shrink(FuzzCase failing, Predicate<FuzzCase> stillFails, int maxRuns) {
        FuzzCase current = failing;
        int runs = 0;
        int accepted = 0;
        boolean progress = true;
        while (progress && runs < maxRuns) {
            progress = false;
            for (Supplier<FuzzCase> next : candidates(current)) {
                if (runs >= maxRuns) {
                    break;
                }
                FuzzCase c = next.get();
                if (c == null) {
                    continue;
                }
                runs++;
                if (stillFails.test(c)) {
                    current = c;
                    accepted++;
                    progress = true;
                    break;
                }
            }
        }
        return new Result(failing, current, runs, accepted);
    }

    /** Smaller variants of {@code c}, most reducing first; each yields null when it is not a valid program. */
    private static List<Supplier<FuzzCase>> candidates(FuzzCase c) {
        Program p = c.program();
        List<Supplier<FuzzCase>> out = new ArrayList<>();
        List<int[]> paths = IrEdits.paths(p.body());
        for (int[] path : paths) {
            out.add(() -> body(c, IrEdits.replace(p.body(), path, List.of())));
        }
        for (int[] path : paths) {
            switch (IrEdits.at(p.body(), path)) {
                case Stmt.Alloc a -> out.add(() -> body(c, IrEdits.dropTensor(p.body(), a.tensor().name())));
                case Stmt.Scope sc -> out.add(() -> body(c, IrEdits.replace(p.body(), path, sc.body())));
                case Stmt.For f -> {
                    Affine once = f.start().plus(f.step());
                    if (!once.equals(f.end())) {
                        out.add(() -> body(c, IrEdits.replace(p.body(), path,
                                List.of(new Stmt.For(f.var(), f.start(), once, f.step(), f.body())))));
                    }
                    if (f.start().isConstant()) {
                        out.add(() -> body(c, IrEdits.replace(p.body(), path,
                                IrEdits.substitute(f.body(), f.var(), f.start().constant()))));
                    }
                }
                default -> { }
            }
        }
        for (int i = 0; i < p.inputs().size() + p.outputs().size(); i++) {
            for (int d = 0; d < 2; d++) {
                int index = i;
                int dim = d;
                out.add(() -> halve(c, index, dim));
            }
        }
        RunConfig cfg = c.config();
        if (cfg.aicpuThreadNum() != 0) {
            out.add(() -> c.withConfig(cfg.withAicpuThreadNum(0)));
        }
        if (!cfg.ringTaskWindow().isAbsent()) {
            out.add(() -> c.withConfig(cfg.withRingTaskWindow(new RingSize.Absent())));
        }
        if (!cfg.ringHeap().isAbsent()) {
            out.add(() -> c.withConfig(cfg.withRingHeap(new RingSize.Absent())));
        }
        if (!cfg.ringDepPool().isAbsent()) {
            out.add(() -> c.withConfig(cfg.withRingDepPool(new RingSize.Absent())));
        }
        if (cfg.platform() != Platform.A2A3SIM) {
            out.add(() -> c.withConfig(cfg.withPlatform(Platform.A2A3SIM)));
        }
        return out;
    }

    private static FuzzCase body(FuzzCase c, List<Stmt> body) {
        return valid(c, c.program().withBody(body));
    }

    /** Halves one extent of a program input or output (the verifier rejects it if a view no longer fits). */
    private static FuzzCase halve(FuzzCase c, int index, int dim) {
        Program p = c.program();
        int nIn = p.inputs().size();
        List<TensorDecl> in = new ArrayList<>(p.inputs());
        List<TensorDecl> out = new ArrayList<>(p.outputs());
        List<TensorDecl> list = index < nIn ? in : out;
        int i = index < nIn ? index : index - nIn;
        TensorDecl d = list.get(i);
        long[] shape = d.shape();
        if (shape[dim] <= 1) {
            return null;
        }
        shape[dim] /= 2;
        list.set(i, new TensorDecl(d.name(), d.dtype(), shape));
        return valid(c, new Program(p.name(), in, out, p.kernels(), p.body()));
    }

    private static FuzzCase valid(FuzzCase c, Program candidate) {
        Program p = IrEdits.prune(candidate);
        if (p == null || !Verifier.check(p).isEmpty() || !OrderingRules.keeps(p)) {
            return null;
        }
        return c.withProgram(p);
    }
}
