package dev.jpto.isa.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.DType;
import dev.jpto.isa.RoundingMode;
import dev.jpto.isa.kernel.TensorParam.Access;
import dev.jpto.isa.op.Fn;
import dev.jpto.isa.op.Idx;
import dev.jpto.isa.op.Scalar;
import dev.jpto.isa.op.TileOp;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Round trips of the kernel text format over random kernels using every op record. */
class KernelTextRoundTripTest {

    @Provide
    Arbitrary<Kernel> kernels() {
        return Arbitraries.randomValue(r -> new Gen(r).kernel());
    }

    @Property(tries = 300)
    void printThenParseGivesTheSameKernel(@ForAll("kernels") Kernel k) {
        String text = KernelText.print(k);
        assertThat(KernelText.parse(text)).as(text).isEqualTo(k);
    }

    @Property(tries = 150)
    void parsePrintParseIsStable(@ForAll("kernels") Kernel k, @ForAll long seed) {
        String messy = mess(KernelText.print(k), new Random(seed));
        Kernel first = KernelText.parse(messy);
        String printed = KernelText.print(first);
        assertThat(KernelText.parse(printed)).isEqualTo(first);
        assertThat(KernelText.print(KernelText.parse(printed))).isEqualTo(printed);
    }

    /** Same kernel, other spelling: comments, blank lines and extra spaces. */
    private static String mess(String text, Random r) {
        StringBuilder sb = new StringBuilder();
        for (String line : text.split("\n")) {
            if (r.nextInt(4) == 0) {
                sb.append(r.nextBoolean() ? "\n" : "# a comment line\n");
            }
            String l = r.nextBoolean() ? line.replace(", ", " ,   ") : line;
            sb.append(l).append(r.nextInt(3) == 0 ? "   # trailing" : "").append('\n');
        }
        return sb.toString();
    }

    /** Random structurally valid kernels: every index in range, loops bind distinct loop variables. */
    static final class Gen {
        private static final double[] SPECIAL = {1e-30, Double.NaN, -0.0, 0.0, Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY, Double.MIN_VALUE, -Double.MAX_VALUE, 0.1, 1.0, -3.0, 65504.0, 1e300};
        private static final long[] SPECIAL_LONGS = {0, 1, -1, 64, -64, Long.MIN_VALUE, Long.MAX_VALUE, 1L << 40};

        private final Random r;
        private int nTensors;
        private int[] ranks;
        private int nParams;
        private int nVars;
        private int nTiles;

        Gen(Random r) {
            this.r = r;
        }

        <T> T pick(T[] values) {
            return values[r.nextInt(values.length)];
        }

        Kernel kernel() {
            nTensors = 1 + r.nextInt(3);
            ranks = new int[nTensors];
            List<TensorParam> tensors = new ArrayList<>();
            for (int i = 0; i < nTensors; i++) {
                ranks[i] = 1 + r.nextInt(4);
                tensors.add(new TensorParam("t" + i, pick(DType.values()), ranks[i], pick(Access.values())));
            }
            nParams = r.nextInt(3);
            nVars = 1 + r.nextInt(3);
            List<ScalarDecl> scalars = new ArrayList<>();
            for (int i = 0; i < nParams; i++) {
                scalars.add(new ScalarDecl("p" + i, true));
            }
            for (int i = 0; i < nVars; i++) {
                scalars.add(new ScalarDecl("v_" + i, false));
            }
            nTiles = 1 + r.nextInt(5);
            List<TileDecl> tiles = new ArrayList<>();
            for (int i = 0; i < nTiles; i++) {
                tiles.add(new TileDecl("tile" + i, pick(DType.values()), 1 + r.nextInt(128), 1 + r.nextInt(128)));
            }
            String name = r.nextBoolean() ? "k" + r.nextInt(1000) : "lib.dsv4-k_" + r.nextInt(10);
            return new Kernel(name, tensors, scalars, tiles, body(0, new boolean[nVars]));
        }

        private List<TileOp> body(int depth, boolean[] bound) {
            int n = r.nextInt(depth == 0 ? 8 : 4);
            List<TileOp> ops = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                ops.add(op(depth, bound));
            }
            return ops;
        }

