package dev.jpto.isa.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.isa.DType;
import dev.jpto.isa.RoundingMode;
import dev.jpto.isa.kernel.TensorParam.Access;
import dev.jpto.isa.op.Fn;
import dev.jpto.isa.op.Idx;
import dev.jpto.isa.op.Scalar;
import dev.jpto.isa.op.TileOp;
import java.util.List;
import org.junit.jupiter.api.Test;

class KernelTextTest {
    private static final String TILED_MATMUL = """
            kernel tiled_matmul
            tensor a: fp32 rank 2 read
            tensor b: fp32 rank 2 read
            tensor c: fp32 rank 2 write
            scalar k_tiles
            scalar n_tiles
            var j
            var p
            tile ta: fp32[16x32]
            tile tb: fp32[32x16]
            tile tc: fp32[16x16]

            loop j from 0 to n_tiles step 1:
              fill tc, 0.0
              loop p from 0 to k_tiles step 1:
                load ta, a[0, 32*p], 16, 32
                load tb, b[32*p, 16*j], 32, 16
                matmul_acc tc, ta, tb
              store tc, c[0, 16*j]
            """;

    @Test
    void printsReadableText() {
        assertThat(KernelText.print(KernelExecutorTest.tiledMatmul())).isEqualTo(TILED_MATMUL);
        assertThat(KernelText.parse(TILED_MATMUL)).isEqualTo(KernelExecutorTest.tiledMatmul());
    }

    @Test
    void printsEveryOpFamily() {
        Kernel k = new Kernel("all.ops-1",
                List.of(new TensorParam("x", DType.BF16, 3, Access.READ_WRITE)),
                List.of(new ScalarDecl("n", true), new ScalarDecl("alpha", true), new ScalarDecl("i", false)),
                List.of(new TileDecl("f", DType.FP32, 8, 8), new TileDecl("m", DType.BOOL, 8, 8),
                        new TileDecl("ix", DType.INT32, 8, 1)),
                List.of(new TileOp.LoadRows(0, 0, 2, ix(0, 0, 0), Idx.slot(0, 1, 0)),
                        new TileOp.BinaryScalar(Fn.Binary.MUL, 0, 0, Scalar.slot(1)),
                        new TileOp.RowBroadcast(Fn.Binary.SUB, 0, 0, 0),
                        new TileOp.ColBroadcast(Fn.Binary.MAX, 0, 0, 0),
                        new TileOp.Reduce(Fn.Reduce.SUM, Fn.Axis.ROWS, 0, 0),
                        new TileOp.MatMul(0, 0, 0, true, false),
                        new TileOp.Cast(0, 1, RoundingMode.FLOOR),
                        new TileOp.CompareScalar(Fn.Compare.GE, 1, 0, Scalar.imm(-0.0)),
                        new TileOp.TopK(0, 2, 0, 3),
                        new TileOp.Iota(2, Fn.Axis.ROWS, Scalar.imm(Double.NEGATIVE_INFINITY)),
                        new TileOp.Fill(0, Scalar.imm(1e-30)),
                        new TileOp.Store(0, 0, List.of(new Idx(-5, new int[] {2, 0, 2}, new long[] {-1, 0, Long.MIN_VALUE}),
                                Idx.of(Long.MIN_VALUE), Idx.slot(2, 1, Long.MAX_VALUE)))));
        String text = KernelText.print(k);
        assertThat(text).contains("load_rows f, x[0, 0, 0], ix, n\n", "muls f, f, alpha\n", "sub_rb f, f, f\n",
                "max_cb f, f, f\n", "sum_rows f, f\n", "matmul_bt f, f, f\n", "cast f, m, floor\n",
                "cmp_ges m, f, -0.0\n", "topk f, ix, f, 3\n", "iota ix, rows, -inf\n", "fill f, 1.0E-30\n",
                "store f, x[-i + 0*n - 9223372036854775808*i - 5, -9223372036854775808, i + 9223372036854775807]\n");
        assertThat(KernelText.parse(text)).isEqualTo(k);
    }

    private static List<Idx> ix(long... c) {
        return java.util.Arrays.stream(c).mapToObj(Idx::of).toList();
    }

    @Test
    void commentsBlankLinesAndSpacingAreAccepted() {
        String messy = TILED_MATMUL.replace("tile ta:", "\n# the A tile\ntile   ta :").replace(", ", " ,  ")
                .replace("matmul_acc tc, ta, tb", "matmul_acc tc ,ta,tb   # C += A·B");
        assertThat(KernelText.parse(messy)).isEqualTo(KernelExecutorTest.tiledMatmul());
    }

    private static void parseError(String text, String message) {
        assertThatThrownBy(() -> KernelText.parse(text)).isInstanceOf(KernelParseException.class).hasMessage(message);
    }

