package dev.jpto.isa.engine;

import static dev.jpto.isa.engine.RandomTiles.assertSame;
import static dev.jpto.isa.engine.RandomTiles.assertWithinUlps;
import static dev.jpto.isa.engine.RandomTiles.copyOf;
import static dev.jpto.isa.engine.RandomTiles.random;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.jpto.isa.DType;
import dev.jpto.isa.RoundingMode;
import dev.jpto.isa.Tile;
import dev.jpto.isa.op.Fn;
import java.util.EnumSet;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The Vector API engine against the scalar reference, op by op, on random shapes (columns up to 70, so most are
 * not a multiple of the 16 lanes; capacities larger than the valid region) with IEEE corner values mixed in.
 * The bounds asserted here are the ones documented on {@link VectorEngine}.
 */
class VectorEngineAgreementTest {
    private static final TileEngine VECTOR = new VectorEngine();
    private static final TileEngine SCALAR = new ScalarEngine();
    private static final Set<Fn.Unary> WITHIN_ONE_ULP =
            EnumSet.of(Fn.Unary.EXP, Fn.Unary.LOG, Fn.Unary.TANH, Fn.Unary.SIGMOID, Fn.Unary.SILU, Fn.Unary.GELU);

    @Provide
    Arbitrary<DType> numeric() {
        return Arbitraries.of(DType.FP32, DType.FP16, DType.BF16, DType.INT8, DType.UINT8, DType.INT16, DType.INT32,
                DType.INT64);
    }

    @Provide
    Arbitrary<DType> floats() {
        return Arbitraries.of(DType.FP32, DType.FP16, DType.BF16);
    }

    @Provide
    Arbitrary<Double> scalars() {
        return Arbitraries.oneOf(Arbitraries.doubles().between(-300, 300),
                Arbitraries.integers().between(-300, 300).map(i -> (double) i),
                Arbitraries.of(0.0, -0.0, 1e12, -1e12, Double.NaN, Double.POSITIVE_INFINITY, 0x1p31, -0x1p31 - 1));
    }

    /** Runs {@code op} on both engines with identical copies of {@code dst} and returns {vector, scalar}. */
    private static Tile[] both(Tile dst, OpOn op) {
        Tile v = copyOf(dst);
        Tile s = copyOf(dst);
        op.run(VECTOR, v);
        op.run(SCALAR, s);
        return new Tile[] {v, s};
    }

    @FunctionalInterface
    interface OpOn {
        void run(TileEngine engine, Tile dst);
    }

    @Property(tries = 200)
    void binaryIsBitExact(@ForAll("numeric") DType t, @ForAll Fn.Binary fn, @ForAll @IntRange(min = 1, max = 9) int rows,
                          @ForAll @IntRange(min = 1, max = 70) int cols, @ForAll long seed) {
        Random rnd = new Random(seed);
        Tile a = random(rnd, t, rows, cols, rnd.nextInt(3), rnd.nextInt(20), true);
        Tile b = random(rnd, t, rows, cols, 0, 0, true);
        Tile[] r = both(random(rnd, t, rows, cols, 1, 3, true), (e, d) -> e.binary(fn, d, a, b));
        assertSame(fn + " " + t, r[0], r[1]);
        Tile[] inPlace = both(a, (e, d) -> e.binary(fn, d, d, b));
        assertSame(fn + " in place " + t, inPlace[0], inPlace[1]);
    }

    @Property(tries = 200)
    void binaryScalarIsBitExact(@ForAll("numeric") DType t, @ForAll Fn.Binary fn, @ForAll("scalars") double s,
                                @ForAll @IntRange(min = 1, max = 70) int cols, @ForAll long seed) {
        Random rnd = new Random(seed);
        Tile a = random(rnd, t, 3, cols, 0, 5, true);
        Tile[] r = both(random(rnd, t, 3, cols, 0, 5, true), (e, d) -> e.binaryScalar(fn, d, a, s));
        assertSame(fn + "s " + t + " " + s, r[0], r[1]);
    }

