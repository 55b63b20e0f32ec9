// GEMM with an elementwise epilogue: C = act(A·B + bias), act = GELU (tanh form) or SiLU.
// Shows: a cube kernel that loops over K inside itself (matmulAcc into one fp32 accumulator tile), bf16 operands,
// and an intermediate handed from the cube task to a vector task that adds the bias and applies the activation.
// Run: ./jpto run examples/GemmEpilogue.java                  (tiny: GELU)
//      ./jpto run examples/GemmEpilogue.java --preset tiny_silu
//      ./jpto run examples/GemmEpilogue.java --preset demo     (SiLU, 1024×1024×1024)
// Independent check: ./jpto run examples/GemmEpilogue.java --output-dir out --save-tensors
//                    python3 examples/numpy_check.py gemm_epilogue out [--preset tiny_silu]

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

/** C = act(A·B + bias): one cube task and one vector task per tm × tn block of C. */
public final class GemmEpilogue implements ProgramProvider {
    static final String NAME = "examples.gemm_epilogue";

    /** The epilogue's activation: the ISA's op and the same function in double for the golden. */
    public enum Act {
        GELU(Fn.Unary.GELU), SILU(Fn.Unary.SILU);

        final Fn.Unary op;

        Act(Fn.Unary op) {
            this.op = op;
        }

        double apply(double x) {
            return switch (this) {
                case GELU -> 0.5 * x * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (x + 0.044715 * x * x * x)));
                case SILU -> x / (1 + Math.exp(-x));
            };
        }
    }

    /** A is m×k, B is k×n (bf16), bias 1×n fp32, C m×n fp32; K advances tk at a time inside the cube kernel. */
    public record Preset(String name, int m, int k, int n, int tm, int tn, int tk, Act act) {
    }

    static final List<Preset> PRESETS = List.of(new Preset("tiny", 128, 256, 128, 64, 64, 64, Act.GELU),
            new Preset("tiny_silu", 128, 256, 128, 64, 64, 64, Act.SILU),
            new Preset("demo", 1024, 1024, 1024, 128, 128, 128, Act.SILU));

    @Override
    public List<ProgramDef> programs() {
        return List.of(new PresetProgram<>(NAME, "C = act(A·B + bias): K looped in the cube kernel (bf16), bias and "
                + "GELU/SiLU on a vector kernel", PRESETS, Preset::name, "tiny", GemmEpilogue::spec));
    }

    static ProgramSpec spec(Preset p) {
        // The golden multiplies the same bf16 values in double; the chip sums k fp32 products in fp32. With
        // |a|,|b| < 1 each partial sum stays below ~k/4, so the rounding error is ~√k·2^-24·(k/4) < 1e-5 here;
        // both activations have slope ≤ 1.13, so 1e-4 absolute and relative bounds it with room.
        return new ProgramSpec(NAME, p.name(), program(p),
                List.of(InputSpec.of("a", DType.BF16, new long[] {p.m(), p.k()}, new Init.Uniform(-1, 1)),
                        InputSpec.of("b", DType.BF16, new long[] {p.k(), p.n()}, new Init.Uniform(-1, 1)),
                        InputSpec.of("bias", DType.FP32, new long[] {1, p.n()}, new Init.Uniform(-2, 2))),
                (in, out) -> golden(in, out, p.act()), Map.of("c", Comparators.allclose(1e-4, 1e-4)), Map.of());
    }

    static Program program(Preset p) {
        ProgramBuilder pb = ProgramBuilder.program("gemm_epilogue");
        TensorVar a = pb.input("a", DType.BF16, p.m(), p.k());
        TensorVar b = pb.input("b", DType.BF16, p.k(), p.n());
        TensorVar bias = pb.input("bias", DType.FP32, 1, p.n());
        TensorVar c = pb.output("c", DType.FP32, p.m(), p.n());
        KernelRef gemm = pb.aic(gemmKernel(p));
        KernelRef epilogue = pb.aiv(epilogueKernel(p));
        pb.orchestrate(o -> o.forRange("i", p.m() / p.tm(), i -> o.forRange("j", p.n() / p.tn(), j -> {
            TensorVar acc = o.alloc("acc", DType.FP32, p.tm(), p.tn());
            o.submit(gemm, in(a.block(p.tm(), p.k()).at(i, 0)), in(b.block(p.k(), p.tn()).at(0, j)), out(acc));
            o.submit(epilogue, in(acc), in(bias.block(1, p.tn()).at(0, j)),
                    outExisting(c.block(p.tm(), p.tn()).at(i, j)));
        })));
        return pb.build();
    }

    /** acc = Σ over K slices of a[:, kt] · b[kt, :], accumulated in fp32. */
    static Kernel gemmKernel(Preset p) {
        int tk = p.tk();
        KernelBuilder kb = KernelBuilder.kernel("gemm_k_loop");
        KTensor a = kb.input("a", DType.BF16, 2);
        KTensor b = kb.input("b", DType.BF16, 2);
        KTensor acc = kb.output("acc", DType.FP32, 2);
        KTile ta = kb.tile("ta", DType.BF16, p.tm(), tk);
        KTile tb = kb.tile("tb", DType.BF16, tk, p.tn());
        KTile tc = kb.tile("tc", DType.FP32, p.tm(), p.tn());
        kb.fill(tc, 0.0).forRange("kt", 0, p.k() / tk, kt -> kb.load(ta, a, 0, kt.times(tk))
                .load(tb, b, kt.times(tk), 0).matmulAcc(tc, ta, tb));
        kb.store(tc, acc, 0, 0);
        return kb.build();
    }

    /** c = act(acc + bias), the bias row broadcast down the block. */
    static Kernel epilogueKernel(Preset p) {
        KernelBuilder kb = KernelBuilder.kernel("bias_" + p.act().name().toLowerCase());
        KTensor acc = kb.input("acc", DType.FP32, 2);
        KTensor bias = kb.input("bias", DType.FP32, 2);
        KTensor c = kb.output("c", DType.FP32, 2);
        KTile t = kb.tile("t", DType.FP32, p.tm(), p.tn());
        KTile tb = kb.tile("tb", DType.FP32, 1, p.tn());
        kb.load(t, acc, 0, 0).load(tb, bias, 0, 0).colBroadcast(Fn.Binary.ADD, t, t, tb).unary(p.act().op, t, t)
                .store(t, c, 0, 0);
        return kb.build();
    }

    /** The reference: the dot products in double, then the activation from its formula. */
    static void golden(Map<String, Tensor> in, Map<String, Tensor> out, Act act) {
        Tensor a = in.get("a");
        Tensor b = in.get("b");
        Tensor bias = in.get("bias");
        Tensor c = out.get("c");
        int m = (int) a.shape(0);
        int k = (int) a.shape(1);
        int n = (int) b.shape(1);
        double[] av = a.toDoubleArray();
        double[] bv = b.toDoubleArray();
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                double s = bias.getDouble(j);
                for (int q = 0; q < k; q++) {
                    s += av[i * k + q] * bv[q * n + j];
                }
                c.setDouble((long) i * n + j, act.apply(s));
            }
        }
    }
}
