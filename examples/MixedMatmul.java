// A mixed cube + vector task: y = relu(x·w + b), run with `./jpto run examples/MixedMatmul.java`.
// One submit, block_num blocks: per block the cube lane multiplies a row band and the two vector lanes each finish
// half of it (docs/launches.md, "Mixed tasks"). The preset sync40 asks for more blocks than clusters that can start
// together, which fails the run with code 7 (REQUIRE_SYNC_START_INVALID).

import static dev.jpto.compiler.dsl.TaskArg.in;
import static dev.jpto.compiler.dsl.TaskArg.out;
import static dev.jpto.compiler.dsl.TaskArg.outExisting;
import static dev.jpto.compiler.dsl.TaskArg.scalar;

import dev.jpto.compiler.dsl.KScalar;
import dev.jpto.compiler.dsl.KTensor;
import dev.jpto.compiler.dsl.KTile;
import dev.jpto.compiler.dsl.KernelBuilder;
import dev.jpto.compiler.dsl.KernelRef;
import dev.jpto.compiler.dsl.Orch;
import dev.jpto.compiler.dsl.ProgramBuilder;
import dev.jpto.compiler.dsl.SubmitOptions;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.compiler.ir.Program;
import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.isa.kernel.Kernel;
import dev.jpto.isa.op.Fn;
import dev.jpto.lib.compare.Comparators;
import dev.jpto.lib.gen.Init;
import dev.jpto.lib.registry.InputSpec;
import dev.jpto.lib.registry.PresetProgram;
import dev.jpto.lib.registry.ProgramDef;
import dev.jpto.lib.registry.ProgramProvider;
import dev.jpto.lib.registry.ProgramSpec;
import java.util.List;
import java.util.Map;

/** A dense layer as one mixed task: matmul on each cluster's cube core, bias and ReLU on its two vector cores. */
public final class MixedMatmul implements ProgramProvider {
    /** x is m×k, w is k×n, b is 1×n; each of the m / band blocks computes band rows of y. */
    public record Preset(String name, int m, int k, int n, int band, boolean syncStart) {
    }

    static final List<Preset> PRESETS = List.of(new Preset("tiny", 128, 64, 64, 32, true),
            new Preset("demo", 1024, 128, 128, 64, false),
            new Preset("sync40", 640, 32, 32, 16, true));

    @Override
    public List<ProgramDef> programs() {
        return List.of(new PresetProgram<>("examples.mixed_matmul", "y = relu(x·w + b) as one mixed task: matmul on "
                + "the cube lane, bias and ReLU on two vector lanes", PRESETS, Preset::name, "tiny",
                MixedMatmul::spec));
    }

    static ProgramSpec spec(Preset p) {
        return new ProgramSpec("examples.mixed_matmul", p.name(), program(p),
                List.of(InputSpec.of("x", DType.FP32, new long[] {p.m(), p.k()}, new Init.Uniform(-1, 1)),
                        InputSpec.of("w", DType.FP32, new long[] {p.k(), p.n()}, new Init.Uniform(-1, 1)),
                        InputSpec.of("b", DType.FP32, new long[] {1, p.n()}, new Init.Uniform(-1, 1))),
                MixedMatmul::golden, Map.of("y", Comparators.allclose(1e-4, 1e-4)), Map.of());
    }

    static Program program(Preset p) {
        int band = p.band();
        ProgramBuilder pb = ProgramBuilder.program("mixed_matmul");
        TensorVar x = pb.input("x", DType.FP32, p.m(), p.k());
        TensorVar w = pb.input("w", DType.FP32, p.k(), p.n());
        TensorVar b = pb.input("b", DType.FP32, 1, p.n());
        TensorVar y = pb.output("y", DType.FP32, p.m(), p.n());
        KernelRef mm = pb.aic(cubeLane(p));
        KernelRef epilogue = pb.aiv(vectorLane(p));
        pb.orchestrate(o -> {
            TensorVar acc = o.alloc("acc", DType.FP32, p.m(), p.n());
            SubmitOptions blocks = SubmitOptions.blocks(p.m() / band);
            // every lane gets the same arguments; r0 is the block's band, r1 the half of it this vector lane owns
            o.submitMixed(p.syncStart() ? blocks.syncStart() : blocks, mm, epilogue, epilogue,
                    in(x), in(w), in(b), out(acc), outExisting(y), scalar(Orch.BLOCK_IDX.times(band)),
                    scalar(Orch.BLOCK_IDX.times(band).plus(Orch.SUB_BLOCK_IDX.times(band / 2))));
        });
        return pb.build();
    }

    /** The lanes' shared parameters: x, w, b in; acc (the cube's product) and y out; row offsets r0, r1. */
    private record Params(KTensor x, KTensor w, KTensor b, KTensor acc, KTensor y, KScalar r0, KScalar r1) {
        static Params of(KernelBuilder kb, boolean cube) {
            return new Params(kb.input("x", DType.FP32, 2), kb.input("w", DType.FP32, 2), kb.input("b", DType.FP32, 2),
                    cube ? kb.output("acc", DType.FP32, 2) : kb.input("acc", DType.FP32, 2),
                    kb.output("y", DType.FP32, 2), kb.scalar("r0"), kb.scalar("r1"));
        }
    }

    /** acc[r0 .. r0 + band) = x[r0 .. r0 + band) · w. */
    static Kernel cubeLane(Preset p) {
        KernelBuilder kb = KernelBuilder.kernel("band_mm");
        Params a = Params.of(kb, true);
        KTile tx = kb.tile("tx", DType.FP32, p.band(), p.k());
        KTile tw = kb.tile("tw", DType.FP32, p.k(), p.n());
        KTile tc = kb.tile("tc", DType.FP32, p.band(), p.n());
        kb.load(tx, a.x(), a.r0(), 0).load(tw, a.w(), 0, 0).matmul(tc, tx, tw).store(tc, a.acc(), a.r0(), 0);
        return kb.build();
    }

    /** y[r1 .. r1 + band/2) = max(acc[r1 .. r1 + band/2) + b, 0). */
    static Kernel vectorLane(Preset p) {
        KernelBuilder kb = KernelBuilder.kernel("half_bias_relu");
        Params a = Params.of(kb, false);
        KTile ta = kb.tile("ta", DType.FP32, p.band() / 2, p.n());
        KTile tb = kb.tile("tb", DType.FP32, 1, p.n());
        kb.load(ta, a.acc(), a.r1(), 0).load(tb, a.b(), 0, 0)
                .colBroadcast(Fn.Binary.ADD, ta, ta, tb).relu(ta, ta).store(ta, a.y(), a.r1(), 0);
        return kb.build();
    }

    /** The reference: plain loops in double. */
    static void golden(Map<String, Tensor> in, Map<String, Tensor> out) {
        Tensor x = in.get("x");
        Tensor w = in.get("w");
        Tensor b = in.get("b");
        Tensor y = out.get("y");
        int m = (int) x.shape(0);
        int k = (int) x.shape(1);
        int n = (int) w.shape(1);
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                double s = b.getDouble(j);
                for (int q = 0; q < k; q++) {
                    s += x.getDouble((long) i * k + q) * w.getDouble((long) q * n + j);
                }
                y.setDouble((long) i * n + j, Math.max(s, 0));
            }
        }
    }
}
