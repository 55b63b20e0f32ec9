package dev.jpto.tools.fuzz;

import dev.jpto.compiler.ir.Affine;
import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.Stmt;
import dev.jpto.compiler.ir.SubmitArg;
import dev.jpto.compiler.ir.TensorExpr;
import dev.jpto.isa.kernel.Kernel;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Structural edits of an orchestration body, for the shrinker: statements are addressed by index paths. */
final class IrEdits {
    private IrEdits() {
    }

    /** Every statement's path, outer before inner (pre-order). */
    static List<int[]> paths(List<Stmt> body) {
        List<int[]> out = new ArrayList<>();
        collect(body, new int[0], out);
        return out;
    }

    private static void collect(List<Stmt> body, int[] prefix, List<int[]> out) {
        for (int i = 0; i < body.size(); i++) {
            int[] p = java.util.Arrays.copyOf(prefix, prefix.length + 1);
            p[prefix.length] = i;
            out.add(p);
            List<Stmt> inner = children(body.get(i));
            if (inner != null) {
                collect(inner, p, out);
            }
        }
    }

    private static List<Stmt> children(Stmt s) {
        return switch (s) {
            case Stmt.For f -> f.body();
            case Stmt.Scope sc -> sc.body();
            default -> null;
        };
    }

    static Stmt at(List<Stmt> body, int[] path) {
        Stmt s = body.get(path[0]);
        for (int d = 1; d < path.length; d++) {
            s = children(s).get(path[d]);
        }
        return s;
    }

    /** {@code body} with the statement at {@code path} replaced by {@code with} (empty: deleted). */
    static List<Stmt> replace(List<Stmt> body, int[] path, List<Stmt> with) {
        return replace(body, path, 0, with);
    }

    private static List<Stmt> replace(List<Stmt> body, int[] path, int depth, List<Stmt> with) {
        List<Stmt> out = new ArrayList<>(body.size() + with.size());
        for (int i = 0; i < body.size(); i++) {
            Stmt s = body.get(i);
            if (i != path[depth]) {
                out.add(s);
            } else if (depth == path.length - 1) {
                out.addAll(with);
            } else {
                out.add(switch (s) {
                    case Stmt.For f -> new Stmt.For(f.var(), f.start(), f.end(), f.step(),
                            replace(f.body(), path, depth + 1, with));
                    case Stmt.Scope sc -> sc.withBody(replace(sc.body(), path, depth + 1, with));
                    default -> throw new IllegalArgumentException("path goes through a leaf statement");
                });
            }
        }
        return out;
    }

    /** {@code body} without intermediate {@code name}: its alloc and every task that names it. */
    static List<Stmt> dropTensor(List<Stmt> body, String name) {
        List<Stmt> out = new ArrayList<>(body.size());
        for (Stmt s : body) {
            switch (s) {
                case Stmt.For f -> out.add(new Stmt.For(f.var(), f.start(), f.end(), f.step(),
                        dropTensor(f.body(), name)));
                case Stmt.Scope sc -> out.add(sc.withBody(dropTensor(sc.body(), name)));
                case Stmt.Alloc a -> {
                    if (!a.tensor().name().equals(name)) {
                        out.add(a);
                    }
                }
                case Stmt.Submit sub -> {
                    if (sub.args().stream().noneMatch(a -> a instanceof SubmitArg.TensorArg ta
                            && ta.tensor().root().equals(name))) {
                        out.add(sub);
                    }
                }
                case Stmt.Read r -> out.add(r);
            }
        }
        return out;
    }

    /** {@code body} with loop variable {@code var} replaced by {@code value} everywhere. */
    static List<Stmt> substitute(List<Stmt> body, String var, long value) {
        List<Stmt> out = new ArrayList<>(body.size());
        for (Stmt s : body) {
            out.add(switch (s) {
                case Stmt.For f -> new Stmt.For(f.var(), subst(f.start(), var, value), subst(f.end(), var, value),
                        f.step(), substitute(f.body(), var, value));
                case Stmt.Scope sc -> sc.withBody(substitute(sc.body(), var, value));
                case Stmt.Alloc a -> a;
                case Stmt.Read r -> new Stmt.Read(r.var(), subst(r.element(), var, value), r.max());
                case Stmt.Submit sub -> sub.withArgs(sub.args().stream().map(a -> subst(a, var, value)).toList());
            });
        }
        return out;
    }

