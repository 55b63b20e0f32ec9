package dev.jpto.isa.kernel;

import dev.jpto.isa.op.TileOp;
import java.util.Locale;

/**
 * The name of every op as written in kernel text and in error messages ({@code add}, {@code adds},
 * {@code add_rb}, {@code sum_rows}, {@code matmul_bt_acc}, {@code cmp_lt}, …). One table for the printer,
 * the parser, the validator and the executor's messages.
 */
public final class Mnemonics {
    private Mnemonics() {
    }

    public static String of(TileOp op) {
        return switch (op) {
            case TileOp.Load _ -> "load";
            case TileOp.LoadRows _ -> "load_rows";
            case TileOp.Store _ -> "store";
            case TileOp.Fill _ -> "fill";
            case TileOp.Copy _ -> "copy";
            case TileOp.Binary b -> lower(b.fn());
            case TileOp.BinaryScalar b -> lower(b.fn()) + "s";
            case TileOp.Unary u -> lower(u.fn());
            case TileOp.RowBroadcast b -> lower(b.fn()) + "_rb";
            case TileOp.ColBroadcast b -> lower(b.fn()) + "_cb";
            case TileOp.Reduce r -> lower(r.fn()) + "_" + lower(r.axis());
            case TileOp.MatMul m -> "matmul" + (m.transposeB() ? "_bt" : "") + (m.accumulate() ? "_acc" : "");
            case TileOp.Cast _ -> "cast";
            case TileOp.Transpose _ -> "transpose";
            case TileOp.Compare c -> "cmp_" + lower(c.fn());
            case TileOp.CompareScalar c -> "cmp_" + lower(c.fn()) + "s";
            case TileOp.Select _ -> "select";
            case TileOp.GatherRows _ -> "gather_rows";
            case TileOp.TopK _ -> "topk";
            case TileOp.CumSum _ -> "cumsum";
            case TileOp.Quantize _ -> "quantize";
            case TileOp.Dequantize _ -> "dequantize";
            case TileOp.Iota _ -> "iota";
            case TileOp.Loop _ -> "loop";
        };
    }

    public static String lower(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }
}