        private int tile() {
            return r.nextInt(nTiles);
        }

        private int slot() {
            return r.nextInt(nParams + nVars);
        }

        private long constant() {
            return r.nextInt(3) == 0 ? SPECIAL_LONGS[r.nextInt(SPECIAL_LONGS.length)] : r.nextInt(2001) - 1000;
        }

        private Idx idx() {
            int terms = r.nextInt(4);
            int[] slots = new int[terms];
            long[] coeffs = new long[terms];
            for (int i = 0; i < terms; i++) {
                slots[i] = slot();
                coeffs[i] = constant();
            }
            return new Idx(constant(), slots, coeffs);
        }

        private List<Idx> offsets(int tensor) {
            List<Idx> out = new ArrayList<>();
            for (int d = 0; d < ranks[tensor]; d++) {
                out.add(idx());
            }
            return out;
        }

        private Scalar scalar() {
            return switch (r.nextInt(3)) {
                case 0 -> Scalar.slot(slot());
                case 1 -> Scalar.imm(SPECIAL[r.nextInt(SPECIAL.length)]);
                default -> Scalar.imm(r.nextBoolean() ? Double.longBitsToDouble(r.nextLong()) : r.nextGaussian() * 1e3);
            };
        }

        private TileOp op(int depth, boolean[] bound) {
            int kind = r.nextInt(24);
            if (kind == 23 && depth < 3) {
                int free = -1;
                for (int v = 0; v < nVars; v++) {
                    if (!bound[v]) {
                        free = v;
                    }
                }
                if (free >= 0) {
                    bound[free] = true;
                    List<TileOp> b = body(depth + 1, bound);
                    bound[free] = false;
                    return new TileOp.Loop(nParams + free, idx(), idx(), 1 + r.nextInt(64), b);
                }
            }
            int t = r.nextInt(nTensors);
            return switch (kind) {
                case 0 -> new TileOp.Load(tile(), t, offsets(t), idx(), idx());
                case 1 -> new TileOp.LoadRows(tile(), t, tile(), offsets(t), idx());
                case 2 -> new TileOp.Store(tile(), t, offsets(t));
                case 3 -> new TileOp.Fill(tile(), scalar());
                case 4 -> new TileOp.Copy(tile(), tile());
                case 5 -> new TileOp.Binary(pick(Fn.Binary.values()), tile(), tile(), tile());
                case 6 -> new TileOp.BinaryScalar(pick(Fn.Binary.values()), tile(), tile(), scalar());
                case 7 -> new TileOp.Unary(pick(Fn.Unary.values()), tile(), tile());
                case 8 -> new TileOp.RowBroadcast(pick(Fn.Binary.values()), tile(), tile(), tile());
                case 9 -> new TileOp.ColBroadcast(pick(Fn.Binary.values()), tile(), tile(), tile());
                case 10 -> new TileOp.Reduce(pick(Fn.Reduce.values()), pick(Fn.Axis.values()), tile(), tile());
                case 11 -> new TileOp.MatMul(tile(), tile(), tile(), r.nextBoolean(), r.nextBoolean());
                case 12 -> new TileOp.Cast(tile(), tile(), pick(RoundingMode.values()));
                case 13 -> new TileOp.Transpose(tile(), tile());
                case 14 -> new TileOp.Compare(pick(Fn.Compare.values()), tile(), tile(), tile());
                case 15 -> new TileOp.CompareScalar(pick(Fn.Compare.values()), tile(), tile(), scalar());
                case 16 -> new TileOp.Select(tile(), tile(), tile(), tile());
                case 17 -> new TileOp.GatherRows(tile(), tile(), tile());
                case 18 -> new TileOp.TopK(tile(), tile(), tile(), 1 + r.nextInt(64));
                case 19 -> new TileOp.CumSum(tile(), tile());
                case 20 -> new TileOp.Quantize(tile(), tile(), tile());
                case 21 -> new TileOp.Dequantize(tile(), tile(), tile());
                default -> new TileOp.Iota(tile(), pick(Fn.Axis.values()), scalar());
            };
        }
    }
}
