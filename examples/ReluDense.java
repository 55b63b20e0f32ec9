// Your first kernel: y = relu(x·w + b), run with `./jpto run examples/ReluDense.java`.
// The walk-through is docs/tutorial.md; this file is the whole program.

import static dev.jpto.compiler.dsl.TaskArg.in;
import static dev.jpto.compiler.dsl.TaskArg.out;
import static dev.jpto.compiler.dsl.TaskArg.outExisting;

import dev.jpto.compiler.dsl.KTensor;
import dev.jpto.compiler.dsl.KTile;
import dev.jpto.compiler.dsl.KernelBuilder;
import dev.jpto.compiler.dsl.KernelRef;
import dev.jpto.compiler.dsl.ProgramBuilder;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.compiler.ir.Program;
import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.isa.kernel.Kernel;
import dev.jpto.lib.compare.Comparators;
import dev.jpto.lib.gen.Init;
import dev.jpto.lib.registry.InputSpec;
import dev.jpto.lib.registry.PresetProgram;
import dev.jpto.lib.registry.ProgramDef;
import dev.jpto.lib.registry.ProgramProvider;
import dev.jpto.lib.registry.ProgramSpec;
import java.util.List;
import java.util.Map;

/** A dense layer with a ReLU: a cube kernel multiplies, a vector kernel adds the bias and clamps. */
public final class ReluDense implements ProgramProvider {
    /** A size: x is m×k, w is k×n, b is 1×n; each task computes one tile×tile block of y. */
    public record Preset(String name, int m, int k, int n, int tile) {
    }

    static final List<Preset> PRESETS = List.of(new Preset("tiny", 128, 64, 128, 64),
            new Preset("demo", 512, 128, 512, 128));

    @Override
    public List<ProgramDef> programs() {
        return List.of(new PresetProgram<>("tutorial.relu_dense", "y = relu(x·w + b): matmul on the cube, bias and "
                + "ReLU on the vector core", PRESETS, Preset::name, "tiny", ReluDense::spec));
    }

    static ProgramSpec spec(Preset p) {
        return new ProgramSpec("tutorial.relu_dense", p.name(), program(p),
                List.of(InputSpec.of("x", DType.FP32, new long[] {p.m(), p.k()}, new Init.Uniform(-1, 1)),
                        InputSpec.of("w", DType.FP32, new long[] {p.k(), p.n()}, new Init.Uniform(-1, 1)),
                        InputSpec.of("b", DType.FP32, new long[] {1, p.n()}, new Init.Uniform(-1, 1))),
                ReluDense::golden, Map.of("y", Comparators.allclose(1e-4, 1e-4)), Map.of());
    }

    static Program program(Preset p) {
        int t = p.tile();
        ProgramBuilder pb = ProgramBuilder.program("relu_dense");
        TensorVar x = pb.input("x", DType.FP32, p.m(), p.k());
        TensorVar w = pb.input("w", DType.FP32, p.k(), p.n());
        TensorVar b = pb.input("b", DType.FP32, 1, p.n());
        TensorVar y = pb.output("y", DType.FP32, p.m(), p.n());
        KernelRef mm = pb.aic(matmulKernel(p.k(), t));
        KernelRef epilogue = pb.aiv(biasReluKernel(t));
        pb.orchestrate(o -> o.forRange("i", p.m() / t, i -> o.forRange("j", p.n() / t, j -> {
            TensorVar acc = o.alloc("acc", DType.FP32, t, t); // an intermediate on the heap ring
            o.submit(mm, in(x.block(t, p.k()).at(i, 0)), in(w.block(p.k(), t).at(0, j)), out(acc));
            o.submit(epilogue, in(acc), in(b.block(1, t).at(0, j)), outExisting(y.block(t, t).at(i, j)));
        })));
        return pb.build();
    }

    /** acc = x_block · w_block (the whole K in one tile multiply). */
    static Kernel matmulKernel(int k, int t) {
        KernelBuilder kb = KernelBuilder.kernel("dense_mm");
        KTensor x = kb.input("x", DType.FP32, 2);
        KTensor w = kb.input("w", DType.FP32, 2);
        KTensor acc = kb.output("acc", DType.FP32, 2);
        KTile tx = kb.tile("tx", DType.FP32, t, k);
        KTile tw = kb.tile("tw", DType.FP32, k, t);
        KTile tc = kb.tile("tc", DType.FP32, t, t);
        kb.load(tx, x, 0, 0).load(tw, w, 0, 0).matmul(tc, tx, tw).store(tc, acc, 0, 0);
        return kb.build();
    }

    /** y = max(acc + b, 0), b broadcast down the rows. */
    static Kernel biasReluKernel(int t) {
        KernelBuilder kb = KernelBuilder.kernel("bias_relu");
        KTensor acc = kb.input("acc", DType.FP32, 2);
        KTensor b = kb.input("b", DType.FP32, 2);
        KTensor y = kb.output("y", DType.FP32, 2);
        KTile ta = kb.tile("ta", DType.FP32, t, t);
        KTile tb = kb.tile("tb", DType.FP32, 1, t);
        kb.load(ta, acc, 0, 0).load(tb, b, 0, 0)
                .colBroadcast(dev.jpto.isa.op.Fn.Binary.ADD, ta, ta, tb).relu(ta, ta).store(ta, y, 0, 0);
        return kb.build();
    }

    /** The reference: plain loops in double, rounded to fp32 once. */
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
