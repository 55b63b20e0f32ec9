package dev.jpto.isa.kernel;

import dev.jpto.isa.op.Fn;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The ISA reference page ({@code docs/isa-reference.md}), generated from the op table itself: every mnemonic the
 * parser accepts ({@link Optable}) must have its entry here, or generating the page fails, so the document cannot
 * fall behind the op set. One description per op family or element function, written once.
 */
public final class IsaReference {
    private IsaReference() {
    }

    /** The ops without a function parameter: syntax and meaning, by mnemonic. */
    private static final Map<String, String[]> FIXED = Map.ofEntries(
            Map.entry("load", new String[] {"load DST, T[IDX, …], ROWS, COLS",
                "DST's valid region becomes ROWS×COLS, read from the last two dimensions of tensor T at the offsets "
                        + "(one per dimension), converted to DST's dtype (rint, saturating)."}),
            Map.entry("load_rows", new String[] {"load_rows DST, T[IDX, …], INDEX, COLS",
                "Row i of DST = row INDEX[i][0] of T's last two dimensions (INDEX: int32 tile), COLS columns from "
                        + "the column offset; a row number outside T is an error."}),
            Map.entry("store", new String[] {"store SRC, T[IDX, …]",
                "Writes SRC's valid region into T at the offsets, converted to T's dtype."}),
            Map.entry("fill", new String[] {"fill DST, SCALAR",
                "Every element of DST's valid region = SCALAR, rounded once to DST's dtype."}),
            Map.entry("copy", new String[] {"copy DST, SRC", "DST = SRC, same dtype, bit for bit."}),
            Map.entry("cast", new String[] {"cast DST, SRC, rint|round|floor|ceil|trunc",
                "Converts SRC to DST's dtype; the mode rounds float → integer (saturating, NaN → 0)."}),
            Map.entry("transpose", new String[] {"transpose DST, SRC",
                "DST[c][r] = SRC[r][c]; DST must not be SRC."}),
            Map.entry("select", new String[] {"select DST, MASK, A, B",
                "DST = MASK ? A : B elementwise; MASK is bool with A's valid region."}),
            Map.entry("gather_rows", new String[] {"gather_rows DST, SRC, INDEX",
                "Row i of DST = row INDEX[i][0] of SRC (INDEX int32); DST must not be SRC."}),
            Map.entry("topk", new String[] {"topk VALUES, INDICES, SRC, K",
                "Per row, the K largest values (descending) and their int32 column indices; ties take the lower "
                        + "index."}),
            Map.entry("cumsum", new String[] {"cumsum DST, SRC",
                "Inclusive running sum along each row (floats: fp32 running sum)."}),
            Map.entry("quantize", new String[] {"quantize Q, SCALE, SRC",
                "Per row of float SRC: SCALE = max|x| / 127 (fp32, R×1), Q = rint(x / SCALE) as int8."}),
            Map.entry("dequantize", new String[] {"dequantize DST, Q, SCALE",
                "DST = Q × SCALE[r] (int8 × fp32 → DST's float dtype)."}),
            Map.entry("iota", new String[] {"iota DST, rows|cols|all, SCALAR",
                "DST[r][c] = SCALAR + r (rows) or + c (cols) over DST's valid region."}));

    private static final Map<Fn.Binary, String> BINARY = new EnumMap<>(Map.of(Fn.Binary.ADD, "A + B",
            Fn.Binary.SUB, "A − B", Fn.Binary.MUL, "A × B", Fn.Binary.DIV, "A / B (integers: toward zero, n/0 = 0)",
            Fn.Binary.MAX, "max(A, B) (NaN if either is)", Fn.Binary.MIN, "min(A, B) (NaN if either is)"));

    private static final Map<Fn.Unary, String> UNARY = new EnumMap<>(Map.ofEntries(Map.entry(Fn.Unary.NEG, "−x"),
            Map.entry(Fn.Unary.ABS, "abs(x)"), Map.entry(Fn.Unary.EXP, "exp(x)"), Map.entry(Fn.Unary.LOG, "ln(x)"),
            Map.entry(Fn.Unary.SQRT, "√x"), Map.entry(Fn.Unary.RSQRT, "1/√x"),
            Map.entry(Fn.Unary.RECIPROCAL, "1/x"), Map.entry(Fn.Unary.RELU, "max(x, 0)"),
            Map.entry(Fn.Unary.SILU, "x / (1 + exp(−x))"), Map.entry(Fn.Unary.SIGMOID, "1 / (1 + exp(−x))"),
            Map.entry(Fn.Unary.TANH, "tanh(x)"),
            Map.entry(Fn.Unary.GELU, "0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))")));