    private static SubmitArg subst(SubmitArg a, String var, long value) {
        return switch (a) {
            case SubmitArg.IndexArg ia -> new SubmitArg.IndexArg(subst(ia.value(), var, value));
            case SubmitArg.FloatArg fa -> fa;
            case SubmitArg.TensorArg ta -> new SubmitArg.TensorArg(subst(ta.tensor(), var, value), ta.direction());
        };
    }

    private static TensorExpr subst(TensorExpr e, String var, long value) {
        return switch (e) {
            case TensorExpr.Ref r -> r;
            case TensorExpr.Reshape r -> new TensorExpr.Reshape(subst(r.base(), var, value), r.shape());
            case TensorExpr.Slice s -> new TensorExpr.Slice(subst(s.base(), var, value),
                    s.starts().stream().map(x -> subst(x, var, value)).toList(), s.extents());
        };
    }

    static Affine subst(Affine a, String var, long value) {
        long c = a.constant();
        List<Affine.Term> terms = new ArrayList<>();
        for (Affine.Term t : a.terms()) {
            if (t.var().equals(var)) {
                c = Math.addExact(c, Math.multiplyExact(t.coeff(), value));
            } else {
                terms.add(t);
            }
        }
        return new Affine(c, terms);
    }

    /**
     * Removes what a smaller body no longer uses: empty loops and scopes, allocations nobody names, kernels nobody
     * submits, inputs nobody reads, outputs nobody writes (outputs only read become inputs). Null when no output
     * is left (a program must write one).
     */
    static Program prune(Program p) {
        Set<String> named = new HashSet<>();
        names(p.body(), named);
        List<Stmt> body = clean(p.body(), named);
        Program q = p.withBody(body);
        Set<String> used = Usage.submittedKernels(q);
        List<Kernel> kernels = q.kernels().stream().filter(k -> used.contains(k.name())).toList();
        q = ProgramGenerator.trimSignature(new Program(q.name(), q.inputs(), q.outputs(), kernels, q.body()));
        return q.outputs().isEmpty() ? null : q;
    }

    private static void names(List<Stmt> body, Set<String> out) {
        for (Stmt s : body) {
            switch (s) {
                case Stmt.For f -> names(f.body(), out);
                case Stmt.Scope sc -> names(sc.body(), out);
                case Stmt.Alloc a -> { }
                case Stmt.Read r -> out.add(r.element().root());
                case Stmt.Submit sub -> {
                    for (SubmitArg a : sub.args()) {
                        if (a instanceof SubmitArg.TensorArg ta) {
                            out.add(ta.tensor().root());
                        }
                    }
                }
            }
        }
    }

    private static List<Stmt> clean(List<Stmt> body, Set<String> named) {
        List<Stmt> out = new ArrayList<>();
        for (Stmt s : body) {
            switch (s) {
                case Stmt.For f -> {
                    List<Stmt> inner = clean(f.body(), named);
                    if (!inner.isEmpty()) {
                        out.add(new Stmt.For(f.var(), f.start(), f.end(), f.step(), inner));
                    }
                }
                case Stmt.Scope sc -> {
                    List<Stmt> inner = clean(sc.body(), named);
                    if (!inner.isEmpty()) {
                        out.add(sc.withBody(inner));
                    }
                }
                case Stmt.Alloc a -> {
                    if (named.contains(a.tensor().name())) {
                        out.add(a);
                    }
                }
                case Stmt.Submit sub -> out.add(sub);
                case Stmt.Read r -> out.add(r);
            }
        }
        return out;
    }

    /** Statements in the body, nested ones included. */
    static int statements(List<Stmt> body) {
        int n = 0;
        for (Stmt s : body) {
            n++;
            List<Stmt> inner = children(s);
            if (inner != null) {
                n += statements(inner);
            }
        }
        return n;
    }
}