    @Property(tries = 200)
    void unaryAgrees(@ForAll("numeric") DType t, @ForAll Fn.Unary fn, @ForAll @IntRange(min = 1, max = 70) int cols,
                     @ForAll long seed) {
        boolean intFn = fn == Fn.Unary.NEG || fn == Fn.Unary.ABS || fn == Fn.Unary.RELU;
        DType dt = t.isFloat() || intFn ? t : DType.FP32;
        Random rnd = new Random(seed);
        Tile src = random(rnd, dt, 4, cols, 0, 3, true);
        Tile[] r = both(random(rnd, dt, 4, cols, 1, 0, true), (e, d) -> e.unary(fn, d, src));
        if (WITHIN_ONE_ULP.contains(fn)) {
            assertWithinUlps(fn + " " + dt, r[0], r[1], 1);
        } else {
            assertSame(fn + " " + dt, r[0], r[1]);
        }
    }

    @Property(tries = 150)
    void broadcastsAreBitExact(@ForAll("numeric") DType t, @ForAll Fn.Binary fn, @ForAll boolean alongRows,
                               @ForAll @IntRange(min = 1, max = 8) int rows, @ForAll @IntRange(min = 1, max = 70) int cols,
                               @ForAll long seed) {
        Random rnd = new Random(seed);
        Tile a = random(rnd, t, rows, cols, 0, 2, true);
        Tile b = alongRows ? random(rnd, t, rows, 1, 2, 0, true) : random(rnd, t, 1, cols, 0, 1, true);
        Tile[] r = both(random(rnd, t, rows, cols, 0, 0, true), (e, d) -> {
            if (alongRows) {
                e.rowBroadcast(fn, d, a, b);
            } else {
                e.colBroadcast(fn, d, a, b);
            }
        });
        assertSame(fn + (alongRows ? "_rb " : "_cb ") + t, r[0], r[1]);
    }

    @Property(tries = 200)
    void reductionsAgree(@ForAll("numeric") DType t, @ForAll Fn.Reduce fn, @ForAll Fn.Axis axis,
                         @ForAll @IntRange(min = 0, max = 9) int rows, @ForAll @IntRange(min = 0, max = 70) int cols,
                         @ForAll boolean specials, @ForAll long seed) {
        Random rnd = new Random(seed);
        Tile src = random(rnd, t, rows, cols, 1, 1, specials);
        Tile init = random(rnd, t, Math.max(rows, 1), Math.max(cols, 1), 0, 0, true);
        Tile[] r = both(init, (e, d) -> e.reduce(fn, axis, d, src));
        String what = fn + "." + axis + " " + t + " " + rows + "x" + cols;
        boolean reassociated = t.isFloat() && fn == Fn.Reduce.SUM && axis != Fn.Axis.COLS;
        if (!reassociated) {
            assertSame(what, r[0], r[1]);
            return;
        }
        // documented bound: |vector - scalar| <= 2·(n+16)·2^-24·Σ|x|, plus 1 ulp of the dtype for the final rounding
        Tile v = r[0];
        Tile s = r[1];
        assertThat(v.validRows()).isEqualTo(s.validRows());
        assertThat(v.validCols()).isEqualTo(s.validCols());
        for (int i = 0; i < v.validRows(); i++) {
            double abs = 0;
            boolean finite = true;
            int n = axis == Fn.Axis.ALL ? rows * cols : cols;
            for (int rr = axis == Fn.Axis.ALL ? 0 : i; rr < (axis == Fn.Axis.ALL ? rows : i + 1); rr++) {
                for (int c = 0; c < cols; c++) {
                    float x = src.getFloat(rr, c);
                    finite &= Float.isFinite(x);
                    abs += Math.abs(x);
                }
            }
            float vv = v.getFloat(i, 0);
            float sv = s.getFloat(i, 0);
            if (!finite) {
                assertThat(Float.isNaN(vv)).as(what + " NaN-ness").isEqualTo(Float.isNaN(sv));
                if (!Float.isNaN(sv)) {
                    assertThat(vv).as(what).isEqualTo(sv);
                }
                continue;
            }
            double bound = 2.0 * (n + 16) * 0x1p-24 * abs;
            boolean close = Math.abs((double) vv - sv) <= bound || RandomTiles.ulpDistance(t, vv, sv) <= 1;
            assertThat(close).as(what + " row " + i + ": vector=" + vv + " scalar=" + sv + " bound=" + bound).isTrue();
        }
    }