    private static final Map<Fn.Reduce, String> REDUCE = new EnumMap<>(Map.of(Fn.Reduce.SUM, "sum",
            Fn.Reduce.MAX, "maximum", Fn.Reduce.MIN, "minimum"));

    private static final Map<Fn.Compare, String> COMPARE = new EnumMap<>(Map.of(Fn.Compare.EQ, "=",
            Fn.Compare.NE, "≠", Fn.Compare.LT, "<", Fn.Compare.LE, "≤", Fn.Compare.GT, ">", Fn.Compare.GE, "≥"));

    /** The page, as markdown. */
    public static String markdown() {
        Map<String, List<String>> rows = new TreeMap<>();
        for (Map.Entry<String, Optable.Entry> e : new TreeMap<>(Optable.BY_NAME).entrySet()) {
            String[] row = row(e.getKey(), e.getValue());
            rows.computeIfAbsent(row[0], s -> new ArrayList<>()).add("| `" + e.getKey() + "` | `" + cell(row[1])
                    + "` | " + cell(row[2]) + " |");
        }
        StringBuilder sb = new StringBuilder();
        sb.append("# ISA reference\n\n")
                .append("Generated from the op table (`dev.jpto.isa.kernel.IsaReference`); a test fails when an op is "
                        + "missing. Every op is one line of kernel text (`.pto`, see the grammar below) and one "
                        + "`KernelBuilder` call of the same name in the Java DSL. Rules shared by all ops: float tiles "
                        + "compute in fp32 and round once to the tile's dtype; integer tiles wrap; operands are "
                        + "checked before anything is written. `matmul*` runs on a cube core (AIC); every other "
                        + "compute op on a vector core (AIV); loads and stores on both.\n");
        for (Map.Entry<String, List<String>> g : rows.entrySet()) {
            sb.append("\n## ").append(g.getKey().substring(3)).append("\n\n| mnemonic | syntax | meaning |\n")
                    .append("|---|---|---|\n");
            g.getValue().forEach(r -> sb.append(r).append('\n'));
        }
        sb.append("\n## Loops\n\n`loop VAR from IDX to IDX step N:` runs the ops indented two more spaces below it "
                + "with VAR = start, start+N, … while < end.\n");
        sb.append("\n## Kernel text grammar (EBNF)\n\n```ebnf\n").append(grammar()).append("```\n");
        return sb.toString();
    }

