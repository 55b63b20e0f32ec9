package dev.jpto.compiler.ir;

import java.util.ArrayList;
import java.util.List;

/** The compiler's passes. {@link #standard()} is the pipeline, in order, as one readable list. */
public final class Passes {
    private Passes() {
    }

    /** verify → drop-empty-blocks → verify-again (a rewrite must leave a valid program). */
    public static List<Pass> standard() {
        return List.of(
                new Pass("verify", p -> {
                    Verifier.verify(p);
                    return p;
                }),
                new Pass("drop-empty-blocks", Passes::dropEmptyBlocks),
                new Pass("verify-again", p -> {
                    Verifier.verify(p);
                    return p;
                }));
    }

    /** Removes loops and scopes whose bodies submit nothing: they cost orchestrator time and change no result. */
    static Program dropEmptyBlocks(Program p) {
        return p.withBody(drop(p.body()));
    }

    private static List<Stmt> drop(List<Stmt> body) {
        List<Stmt> out = new ArrayList<>();
        for (Stmt s : body) {
            switch (s) {
                case Stmt.For f -> {
                    List<Stmt> inner = drop(f.body());
                    if (submits(inner)) {
                        out.add(new Stmt.For(f.var(), f.start(), f.end(), f.step(), inner));
                    }
                }
                case Stmt.Scope sc -> {
                    List<Stmt> inner = drop(sc.body());
                    if (submits(inner)) {
                        out.add(sc.withBody(inner));
                    }
                }
                case Stmt.Alloc a -> out.add(a);
                case Stmt.Read r -> out.add(r);
                case Stmt.Submit sub -> out.add(sub);
            }
        }
        return out;
    }

    private static boolean submits(List<Stmt> body) {
        for (Stmt s : body) {
            boolean yes = switch (s) {
                case Stmt.For f -> submits(f.body());
                case Stmt.Scope sc -> submits(sc.body());
                case Stmt.Alloc a -> false;
                case Stmt.Read r -> false;
                case Stmt.Submit sub -> true;
            };
            if (yes) {
                return true;
            }
        }
        return false;
    }
}
