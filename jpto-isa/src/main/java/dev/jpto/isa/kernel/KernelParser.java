package dev.jpto.isa.kernel;

import dev.jpto.isa.DType;
import dev.jpto.isa.RoundingMode;
import dev.jpto.isa.op.Fn;
import dev.jpto.isa.op.Idx;
import dev.jpto.isa.op.Scalar;
import dev.jpto.isa.op.TileOp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses kernel text (see {@link KernelText}): one line at a time, a cursor per line, blocks by indentation. */
final class KernelParser extends TextCursor {
    private static final Pattern NUMBER = Pattern.compile("-?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");
    private static final int INDENT = 2;
    /** Bounds the parser's recursion, so hostile text fails with a message rather than a stack overflow. */
    static final int MAX_LOOP_DEPTH = 64;

    private enum Kind { TENSOR, SCALAR, TILE }

    private record Name(Kind kind, int index, int line) {
    }

    private final List<Line> lines = new ArrayList<>();
    private int next;

    private String kernelName;
    private final List<TensorParam> tensors = new ArrayList<>();
    private final List<ScalarDecl> scalars = new ArrayList<>();
    private final List<TileDecl> tiles = new ArrayList<>();
    private final Map<String, Name> names = new HashMap<>();

    KernelParser(String text) {
        String[] raw = text.split("\n", -1);
        for (int i = 0; i < raw.length; i++) {
            String s = raw[i];
            int hash = s.indexOf('#');
            if (hash >= 0) {
                s = s.substring(0, hash);
            }
            s = s.stripTrailing();
            if (!s.isBlank()) {
                lines.add(new Line(i + 1, s));
            }
        }
    }

    Kernel parse() {
        if (lines.isEmpty()) {
            throw new KernelParseException(1, 1, "expected 'kernel NAME', got an empty text");
        }
        begin(lines.get(next++));
        indentation(0);
        keyword("kernel");
        kernelName = word(KernelPrinter.KERNEL_NAME, "a kernel name");
        endOfLine();
        while (next < lines.size() && isDeclaration(lines.get(next))) {
            begin(lines.get(next++));
            indentation(0);
            declaration();
        }
        List<TileOp> body = block(0);
        return new Kernel(kernelName, tensors, scalars, tiles, body);
    }

    // ---- declarations ----

    private static boolean isDeclaration(Line l) {
        String t = l.text();
        for (String kw : new String[] {"tensor", "scalar", "var", "tile"}) {
            if (t.startsWith(kw + " ")) {
                return true;
            }
        }
        return false;
    }

    private void declaration() {
        int col = mark();
        String kw = ident("a declaration");
        switch (kw) {
            case "tensor" -> {
                String n = declareName(Kind.TENSOR, tensors.size());
                expect(':');
                DType t = dtype();
                keyword("rank");
                int rank = (int) unsigned("a rank", Integer.MAX_VALUE);
                int aCol = mark();
                String access = ident("an access (read, write, read_write)");
                TensorParam.Access a = switch (access) {
                    case "read" -> TensorParam.Access.READ;
                    case "write" -> TensorParam.Access.WRITE;
                    case "read_write" -> TensorParam.Access.READ_WRITE;
                    default -> throw error(aCol, "expected an access (read, write, read_write), got '" + access + "'");
                };
                tensors.add(new TensorParam(n, t, rank, a));
            }
            case "scalar", "var" -> {
                boolean param = kw.equals("scalar");
                if (param && !scalars.isEmpty() && !scalars.getLast().param()) {
                    throw error(col, "scalar parameters must be declared before the loop variables ('var' lines)");
                }
                scalars.add(new ScalarDecl(declareName(Kind.SCALAR, scalars.size()), param));
            }
            case "tile" -> {
                String n = declareName(Kind.TILE, tiles.size());
                expect(':');
                DType t = dtype();
                expect('[');
                int rCol = mark();
                int rows = (int) unsigned("the tile's rows", Integer.MAX_VALUE);
                expect('x');
                int cols = (int) unsigned("the tile's columns", Integer.MAX_VALUE);
                expect(']');
                if (rows == 0 || cols == 0) {
                    throw error(rCol, "tile " + n + " must have a positive shape, got " + rows + "x" + cols);
                }
                tiles.add(new TileDecl(n, t, rows, cols));
            }
            default -> throw error(col, "expected a declaration (tensor, scalar, var, tile), got '" + kw + "'");
        }
        endOfLine();
    }

    private String declareName(Kind kind, int index) {
        int col = mark();
        String n = ident("a name");
        if (KernelPrinter.RESERVED.contains(n)) {
            throw error(col, "'" + n + "' is reserved (a number literal); choose another name");
        }
        Name old = names.putIfAbsent(n, new Name(kind, index, line.number()));
        if (old != null) {
            throw error(col, "name '" + n + "' is already declared on line " + old.line());
        }
        return n;
    }