    /** {group, syntax, meaning} of one mnemonic; groups sort by their two-digit prefix. */
    private static String[] row(String mnemonic, Optable.Entry e) {
        return switch (e) {
            case Optable.Entry.Fixed f -> {
                String[] d = FIXED.get(f.name());
                if (d == null) {
                    throw new IllegalStateException("op '" + f.name() + "' has no entry in the ISA reference");
                }
                String group = switch (f.name()) {
                    case "load", "load_rows", "store", "fill", "copy", "iota" -> "01 Data movement";
                    case "cast", "transpose", "select", "gather_rows" -> "06 Layout and selection";
                    default -> "07 Sorting, scans and quantisation";
                };
                yield new String[] {group, d[0], d[1]};
            }
            case Optable.Entry.Bin b -> switch (b.form()) {
                case TILE -> new String[] {"02 Elementwise", mnemonic + " DST, A, B", "DST = " + need(BINARY, b.fn())};
                case SCALAR -> new String[] {"02 Elementwise", mnemonic + " DST, A, SCALAR",
                    "DST = " + need(BINARY, b.fn()).replace("B", "SCALAR")};
                case ROW -> new String[] {"03 Broadcast", mnemonic + " DST, A, COL",
                    "DST[r][c] = A[r][c] " + b.fn().name().toLowerCase(java.util.Locale.ROOT) + " COL[r][0]"};
                case COL -> new String[] {"03 Broadcast", mnemonic + " DST, A, ROW",
                    "DST[r][c] = A[r][c] " + b.fn().name().toLowerCase(java.util.Locale.ROOT) + " ROW[0][c]"};
            };
            case Optable.Entry.Un u -> new String[] {"02 Elementwise", mnemonic + " DST, SRC",
                "DST = " + need(UNARY, u.fn()) + ", x = SRC"};
            case Optable.Entry.Red r -> new String[] {"04 Reductions", mnemonic + " DST, SRC",
                need(REDUCE, r.fn()) + switch (r.axis()) {
                    case ROWS -> " along each row (R×C → R×1)";
                    case COLS -> " down each column (R×C → 1×C)";
                    case ALL -> " of the whole valid region (→ 1×1)";
                }};
            case Optable.Entry.Cmp c -> new String[] {"02 Elementwise", mnemonic + (c.scalar() ? " DST, A, SCALAR"
                    : " DST, A, B"), "DST (bool) = (A " + need(COMPARE, c.fn()) + (c.scalar() ? " SCALAR)" : " B)")};
            case Optable.Entry.Mm m -> new String[] {"05 Matrix multiply (cube)", mnemonic + " C, A, B",
                "C " + (m.accumulate() ? "+=" : "=") + " A·B" + (m.transposeB() ? "ᵀ" : "")
                        + " (fp32/bf16/fp16 → fp32, int8 → int32)"};
        };
    }

    /** A table cell: a '|' of the text would end the cell. */
    private static String cell(String text) {
        return text.replace("|", "\\|");
    }

    private static <K extends Enum<K>> String need(Map<K, String> descriptions, K fn) {
        String d = descriptions.get(fn);
        if (d == null) {
            throw new IllegalStateException("function " + fn + " has no entry in the ISA reference");
        }
        return d;
    }

    /** The kernel text grammar; the op production lists every mnemonic of the op table. */
    static String grammar() {
        String ops = Optable.BY_NAME.keySet().stream().sorted().map(m -> "\"" + m + "\"")
                .collect(Collectors.joining(" | "));
        return String.join("\n",
                "kernel      = \"kernel\" NAME NL { decl NL } { op-line } ;",
                "decl        = \"tensor\" IDENT \":\" DTYPE \"rank\" INT ( \"read\" | \"write\" | \"read_write\" )",
                "            | \"scalar\" IDENT        (* a scalar parameter, given per task *)",
                "            | \"var\" IDENT           (* a loop variable *)",
                "            | \"tile\" IDENT \":\" DTYPE \"[\" INT \"x\" INT \"]\" ;",
                "op-line     = INDENT ( op | loop ) NL ;  (* a loop body is indented two more spaces *)",
                "loop        = \"loop\" IDENT \"from\" idx \"to\" idx \"step\" INT \":\" ;",
                "op          = MNEMONIC operand { \",\" operand } ;",
                "operand     = IDENT | IDENT \"[\" idx { \",\" idx } \"]\" | idx | NUMBER ;",
                "idx         = term { ( \"+\" | \"-\" ) term } ;",
                "term        = INT \"*\" IDENT | IDENT | INT ;",
                "DTYPE       = " + java.util.Arrays.stream(dev.jpto.isa.DType.values()).map(t -> "\"" + t.text() + "\"")
                        .collect(Collectors.joining(" | ")) + " ;",
                "NUMBER      = a Java double literal | \"nan\" | \"inf\" | \"-inf\" ;",
                "IDENT       = [A-Za-z_][A-Za-z0-9_]* other than nan, inf ;",
                "NAME        = [A-Za-z_][A-Za-z0-9_.-]* ;",
                "comment     = \"#\" to the end of the line ;  (* blank lines are ignored *)",
                wrap("MNEMONIC    = " + ops + " ;"), "");
    }

    private static String wrap(String line) {
        StringBuilder sb = new StringBuilder();
        int col = 0;
        for (String word : line.split(" ")) {
            if (col + word.length() > 110) {
                sb.setLength(sb.length() - 1); // the space before the break
                sb.append("\n             ");
                col = 13;
            }
            sb.append(word).append(' ');
            col += word.length() + 1;
        }
        return sb.toString().stripTrailing();
    }
}
