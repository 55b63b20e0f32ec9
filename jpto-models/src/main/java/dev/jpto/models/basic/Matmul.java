package dev.jpto.models.basic;

import static dev.jpto.compiler.dsl.TaskArg.in;
import static dev.jpto.compiler.dsl.TaskArg.out;
import static dev.jpto.compiler.dsl.TaskArg.outExisting;
import static dev.jpto.isa.DType.FP32;

import dev.jpto.compiler.dsl.KTensor;
import dev.jpto.compiler.dsl.KTile;
import dev.jpto.compiler.dsl.KernelBuilder;
import dev.jpto.compiler.dsl.KernelRef;
import dev.jpto.compiler.dsl.ProgramBuilder;
import dev.jpto.compiler.dsl.TaskArg;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.compiler.ir.Program;
import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.lib.compare.Comparators;
import dev.jpto.lib.gen.Init;
import dev.jpto.lib.registry.InputSpec;
import dev.jpto.lib.registry.PresetProgram;
import dev.jpto.lib.registry.ProgramDef;
import dev.jpto.lib.registry.ProgramSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * {@code C = A·B} (A, B fp32 or bf16; C fp32), tiled {@code tile × tile} with split-K: for every output tile,
 * {@code kSplit} cube tasks each multiply one K chunk (looping over its K tiles inside the kernel) into a partial
 * product on the heap ring, and one vector task sums the partials into C. All in the root scope, so the heap ring
 * must hold every partial at once: {@code (M/tile)·(N/tile)·kSplit·tile²·4} bytes.
 */
public final class Matmul {
    public static final String NAME = "basic.matmul";

    /** A size; {@code dtype} is A's and B's. */
    public record Preset(String name, int m, int k, int n, int tile, int kSplit, DType dtype) {
        public Preset {
            Shapes.divides(NAME, "m", m, "tile", tile);
            Shapes.divides(NAME, "n", n, "tile", tile);
            Shapes.divides(NAME, "k", k, "tile*k_split", (long) tile * kSplit);
            if (dtype != FP32 && dtype != DType.BF16) {
                throw new IllegalArgumentException(NAME + ": dtype must be fp32 or bf16: dtype=" + dtype.text());
            }
        }

        /** Heap bytes the partial products need (all live at once in the root scope). */
        public long partialBytes() {
            return (long) (m / tile) * (n / tile) * kSplit * tile * tile * FP32.byteSize();
        }
    }

    public static final List<Preset> PRESETS = List.of(
            new Preset("tiny", 128, 128, 128, 64, 2, FP32),
            new Preset("tiny_bf16", 128, 256, 128, 64, 2, DType.BF16),
            new Preset("demo", 512, 1024, 512, 128, 4, DType.BF16),
            new Preset("demo_fp32", 512, 1024, 512, 128, 4, FP32),
            new Preset("large", 2048, 2048, 2048, 128, 4, DType.BF16));

    private Matmul() {
    }

    public static ProgramDef def() {
        return new PresetProgram<>(NAME, "C = A·B tiled with split-K partials on the heap ring (bf16 or fp32 inputs,"
                + " fp32 C)", PRESETS, Preset::name, "demo", Matmul::spec);
    }

    static ProgramSpec spec(Preset p) {
        return new ProgramSpec(NAME, p.name(), program(p),
                List.of(InputSpec.of("a", p.dtype(), new long[] {p.m(), p.k()}, new Init.Uniform(-1, 1)),
                        InputSpec.of("b", p.dtype(), new long[] {p.k(), p.n()}, new Init.Uniform(-1, 1))),
                Matmul::golden,
                // bf16 products are exact in fp32, so both variants differ from fp64 only by fp32 accumulation
                Map.of("c", Comparators.allclose(1e-4, 1e-4)), Map.of());
    }

