package dev.jpto.isa.op;

/** The element functions that op records are parameterised by. */
public final class Fn {
    private Fn() {
    }

    /** Elementwise binary functions (tile-tile, tile-scalar, row- and column-broadcast). */
    public enum Binary { ADD, SUB, MUL, DIV, MAX, MIN }

    /** Elementwise unary functions. GELU is the tanh form. */
    public enum Unary { NEG, ABS, EXP, LOG, SQRT, RSQRT, RECIPROCAL, RELU, SILU, SIGMOID, TANH, GELU }

    /** Reductions. */
    public enum Reduce { SUM, MAX, MIN }

    /** Comparisons producing a bool mask. */
    public enum Compare { EQ, NE, LT, LE, GT, GE }

    /**
     * Which way an op runs over a tile. For reductions: ROWS reduces along each row (R×C → R×1),
     * COLS along each column (R×C → 1×C), ALL over the valid region (→ 1×1). For iota: the value grows
     * along the row index (ROWS) or the column index (COLS).
     */
    public enum Axis { ROWS, COLS, ALL }
}
