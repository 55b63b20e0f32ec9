package dev.jpto.lib.runner;

import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.Stmt;
import dev.jpto.compiler.ir.SubmitArg;
import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.runtime.Direction;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The outputs a chip program updates in place: those its orchestration passes to a task as {@code inout} or
 * {@code input}, or reads with {@code Orch.read}. Their initial value is part of the program's input, so
 * {@code jpto exec} needs it ({@code inputs/<name>.npy}) rather than starting them from zeros unasked.
 */
public final class InPlaceOutputs {
    private InPlaceOutputs() {
    }

    /** The names of {@code program}'s outputs it reads, in output order. */
    public static List<String> of(Program program) {
        Set<String> read = new HashSet<>();
        collect(program.body(), read);
        return program.outputs().stream().map(TensorDecl::name).filter(read::contains).toList();
    }

    private static void collect(List<Stmt> body, Set<String> read) {
        for (Stmt s : body) {
            switch (s) {
                case Stmt.For f -> collect(f.body(), read);
                case Stmt.Scope sc -> collect(sc.body(), read);
                case Stmt.Read r -> read.add(r.element().root());
                case Stmt.Submit sub -> sub.args().forEach(a -> {
                    if (a instanceof SubmitArg.TensorArg t
                            && (t.direction() == Direction.INOUT || t.direction() == Direction.INPUT)) {
                        read.add(t.tensor().root());
                    }
                });
                case Stmt.Alloc a -> { }
            }
        }
    }
}