    private DType dtype() {
        int col = mark();
        String s = ident("a dtype (" + DType.validNames() + ")");
        for (DType t : DType.values()) {
            if (t.text().equals(s)) {
                return t;
            }
        }
        throw error(col, "expected a dtype (" + DType.validNames() + "), got '" + s + "'");
    }

    // ---- ops ----

    private List<TileOp> block(int level) {
        List<TileOp> ops = new ArrayList<>();
        while (next < lines.size()) {
            Line l = lines.get(next);
            int ind = leadingSpaces(l);
            if (ind < level * INDENT) {
                break;
            }
            begin(l);
            next++;
            indentation(level * INDENT);
            ops.add(op(level));
        }
        return ops;
    }

    private TileOp op(int level) {
        int col = mark();
        String m = ident("an op");
        if (m.equals("loop")) {
            if (level >= MAX_LOOP_DEPTH) {
                throw error(col, "loops nest deeper than " + MAX_LOOP_DEPTH + " levels");
            }
            int vCol = mark();
            int slot = ref(Kind.SCALAR, ident("a loop variable"), vCol);
            keyword("from");
            Idx start = idx();
            keyword("to");
            Idx end = idx();
            keyword("step");
            int sCol = mark();
            long step = unsigned("a step", Long.MAX_VALUE);
            if (step == 0) {
                throw error(sCol, "loop step must be positive, got 0");
            }
            expect(':');
            endOfLine();
            return new TileOp.Loop(slot, start, end, step, block(level + 1));
        }
        TileOp op = simpleOp(m, col);
        endOfLine();
        return op;
    }

    private TileOp simpleOp(String m, int col) {
        Optable.Entry e = Optable.BY_NAME.get(m);
        if (e == null) {
            if (m.equals("tensor") || m.equals("scalar") || m.equals("var") || m.equals("tile")) {
                throw error(col, "declarations must come before the first op");
            }
            throw error(col, "unknown op '" + m + "'; expected one of " + new TreeSet<>(Optable.BY_NAME.keySet())
                    + " or loop");
        }
        return switch (e) {
            case Optable.Entry.Fixed f -> fixed(f.name());
            case Optable.Entry.Bin b -> switch (b.form()) {
                case TILE -> new TileOp.Binary(b.fn(), tile(), comma().tile(), comma().tile());
                case SCALAR -> new TileOp.BinaryScalar(b.fn(), tile(), comma().tile(), comma().scalar());
                case ROW -> new TileOp.RowBroadcast(b.fn(), tile(), comma().tile(), comma().tile());
                case COL -> new TileOp.ColBroadcast(b.fn(), tile(), comma().tile(), comma().tile());
            };
            case Optable.Entry.Un u -> new TileOp.Unary(u.fn(), tile(), comma().tile());
            case Optable.Entry.Red r -> new TileOp.Reduce(r.fn(), r.axis(), tile(), comma().tile());
            case Optable.Entry.Cmp c -> c.scalar()
                    ? new TileOp.CompareScalar(c.fn(), tile(), comma().tile(), comma().scalar())
                    : new TileOp.Compare(c.fn(), tile(), comma().tile(), comma().tile());
            case Optable.Entry.Mm mm -> new TileOp.MatMul(tile(), comma().tile(), comma().tile(), mm.transposeB(),
                    mm.accumulate());
        };
    }

    private TileOp fixed(String m) {
        return switch (m) {
            case "load" -> {
                int dst = tile();
                comma();
                int t = tensorRef();
                List<Idx> off = offsets();
                yield new TileOp.Load(dst, t, off, comma().idx(), comma().idx());
            }
            case "load_rows" -> {
                int dst = tile();
                comma();
                int t = tensorRef();
                List<Idx> off = offsets();
                int index = comma().tile();
                yield new TileOp.LoadRows(dst, t, index, off, comma().idx());
            }
            case "store" -> {
                int src = tile();
                comma();
                int t = tensorRef();
                yield new TileOp.Store(src, t, offsets());
            }
            case "fill" -> new TileOp.Fill(tile(), comma().scalar());
            case "copy" -> new TileOp.Copy(tile(), comma().tile());
            case "cast" -> new TileOp.Cast(tile(), comma().tile(), comma().rounding());
            case "transpose" -> new TileOp.Transpose(tile(), comma().tile());
            case "select" -> new TileOp.Select(tile(), comma().tile(), comma().tile(), comma().tile());
            case "gather_rows" -> new TileOp.GatherRows(tile(), comma().tile(), comma().tile());
            case "topk" -> new TileOp.TopK(tile(), comma().tile(), comma().tile(),
                    (int) comma().unsigned("k", Integer.MAX_VALUE));
            case "cumsum" -> new TileOp.CumSum(tile(), comma().tile());
            case "quantize" -> new TileOp.Quantize(tile(), comma().tile(), comma().tile());
            case "dequantize" -> new TileOp.Dequantize(tile(), comma().tile(), comma().tile());
            case "iota" -> new TileOp.Iota(tile(), comma().axis(), comma().scalar());
            default -> throw new IllegalStateException("op table names unknown fixed op " + m);
        };
    }

