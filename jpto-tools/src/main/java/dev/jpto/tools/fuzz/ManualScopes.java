package dev.jpto.tools.fuzz;

import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.Stmt;
import dev.jpto.compiler.ir.SubmitArg;
import dev.jpto.lib.gen.SplitMix64;
import dev.jpto.runtime.ScopeKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns some scopes of a generated program into manual scopes, with the explicit dependencies that keep its
 * sequential meaning: a task in a manual scope runs after every earlier task that names one of its buffers, and a
 * later task that names a buffer a manual-scope task used runs after that task. Only scopes that run once qualify
 * (no loop before them in program order, none inside them), so every label they name is one task, not the latest of
 * a loop's. Ordering by buffer is coarser than the TensorMap's overlap rule, never finer: the program keeps every
 * order it had.
 */
final class ManualScopes {
    private ManualScopes() {
    }

    /** {@code draft} with each qualifying top-level scope made manual with probability 1/2. */
    static Program apply(Program draft, SplitMix64 rnd) {
        List<Stmt> body = new ArrayList<>();
        boolean loopSeen = false;
        for (Stmt s : draft.body()) {
            loopSeen |= hasLoop(s);
            body.add(s instanceof Stmt.Scope sc && !loopSeen && rnd.nextBounded(2) == 0 ? manual(sc) : s);
        }
        if (body.equals(draft.body())) {
            return draft;
        }
        return new Program(draft.name(), draft.inputs(), draft.outputs(), draft.kernels(),
                new Labeller().body(body, false));
    }

    private static boolean hasLoop(Stmt s) {
        return switch (s) {
            case Stmt.For f -> true;
            case Stmt.Scope sc -> sc.body().stream().anyMatch(ManualScopes::hasLoop);
            default -> false;
        };
    }

    /** The scope and every scope inside it made manual (no auto scope may open inside a manual one). */
    private static Stmt.Scope manual(Stmt.Scope sc) {
        List<Stmt> inner = sc.body().stream().map(s -> s instanceof Stmt.Scope nested ? manual(nested) : s).toList();
        return new Stmt.Scope(inner, ScopeKind.MANUAL);
    }

    /** Labels the run-once tasks and adds the explicit dependencies, in program order. */
    private static final class Labeller {
        /** Per buffer: labels of the run-once tasks that named it, and of the manual-scope tasks among them. */
        private final Map<String, List<String>> named = new HashMap<>();
        private final Map<String, List<String>> namedInManual = new HashMap<>();
        private boolean loopSeen;
        private int next;

        List<Stmt> body(List<Stmt> body, boolean inManual) {
            List<Stmt> out = new ArrayList<>();
            for (Stmt s : body) {
                out.add(switch (s) {
                    case Stmt.Scope sc -> sc.withBody(body(sc.body(), sc.kind() == ScopeKind.MANUAL));
                    case Stmt.For f -> {
                        loopSeen = true;
                        yield new Stmt.For(f.var(), f.start(), f.end(), f.step(), body(f.body(), inManual));
                    }
                    case Stmt.Submit sub -> submit(sub, inManual);
                    default -> s;
                });
            }
            return out;
        }

        private Stmt.Submit submit(Stmt.Submit sub, boolean inManual) {
            Set<String> buffers = new LinkedHashSet<>();
            for (SubmitArg a : sub.args()) {
                if (a instanceof SubmitArg.TensorArg ta) {
                    buffers.add(ta.tensor().root());
                }
            }
            Set<String> after = new LinkedHashSet<>(sub.after());
            for (String b : buffers) {
                after.addAll((inManual ? named : namedInManual).getOrDefault(b, List.of()));
            }
            String label = null;
            if (!loopSeen) { // runs once: a label names exactly this task
                label = "m" + next++;
                for (String b : buffers) {
                    named.computeIfAbsent(b, k -> new ArrayList<>()).add(label);
                    if (inManual) {
                        namedInManual.computeIfAbsent(b, k -> new ArrayList<>()).add(label);
                    }
                }
            }
            return sub.withLabels(label, List.copyOf(after));
        }
    }
}
