package dev.jpto.isa.kernel;

/**
 * The kernel text format ({@code .pto}): one kernel, readable by a person, printed and parsed exactly
 * ({@code parse(print(k)).equals(k)} for every kernel whose names are valid and unique).
 *
 * <pre>
 * kernel tiled_matmul
 * tensor a: fp32 rank 2 read
 * tensor c: fp32 rank 2 write
 * scalar k_tiles                 # scalar parameters, in order
 * var p                          # loop variables (scalar registers after the parameters)
 * tile ta: fp32[16x32]
 * tile tc: fp32[16x16]
 *
 * fill tc, 0.0
 * loop p from 0 to k_tiles step 1:
 *   load ta, a[0, 32*p], 16, 32
 *   matmul_acc tc, ta, tb
 * store tc, c[0, 0]
 * </pre>
 *
 * <p>Lines: {@code kernel NAME}, then declarations ({@code tensor NAME: DTYPE rank N read|write|read_write},
 * {@code scalar NAME}, {@code var NAME}, {@code tile NAME: DTYPE[ROWSxCOLS]}), then one op per line; a loop's
 * body is indented two more spaces than the loop. {@code #} starts a comment; blank lines are ignored.
 * Names are identifiers, unique across the kernel; {@code nan} and {@code inf} are reserved.
 *
 * <p>Operands: tiles, tensors and scalar registers by name; tensor offsets as {@code name[IDX, …]}; index
 * expressions ({@link dev.jpto.isa.op.Idx}) as sums of terms {@code c*name}, {@code name}, {@code c}, e.g.
 * {@code 64*i - j + 3}; scalars ({@link dev.jpto.isa.op.Scalar}) as a register name or a number printed by
 * {@link Double#toString} ({@code nan}, {@code inf}, {@code -inf} for the specials), so every double,
 * including {@code -0.0} and {@code 1.0E-30}, reads back bit for bit (NaN payloads aside). Op mnemonics and
 * operand orders are those of {@link Mnemonics}:
 * <pre>
 * load DST, T[IDX, …], ROWS_IDX, COLS_IDX        load_rows DST, T[IDX, …], INDEX, COLS_IDX
 * store SRC, T[IDX, …]                            fill DST, SCALAR          copy DST, SRC
 * add|sub|mul|div|max|min DST, A, B               adds … DST, A, SCALAR     add_rb …/add_cb … DST, A, B
 * neg|abs|exp|log|sqrt|rsqrt|reciprocal|relu|silu|sigmoid|tanh|gelu DST, SRC
 * sum|max|min_rows|cols|all DST, SRC              matmul[_bt][_acc] C, A, B
 * cast DST, SRC, rint|round|floor|ceil|trunc      transpose DST, SRC
 * cmp_eq|ne|lt|le|gt|ge DST, A, B                 cmp_eqs … DST, A, SCALAR  select DST, MASK, A, B
 * gather_rows DST, SRC, INDEX                     topk VALUES, INDICES, SRC, K
 * cumsum DST, SRC    quantize Q, SCALE, SRC       dequantize DST, Q, SCALE  iota DST, rows|cols|all, SCALAR
 * loop VAR from IDX to IDX step N:
 * </pre>
 */
public final class KernelText {
    private KernelText() {
    }

    /** The text of {@code k}; throws {@link IllegalArgumentException} if a name is invalid or repeated. */
    public static String print(Kernel k) {
        return new KernelPrinter(k).print();
    }

    /** Parses kernel text; errors are {@link KernelParseException}s with line:column and what was expected. */
    public static Kernel parse(String text) {
        return new KernelParser(text).parse();
    }
}
