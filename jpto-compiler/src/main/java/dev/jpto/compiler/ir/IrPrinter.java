package dev.jpto.compiler.ir;

import dev.jpto.isa.kernel.Kernel;
import dev.jpto.isa.kernel.KernelText;
import dev.jpto.isa.kernel.TensorParam;
import java.util.Locale;

/** The IR as indented text, for {@code --dump-ir} and for people: one statement per line. */
public final class IrPrinter {
    private IrPrinter() {
    }

    public static String print(Program p) {
        StringBuilder sb = new StringBuilder();
        sb.append("program ").append(p.name()).append('\n');
        for (TensorDecl d : p.inputs()) {
            sb.append("  input  ").append(d).append('\n');
        }
        for (TensorDecl d : p.outputs()) {
            sb.append("  output ").append(d).append('\n');
        }
        for (Kernel k : p.kernels()) {
            sb.append("  kernel ").append(k.name()).append('(');
            String sep = "";
            for (TensorParam t : k.tensors()) {
                sb.append(sep).append(t.access().name().toLowerCase(Locale.ROOT)).append(' ').append(t.name())
                        .append(": ").append(t.dtype().text()).append(" rank ").append(t.rank());
                sep = ", ";
            }
            for (int i = 0; i < k.scalarParamCount(); i++) {
                sb.append(sep).append("scalar ").append(k.scalars().get(i).name());
                sep = ", ";
            }
            sb.append(")  ").append(k.tiles().size()).append(" tiles, ").append(k.body().size()).append(" ops\n");
        }
        for (Kernel k : p.kernels()) {
            sb.append('\n');
            KernelText.print(k).lines().forEach(line -> sb.append("  | ").append(line).append('\n'));
        }
        sb.append('\n');
        sb.append("  orchestration\n");
        body(sb, p.body(), "    ");
        return sb.toString();
    }

    private static void body(StringBuilder sb, java.util.List<Stmt> body, String indent) {
        for (Stmt s : body) {
            switch (s) {
                case Stmt.For f -> {
                    sb.append(indent).append("for ").append(f.var()).append(" in range(").append(f.start()).append(", ")
                            .append(f.end()).append(f.step() == 1 ? "" : ", " + f.step()).append(")\n");
                    body(sb, f.body(), indent + "  ");
                }
                case Stmt.Scope sc -> {
                    sb.append(indent).append(sc.kind() == dev.jpto.runtime.ScopeKind.MANUAL ? "manual scope\n"
                            : "scope\n");
                    body(sb, sc.body(), indent + "  ");
                }
                case Stmt.Alloc a -> sb.append(indent).append("alloc ").append(a.tensor()).append('\n');
                case Stmt.Read r -> sb.append(indent).append(r.var()).append(" = read(").append(r.element())
                        .append(") in [0, ").append(r.max()).append("]\n");
                case Stmt.Submit sub -> {
                    sb.append(indent).append("submit ").append(sub.kernel()).append(" on ")
                            .append(sub.mixed() != null ? "mix" : sub.coreType().name().toLowerCase(Locale.ROOT))
                            .append('(');
                    String sep = "";
                    for (SubmitArg a : sub.args()) {
                        sb.append(sep).append(a);
                        sep = ", ";
                    }
                    sb.append(')');
                    if (sub.blockNum() != 1) {
                        sb.append(" blocks ").append(sub.blockNum());
                    }
                    if (sub.requireSyncStart()) {
                        sb.append(" sync_start");
                    }
                    if (sub.label() != null) {
                        sb.append(" as ").append(sub.label());
                    }
                    if (!sub.after().isEmpty()) {
                        sb.append(" after ").append(String.join(", ", sub.after()));
                    }
                    sb.append('\n');
                }
            }
        }
    }
}