    @Property(tries = 200)
    void castIsBitExact(@ForAll DType from, @ForAll DType to, @ForAll RoundingMode mode,
                        @ForAll @IntRange(min = 1, max = 40) int cols, @ForAll long seed) {
        Random rnd = new Random(seed);
        Tile src = random(rnd, from, 3, cols, 0, 2, true);
        Tile[] r = both(random(rnd, to, 3, cols, 1, 1, true), (e, d) -> e.cast(d, src, mode));
        assertSame("cast " + from + "→" + to + " " + mode, r[0], r[1]);
    }

    @Property(tries = 200)
    void compareAndSelectAreBitExact(@ForAll("numeric") DType t, @ForAll Fn.Compare fn, @ForAll("scalars") double s,
                                     @ForAll @IntRange(min = 1, max = 70) int cols, @ForAll long seed) {
        Random rnd = new Random(seed);
        Tile a = random(rnd, t, 3, cols, 0, 1, true);
        Tile b = random(rnd, t, 3, cols, 0, 0, true);
        for (int c = 0; c < cols; c += 3) {
            b.setFloat(1, c, a.getFloat(1, c)); // some equal pairs
        }
        Tile mask = random(rnd, DType.BOOL, 3, cols, 0, 2, false);
        Tile[] cmp = both(mask, (e, d) -> e.compare(fn, d, a, b));
        assertSame("cmp_" + fn + " " + t, cmp[0], cmp[1]);
        Tile[] cmps = both(mask, (e, d) -> e.compareScalar(fn, d, a, s));
        assertSame("cmp_" + fn + "s " + t + " " + s, cmps[0], cmps[1]);
        Tile[] sel = both(random(rnd, t, 3, cols, 1, 1, true), (e, d) -> e.select(d, mask, a, b));
        assertSame("select " + t, sel[0], sel[1]);
    }

    @Property(tries = 60)
    void selectOfEveryElementSizeIsBitExact(@ForAll DType t, @ForAll @IntRange(min = 1, max = 140) int cols,
                                            @ForAll long seed) {
        Random rnd = new Random(seed);
        Tile a = random(rnd, t, 2, cols, 0, 0, true);
        Tile b = random(rnd, t, 2, cols, 0, 0, true);
        Tile mask = random(rnd, DType.BOOL, 2, cols, 0, 0, false);
        Tile[] sel = both(random(rnd, t, 2, cols, 0, 3, true), (e, d) -> e.select(d, mask, a, b));
        assertSame("select " + t, sel[0], sel[1]);
    }

    @Property(tries = 100)
    void fillCopyAndRowOpsAreBitExact(@ForAll DType t, @ForAll("scalars") double value,
                                      @ForAll @IntRange(min = 1, max = 9) int rows,
                                      @ForAll @IntRange(min = 1, max = 70) int cols, @ForAll long seed) {
        Random rnd = new Random(seed);
        Tile src = random(rnd, t, rows, cols, 1, 2, true);
        Tile dst = random(rnd, t, rows, cols, 2, 1, true);
        Tile[] fill = both(dst, (e, d) -> e.fill(d, value));
        assertSame("fill " + t + " " + value, fill[0], fill[1]);
        Tile[] copy = both(dst, (e, d) -> e.copy(d, src));
        assertSame("copy " + t, copy[0], copy[1]);
        Tile index = Tile.allocate(DType.INT32, rows + 2, 1);
        for (int i = 0; i < index.rows(); i++) {
            index.setLong(i, 0, rnd.nextInt(rows));
        }
        Tile[] gather = both(random(rnd, t, rows + 2, cols, 0, 1, true), (e, d) -> e.gatherRows(d, src, index));
        assertSame("gather_rows " + t, gather[0], gather[1]);
        Tile[] transpose = both(random(rnd, t, cols, rows, 0, 0, true), (e, d) -> e.transpose(d, src));
        assertSame("transpose " + t, transpose[0], transpose[1]);
    }