    // ---- operands ----

    private KernelParser comma() {
        expect(',');
        return this;
    }

    private int tile() {
        int col = mark();
        return ref(Kind.TILE, ident("a tile name"), col);
    }

    private int tensorRef() {
        int col = mark();
        return ref(Kind.TENSOR, ident("a tensor name"), col);
    }

    private int ref(Kind kind, String name, int col) {
        Name n = names.get(name);
        String what = kind.name().toLowerCase(Locale.ROOT);
        if (n == null) {
            throw error(col, "unknown " + what + " '" + name + "'; declared " + what + "s: " + declared(kind));
        }
        if (n.kind() != kind) {
            throw error(col, "'" + name + "' is a " + n.kind().name().toLowerCase(Locale.ROOT) + ", expected a "
                    + what);
        }
        return n.index();
    }

    private String declared(Kind kind) {
        List<String> out = new ArrayList<>();
        switch (kind) {
            case TENSOR -> tensors.forEach(t -> out.add(t.name()));
            case SCALAR -> scalars.forEach(s -> out.add(s.name()));
            case TILE -> tiles.forEach(t -> out.add(t.name()));
        }
        return out.isEmpty() ? "(none)" : String.join(", ", out);
    }

    private List<Idx> offsets() {
        expect('[');
        List<Idx> out = new ArrayList<>();
        skipSpaces();
        if (peek() == ']') {
            pos++;
            return out;
        }
        out.add(idx());
        while (true) {
            skipSpaces();
            char c = peek();
            if (c == ']') {
                pos++;
                return out;
            }
            if (c != ',') {
                throw error(pos, "expected ',' or ']' in the offsets, got " + found());
            }
            pos++;
            out.add(idx());
        }
    }

    /** {@code ['-'] term (('+'|'-') term)*}, term = {@code N}, {@code N*name} or {@code name}. */
    private Idx idx() {
        skipSpaces();
        long constant = 0;
        List<Integer> slots = new ArrayList<>();
        List<Long> coeffs = new ArrayList<>();
        boolean negative = false;
        if (peek() == '-') {
            negative = true;
            pos++;
            skipSpaces();
        }
        while (true) {
            int col = mark();
            char c = peek();
            if (isDigit(c)) {
                long mag = magnitude(negative);
                long v = negative ? -mag : mag;
                skipSpaces();
                if (peek() == '*') {
                    pos++;
                    skipSpaces();
                    int nCol = mark();
                    slots.add(ref(Kind.SCALAR, ident("a scalar register name"), nCol));
                    coeffs.add(v);
                } else {
                    constant += v;
                }
            } else if (isIdentStart(c)) {
                slots.add(ref(Kind.SCALAR, ident("a scalar register name"), col));
                coeffs.add(negative ? -1L : 1L);
            } else {
                throw error(col, "expected an index term (a number, N*name or name), got " + found());
            }
            skipSpaces();
            char op = peek();
            if (op != '+' && op != '-') {
                break;
            }
            negative = op == '-';
            pos++;
            skipSpaces();
        }
        int[] s = new int[slots.size()];
        long[] k = new long[coeffs.size()];
        for (int i = 0; i < s.length; i++) {
            s[i] = slots.get(i);
            k[i] = coeffs.get(i);
        }
        return new Idx(constant, s, k);
    }

    private Scalar scalar() {
        skipSpaces();
        int col = mark();
        char c = peek();
        if (isIdentStart(c)) {
            String n = ident("a scalar");
            return switch (n) {
                case "nan" -> Scalar.imm(Double.NaN);
                case "inf" -> Scalar.imm(Double.POSITIVE_INFINITY);
                default -> Scalar.slot(ref(Kind.SCALAR, n, col));
            };
        }
        if (line.text().startsWith("-inf", pos) && !isIdentPart(charAt(pos + 4))) {
            pos += 4;
            return Scalar.imm(Double.NEGATIVE_INFINITY);
        }
        Matcher m = NUMBER.matcher(line.text()).region(pos, line.text().length());
        if (!m.lookingAt()) {
            throw error(col, "expected a scalar (a number, nan, inf, -inf or a scalar register name), got " + found());
        }
        pos = m.end();
        return Scalar.imm(Double.parseDouble(m.group()));
    }

    private RoundingMode rounding() {
        int col = mark();
        String s = ident("a rounding mode (rint, round, floor, ceil, trunc)");
        for (RoundingMode r : RoundingMode.values()) {
            if (Mnemonics.lower(r).equals(s)) {
                return r;
            }
        }
        throw error(col, "expected a rounding mode (rint, round, floor, ceil, trunc), got '" + s + "'");
    }

    private Fn.Axis axis() {
        int col = mark();
        String s = ident("an axis (rows, cols, all)");
        for (Fn.Axis a : Fn.Axis.values()) {
            if (Mnemonics.lower(a).equals(s)) {
                return a;
            }
        }
        throw error(col, "expected an axis (rows, cols, all), got '" + s + "'");
    }

}