    public static Program program(Preset p) {
        int t = p.tile();
        int chunk = p.k() / p.kSplit();
        ProgramBuilder pb = ProgramBuilder.program("matmul");
        TensorVar a = pb.input("a", p.dtype(), p.m(), p.k());
        TensorVar b = pb.input("b", p.dtype(), p.k(), p.n());
        TensorVar c = pb.output("c", FP32, p.m(), p.n());
        KernelRef partial = pb.aic(partialKernel(p.dtype(), t, chunk / t));
        KernelRef reduce = p.kSplit() > 1 ? pb.aiv(reduceKernel(t, p.kSplit())) : null;
        pb.orchestrate(o -> o.forRange("i", p.m() / t, i -> o.forRange("j", p.n() / t, j -> {
            TensorVar cij = c.block(t, t).at(i, j);
            if (reduce == null) {
                o.submit(partial, in(a.block(t, chunk).at(i, 0)), in(b.block(chunk, t).at(0, j)), outExisting(cij));
                return;
            }
            List<TaskArg> sumArgs = new ArrayList<>();
            for (int s = 0; s < p.kSplit(); s++) {
                TensorVar part = o.alloc("part" + s, FP32, t, t);
                o.submit(partial, in(a.block(t, chunk).at(i, s)), in(b.block(chunk, t).at(s, j)), out(part));
                sumArgs.add(in(part));
            }
            sumArgs.add(outExisting(cij));
            o.submit(reduce, sumArgs.toArray(TaskArg[]::new));
        })));
        return pb.build();
    }

    /** One K chunk: {@code p = Σ_kt a[:, kt] · b[kt, :]}, fp32 accumulation, K tiles looped in the kernel. */
    private static dev.jpto.isa.kernel.Kernel partialKernel(DType dtype, int t, int kTiles) {
        KernelBuilder k = KernelBuilder.kernel("mm_partial");
        KTensor a = k.input("a", dtype, 2);
        KTensor b = k.input("b", dtype, 2);
        KTensor p = k.output("p", FP32, 2);
        KTile ta = k.tile("ta", dtype, t, t);
        KTile tb = k.tile("tb", dtype, t, t);
        KTile tc = k.tile("tc", FP32, t, t);
        k.fill(tc, 0.0);
        k.forRange("kt", 0, kTiles, kt -> k.load(ta, a, 0, kt.times(t)).load(tb, b, kt.times(t), 0)
                .matmulAcc(tc, ta, tb));
        k.store(tc, p, 0, 0);
        return k.build();
    }

    /** {@code c = p0 + p1 + …}, in split order. */
    private static dev.jpto.isa.kernel.Kernel reduceKernel(int t, int parts) {
        KernelBuilder k = KernelBuilder.kernel("mm_reduce");
        List<KTensor> ps = new ArrayList<>();
        for (int s = 0; s < parts; s++) {
            ps.add(k.input("p" + s, FP32, 2));
        }
        KTensor c = k.output("c", FP32, 2);
        KTile acc = k.tile("acc", FP32, t, t);
        KTile next = k.tile("next", FP32, t, t);
        k.load(acc, ps.getFirst(), 0, 0);
        for (int s = 1; s < parts; s++) {
            k.load(next, ps.get(s), 0, 0).add(acc, acc, next);
        }
        k.store(acc, c, 0, 0);
        return k.build();
    }

    public static void golden(Map<String, Tensor> in, Map<String, Tensor> out) {
        Tensor ta = in.get("a");
        Tensor tb = in.get("b");
        int m = Dense.dim(ta, 0);
        int kk = Dense.dim(ta, 1);
        int n = Dense.dim(tb, 1);
        double[] a = Dense.read(ta);
        double[] b = Dense.read(tb);
        double[] c = new double[m * n];
        // rows are independent: computed in parallel, each row's sums in k order as a sequential loop would
        IntStream.range(0, m).parallel().forEach(i -> {
            for (int k = 0; k < kk; k++) {
                double aik = a[i * kk + k];
                int bRow = k * n;
                int cRow = i * n;
                for (int j = 0; j < n; j++) {
                    c[cRow + j] += aik * b[bRow + j];
                }
            }
        });
        Dense.write(out.get("c"), c);
    }
}
