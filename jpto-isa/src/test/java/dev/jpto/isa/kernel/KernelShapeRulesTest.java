package dev.jpto.isa.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.isa.Tile;
import dev.jpto.isa.engine.ScalarEngine;
import dev.jpto.isa.kernel.TensorParam.Access;
import dev.jpto.isa.op.Fn;
import dev.jpto.isa.op.Idx;
import dev.jpto.isa.op.Scalar;
import dev.jpto.isa.op.TileOp;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** The static shape rules of {@link Kernels#validate}, against the engines' own operand checks. */
class KernelShapeRulesTest {
    private static final List<Integer> SIZES = List.of(1, 4, 8);

    /** Tiles a (8x8), b (8x4), r (8x1), c (1x8), w (4x8), big (8x8) of fp32; register 0 is scalar parameter n. */
    private static Kernel kernel(List<TileOp> body) {
        return new Kernel("k", List.of(new TensorParam("x", DType.FP32, 2, Access.READ)),
                List.of(new ScalarDecl("n", true), new ScalarDecl("i", false)),
                List.of(new TileDecl("a", DType.FP32, 8, 8), new TileDecl("b", DType.FP32, 8, 4),
                        new TileDecl("r", DType.FP32, 8, 1), new TileDecl("c", DType.FP32, 1, 8),
                        new TileDecl("w", DType.FP32, 4, 8), new TileDecl("big", DType.FP32, 8, 8)),
                body);
    }

    private static TileOp load(int tile, Idx rows, Idx cols) {
        return new TileOp.Load(tile, 0, List.of(Idx.of(0), Idx.of(0)), rows, cols);
    }

    @Test
    void mismatchedElementwiseOperandsAreReportedWithShapesAndTheSourceLine() {
        Kernel k = kernel(List.of(new TileOp.Binary(Fn.Binary.ADD, 0, 0, 1)));
        assertThatThrownBy(() -> Kernels.validate(k, op -> "Dense.java:87"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("kernel k: op #0 (add) at Dense.java:87: operand b (tile b fp32[8x4]) must be 8x8 to "
                        + "match a (tile a fp32[8x8])");
    }

    @Test
    void matmulInnerDimensionsAccumulatorAndTransposedBAreChecked() {
        // a (8x8) · b (8x4): inner 8 = 8, product 8x4 into big (8x8) is fine; w (4x8) has 4 rows, not 8
        assertThatCode(() -> Kernels.validate(kernel(List.of(new TileOp.MatMul(5, 0, 1, false, false)))))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> Kernels.validate(kernel(List.of(new TileOp.MatMul(5, 0, 4, false, false)))))
                .hasMessage("kernel k: op #0 (matmul): operand b (tile w fp32[4x8]) must be [8x*] (rows = a's "
                        + "cols) to match a (tile a fp32[8x8])");
        // transposed: b's columns are the inner dimension; w (4x8) has 8 columns, product 8x4 fits big
        assertThatCode(() -> Kernels.validate(kernel(List.of(new TileOp.MatMul(5, 0, 4, true, false)))))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> Kernels.validate(kernel(List.of(new TileOp.MatMul(5, 0, 1, true, false)))))
                .hasMessage("kernel k: op #0 (matmul_bt): operand b (tile b fp32[8x4]) must be [*x8] (cols = a's "
                        + "cols) to match a (tile a fp32[8x8])");
        // accumulating needs c to be the product's shape already: big is 8x8, the product 8x4
        assertThatThrownBy(() -> Kernels.validate(kernel(List.of(new TileOp.MatMul(5, 0, 1, false, true)))))
                .hasMessage("kernel k: op #0 (matmul_acc): operand c (tile big fp32[8x8]) must be 8x4 (the "
                        + "accumulator of a 8x4 product)");
        // after a first product c is 8x4: accumulating the same product is fine
        assertThatCode(() -> Kernels.validate(kernel(List.of(new TileOp.MatMul(5, 0, 1, false, false),
                new TileOp.MatMul(5, 0, 1, false, true))))).doesNotThrowAnyException();
    }

    @Test
    void broadcastsReductionsAndDestinationsFollowTheEngines() {
        assertThatThrownBy(() -> Kernels.validate(kernel(List.of(new TileOp.RowBroadcast(Fn.Binary.ADD, 0, 0, 3)))))
                .hasMessage("kernel k: op #0 (add_rb): operand b (tile c fp32[1x8]) must be 8x1 (one value per row "
                        + "of a (tile a fp32[8x8]))");
        assertThatCode(() -> Kernels.validate(kernel(List.of(new TileOp.ColBroadcast(Fn.Binary.ADD, 0, 0, 3)))))
                .doesNotThrowAnyException();
        // a column sum of a is 1x8: r (8x1) cannot hold it
        assertThatThrownBy(() -> Kernels.validate(kernel(List.of(new TileOp.Reduce(Fn.Reduce.SUM, Fn.Axis.COLS, 2,
                0))))).hasMessage("kernel k: op #0 (sum_cols): operand dst (tile r fp32[8x1]) is too small for the "
                        + "1x8 result");
        // the transposed region flows on: b^T is 4x8 in w; adding w to a (8x8) is a mismatch
        assertThatThrownBy(() -> Kernels.validate(kernel(List.of(new TileOp.Transpose(4, 1),
                new TileOp.Binary(Fn.Binary.ADD, 5, 0, 4)))))
                .hasMessage("kernel k: op #1 (add): operand b (tile w fp32[4x8]) must be 8x8 to match a "
                        + "(tile a fp32[8x8])");
    }

    @Test
    void aRegionFromAScalarExtentIsUnknownAndNeverReported() {
        // a's rows come from n: whatever n is, nothing is certain, so nothing is reported
        Kernel k = kernel(List.of(load(0, Idx.slot(0, 1, 0), Idx.of(8)), new TileOp.Binary(Fn.Binary.ADD, 5, 0, 5)));
        assertThatCode(() -> Kernels.validate(k)).doesNotThrowAnyException();
        // a known dimension still counts: 8 columns against b's 4
        Kernel cols = kernel(List.of(load(0, Idx.slot(0, 1, 0), Idx.of(8)), new TileOp.Binary(Fn.Binary.ADD, 0, 0, 1)));
        assertThatThrownBy(() -> Kernels.validate(cols)).hasMessage("kernel k: op #1 (add): operand b (tile b "
                + "fp32[8x4]) must be *x8 to match a (tile a fp32[8x8 valid *x8])");
    }

    @Test
    void loopsAreAnalysedForEveryIteration() {
        // a violation inside a loop body is reported with its position in the body
        Kernel inside = kernel(List.of(new TileOp.Loop(1, Idx.of(0), Idx.slot(0, 1, 0), 1, List.of(
                new TileOp.Binary(Fn.Binary.ADD, 0, 0, 1)))));
        assertThatThrownBy(() -> Kernels.validate(inside)).hasMessageStartingWith("kernel k: op #0.0 (add): operand b");
        // the loop may run zero times: after it, a's rows are 4 or 8, so adding big (8x8) is not certainly wrong
        Kernel maybe = kernel(List.of(new TileOp.Loop(1, Idx.of(0), Idx.slot(0, 1, 0), 1, List.of(
                load(0, Idx.of(4), Idx.of(8)))), new TileOp.Binary(Fn.Binary.ADD, 5, 0, 5)));
        assertThatCode(() -> Kernels.validate(maybe)).doesNotThrowAnyException();
        // the first iteration sees a at 8x8 and the later ones at 4x8 (loaded at the end of the body): a single
        // pass from the state before the loop would wrongly call "add big, a" always fine, or always wrong
        Kernel changes = kernel(List.of(new TileOp.Loop(1, Idx.of(0), Idx.of(3), 1, List.of(
                new TileOp.Binary(Fn.Binary.ADD, 5, 5, 0), load(0, Idx.of(4), Idx.of(8))))));
        assertThatCode(() -> Kernels.validate(changes)).doesNotThrowAnyException();
        // while a region that every iteration sets before using it stays known
        Kernel known = kernel(List.of(new TileOp.Loop(1, Idx.of(0), Idx.of(3), 1, List.of(
                load(0, Idx.of(4), Idx.of(8)), new TileOp.Binary(Fn.Binary.ADD, 5, 5, 0)))));
        assertThatThrownBy(() -> Kernels.validate(known)).hasMessage("kernel k: op #0.1 (add): operand b (tile a "
                + "fp32[8x8 valid 4x8]) must be 8x8 to match a (tile big fp32[8x8])");
    }

    // ---- agreement with the engines ----

    private static final Pattern SHAPE_ERROR = Pattern.compile("^kernel k: op #(\\d+) ");

    /**
     * Random straight-line kernels of fp32 tiles with constant extents (so every region is known): the static
     * check rejects a kernel exactly when running it fails, and names the same op.
     */
    @Property(tries = 300)
    void staticShapeErrorsAreExactlyTheEnginesErrors(@ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<TileDecl> tiles = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            tiles.add(new TileDecl("t" + t, DType.FP32, pick(rnd), pick(rnd)));
        }
        List<TileOp> body = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            body.add(randomOp(rnd, tiles));
        }
        Kernel k = new Kernel("k", List.of(new TensorParam("x", DType.FP32, 2, Access.READ)), List.of(), tiles,
                body);
        String staticError = error(() -> Kernels.validate(k));
        String engineError = engineError(k);
        assertThat(staticError == null).as("static %s, engine %s", staticError, engineError)
                .isEqualTo(engineError == null);
        if (staticError != null) {
            assertThat(opOf(staticError)).as("static %s, engine %s", staticError, engineError)
                    .isEqualTo(opOf(engineError));
        }
    }

    /**
     * "kernel k: op #3 ..." for the first op the engine itself rejects, running the ops one by one (the
     * executor would validate the kernel first).
     */
    private static String engineError(Kernel k) {
        try (Arena arena = Arena.ofConfined()) {
            Tensor x = Tensor.allocate(arena, DType.FP32, 8, 8);
            ScalarEngine engine = new ScalarEngine();
            Tile[] t = new dev.jpto.isa.Tile[k.tiles().size()];
            for (int i = 0; i < t.length; i++) {
                t[i] = Tile.allocate(DType.FP32, k.tiles().get(i).rows(), k.tiles().get(i).cols());
            }
            for (int i = 0; i < k.body().size(); i++) {
                int at = i;
                String e = error(() -> step(engine, k.body().get(at), t, x));
                if (e != null) {
                    return "kernel k: op #" + i + " " + e;
                }
            }
            return null;
        }
    }

    private static void step(ScalarEngine e, TileOp op, Tile[] t, Tensor x) {
        switch (op) {
            case TileOp.Load l -> e.load(t[l.dst()], x, new long[] {0, 0}, (int) l.validRows().constant(),
                    (int) l.validCols().constant());
            case TileOp.Binary b -> e.binary(b.fn(), t[b.dst()], t[b.a()], t[b.b()]);
            case TileOp.RowBroadcast b -> e.rowBroadcast(b.fn(), t[b.dst()], t[b.a()], t[b.b()]);
            case TileOp.ColBroadcast b -> e.colBroadcast(b.fn(), t[b.dst()], t[b.a()], t[b.b()]);
            case TileOp.Reduce r -> e.reduce(r.fn(), r.axis(), t[r.dst()], t[r.src()]);
            case TileOp.MatMul m -> e.matmul(t[m.c()], t[m.a()], t[m.b()], m.transposeB(), m.accumulate());
            case TileOp.Transpose tr -> e.transpose(t[tr.dst()], t[tr.src()]);
            case TileOp.Copy c -> e.copy(t[c.dst()], t[c.src()]);
            case TileOp.Fill f -> e.fill(t[f.dst()], 1);
            default -> throw new IllegalStateException("not generated: " + op);
        }
    }

    private static int pick(SplittableRandom rnd) {
        return SIZES.get(rnd.nextInt(SIZES.size()));
    }

    /** An op over distinct tiles where the engines forbid aliasing, so only shape rules can fail. */
    private static TileOp randomOp(SplittableRandom rnd, List<TileDecl> tiles) {
        int[] p = distinctTiles(rnd, tiles.size());
        return switch (rnd.nextInt(9)) {
            case 0 -> new TileOp.Load(p[0], 0, List.of(Idx.of(0), Idx.of(0)),
                    Idx.of(1 + rnd.nextInt(tiles.get(p[0]).rows())), Idx.of(1 + rnd.nextInt(tiles.get(p[0]).cols())));
            case 1 -> new TileOp.Binary(Fn.Binary.ADD, p[0], p[1], p[2]);
            case 2 -> new TileOp.RowBroadcast(Fn.Binary.MUL, p[0], p[1], p[2]);
            case 3 -> new TileOp.ColBroadcast(Fn.Binary.SUB, p[0], p[1], p[2]);
            case 4 -> new TileOp.Reduce(Fn.Reduce.SUM, rnd.nextBoolean() ? Fn.Axis.ROWS : Fn.Axis.COLS, p[0], p[1]);
            case 5 -> new TileOp.MatMul(p[0], p[1], p[2], rnd.nextBoolean(), rnd.nextBoolean());
            case 6 -> new TileOp.Transpose(p[0], p[1]);
            case 7 -> new TileOp.Copy(p[0], p[1]);
            default -> new TileOp.Fill(p[0], Scalar.imm(1));
        };
    }

    private static int[] distinctTiles(SplittableRandom rnd, int n) {
        List<Integer> all = new ArrayList<>(List.of(0, 1, 2, 3).subList(0, n));
        Collections.shuffle(all, new Random(rnd.nextLong()));
        return new int[] {all.get(0), all.get(1), all.get(2)};
    }

    private static String error(Runnable r) {
        try {
            r.run();
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    private static String opOf(String message) {
        Matcher m = SHAPE_ERROR.matcher(message);
        return m.find() ? m.group(1) : message;
    }
}