    @Test
    void parseErrorsGiveLineColumnAndWhatWasExpected() {
        parseError("", "1:1: expected 'kernel NAME', got an empty text");
        parseError("kernal x\n", "1:1: expected 'kernel', got 'kernal'");
        parseError("kernel k\ntile t: fp33[4x4]\n",
                "2:9: expected a dtype (fp32, fp16, bf16, int8, uint8, int16, int32, int64, bool), got 'fp33'");
        parseError("kernel k\ntile t: fp32[4 4]\n", "2:16: expected 'x', got '4'");
        parseError("kernel k\ntile t: fp32[0x4]\n", "2:14: tile t must have a positive shape, got 0x4");
        parseError("kernel k\ntile t: fp32[4x4]\ntile t: fp16[2x2]\n", "3:6: name 't' is already declared on line 2");
        parseError("kernel k\nvar i\nscalar n\n",
                "3:1: scalar parameters must be declared before the loop variables ('var' lines)");
        parseError("kernel k\nscalar nan\n", "2:8: 'nan' is reserved (a number literal); choose another name");
        parseError("kernel k\ntensor x: fp32 rank 2 readonly\n",
                "2:23: expected an access (read, write, read_write), got 'readonly'");
        String head = "kernel k\ntensor x: fp32 rank 2 read\nscalar n\nvar i\ntile t: fp32[4x4]\n";
        parseError(head + "frob t\n", "6:1: unknown op 'frob'; expected one of " + new java.util.TreeSet<>(
                Optable.BY_NAME.keySet()) + " or loop");
        parseError(head + "add t, t t\n", "6:10: expected ',', got 't'");
        parseError(head + "add t, t\n", "6:9: expected ',', got end of line");
        parseError(head + "exp t, u\n", "6:8: unknown tile 'u'; declared tiles: t");
        parseError(head + "exp t, x\n", "6:8: 'x' is a tensor, expected a tile");
        parseError(head + "load t, x[0, 4*], 4, 4\n", "6:16: expected a scalar register name, got ']'");
        parseError(head + "load t, x[0; 0], 4, 4\n", "6:12: expected ',' or ']' in the offsets, got ';'");
        parseError(head + "load t, x[99999999999999999999, 0], 4, 4\n",
                "6:11: integer 99999999999999999999 is out of the int64 range");
        parseError(head + "load t, x[9223372036854775808, 0], 4, 4\n",
                "6:11: integer 9223372036854775808 is out of the int64 range");
        parseError(head + "fill t, 1.5.2\n", "6:12: expected end of line, got '.'");
        parseError(head + "fill t, *\n", "6:9: expected a scalar (a number, nan, inf, -inf or a scalar register name), got '*'");
        parseError(head + "cast t, t, nearest\n", "6:12: expected a rounding mode (rint, round, floor, ceil, trunc), got 'nearest'");
        parseError(head + "loop i from 0 to n step 0:\n", "6:25: loop step must be positive, got 0");
        parseError(head + "loop i from 0 to n step 1\n", "6:26: expected ':', got end of line");
        parseError(head + "loop i from 0 to n step 1:\n    exp t, t\n",
                "7:5: expected an indentation of 2 spaces (the enclosing loop's body), got 4");
        parseError(head + "  exp t, t\n", "6:3: expected an indentation of 0 spaces, got 2");
        parseError(head + "loop i from 0 to n step 1:\n\texp t, t\n", "7:1: indent with spaces, not tabs");
        parseError(head + "exp t, t\ntile u: fp32[2x2]\n", "7:1: declarations must come before the first op");
        StringBuilder deep = new StringBuilder(head);
        for (int d = 0; d <= KernelParser.MAX_LOOP_DEPTH; d++) {
            deep.append("  ".repeat(d)).append("loop i from 0 to n step 1:\n");
        }
        parseError(deep.toString(), (6 + KernelParser.MAX_LOOP_DEPTH) + ":" + (2 * KernelParser.MAX_LOOP_DEPTH + 1)
                + ": loops nest deeper than 64 levels");
    }

    @Test
    void printRejectsNamesTheTextCannotCarry() {
        Kernel dup = new Kernel("k", List.of(), List.of(new ScalarDecl("t", true)),
                List.of(new TileDecl("t", DType.FP32, 1, 1)), List.of());
        assertThatThrownBy(() -> KernelText.print(dup))
                .hasMessage("kernel k: name 't' is declared twice; kernel text needs unique names");
        Kernel bad = new Kernel("k", List.of(), List.of(), List.of(new TileDecl("a b", DType.FP32, 1, 1)), List.of());
        assertThatThrownBy(() -> KernelText.print(bad)).hasMessageContaining("name 'a b' cannot be written as kernel text");
        Kernel range = new Kernel("k", List.of(), List.of(), List.of(new TileDecl("a", DType.FP32, 1, 1)),
                List.of(new TileOp.Copy(0, 3)));
        assertThatThrownBy(() -> KernelText.print(range))
                .hasMessage("kernel k: tile index 3 is out of range (the kernel declares 1 tiles)");
    }
}