    @Property(tries = 100)
    void rowAlgorithmsAreBitExact(@ForAll("numeric") DType t, @ForAll @IntRange(min = 1, max = 6) int rows,
                                  @ForAll @IntRange(min = 1, max = 40) int cols, @ForAll long seed) {
        Random rnd = new Random(seed);
        Tile src = random(rnd, t, rows, cols, 0, 1, true);
        for (int c = 1; c < cols; c += 4) {
            src.setFloat(0, c, src.getFloat(0, c - 1)); // ties for top-k
        }
        int k = 1 + rnd.nextInt(cols);
        Tile vi = random(rnd, DType.INT32, rows, k, 0, 0, false);
        Tile[] values = both(random(rnd, t, rows, k, 0, 1, true), (e, d) -> e.topK(d, copyOf(vi), src, k));
        assertSame("topk values " + t, values[0], values[1]);
        Tile[] indices = both(vi, (e, d) -> e.topK(random(new Random(seed), t, rows, k, 0, 0, true), d, src, k));
        assertSame("topk indices " + t, indices[0], indices[1]);
        Tile[] cum = both(random(rnd, t, rows, cols, 0, 0, true), (e, d) -> e.cumSum(d, src));
        assertSame("cumsum " + t, cum[0], cum[1]);
        Tile[] iota = both(random(rnd, t, rows, cols, 0, 0, true), (e, d) -> e.iota(d, Fn.Axis.COLS, 3));
        assertSame("iota " + t, iota[0], iota[1]);
    }

    @Property(tries = 60)
    void quantizeRoundTripIsBitExact(@ForAll("floats") DType t, @ForAll @IntRange(min = 1, max = 6) int rows,
                                     @ForAll @IntRange(min = 1, max = 70) int cols, @ForAll long seed) {
        Random rnd = new Random(seed);
        Tile src = random(rnd, t, rows, cols, 0, 0, false);
        Tile scale = random(rnd, DType.FP32, rows, 1, 0, 0, false);
        Tile[] q = both(random(rnd, DType.INT8, rows, cols, 0, 0, false), (e, d) -> e.quantize(d, copyOf(scale), src));
        assertSame("quantize " + t, q[0], q[1]);
        Tile[] dq = both(random(rnd, t, rows, cols, 0, 0, false), (e, d) -> e.dequantize(d, q[1], scale));
        assertSame("dequantize " + t, dq[0], dq[1]);
    }

    @Property(tries = 100)
    void badOperandsFailTheSameWay(@ForAll("numeric") DType t, @ForAll Fn.Binary fn, @ForAll long seed) {
        Random rnd = new Random(seed);
        Tile a = random(rnd, t, 4, 20, 0, 0, false);
        Tile wrongShape = random(rnd, t, 4, 19, 0, 0, false);
        Tile wrongType = random(rnd, t == DType.FP32 ? DType.BF16 : DType.FP32, 4, 20, 0, 0, false);
        for (Consumer<TileEngine> op : java.util.List.<Consumer<TileEngine>>of(
                e -> e.binary(fn, copyOf(a), a, wrongShape),
                e -> e.binary(fn, copyOf(a), a, wrongType),
                e -> e.rowBroadcast(fn, copyOf(a), a, wrongShape),
                e -> e.matmul(Tile.allocate(DType.FP32, 4, 4), a, wrongShape, false, false),
                e -> e.reduce(Fn.Reduce.SUM, Fn.Axis.ROWS, Tile.allocate(t, 3, 1), a))) {
            Throwable v = catchThrowable(() -> op.accept(VECTOR));
            Throwable s = catchThrowable(() -> op.accept(SCALAR));
            assertThat(v).isInstanceOf(IllegalArgumentException.class);
            assertThat(v).hasMessage(s.getMessage());
        }
    }
}
