// Layer normalisation, y = (x − mean) / √(var + eps) · γ + β per row, on the vector cores.
// Shows: row reductions (sum_rows), row and column broadcasts, rsqrt, and a bf16 input computed in fp32 tiles.
// Run: ./jpto run examples/LayerNorm.java            (tiny: fp32 in and out)
//      ./jpto run examples/LayerNorm.java --preset demo   (bf16 in and out, 1024 rows)
// Independent check: ./jpto run examples/LayerNorm.java --output-dir out --save-tensors
//                    python3 examples/numpy_check.py layer_norm out

import static dev.jpto.compiler.dsl.TaskArg.in;
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
import dev.jpto.lib.compare.GoldenComparator;
import dev.jpto.lib.gen.Init;
import dev.jpto.lib.registry.InputSpec;
import dev.jpto.lib.registry.PresetProgram;
import dev.jpto.lib.registry.ProgramDef;
import dev.jpto.lib.registry.ProgramProvider;
import dev.jpto.lib.registry.ProgramSpec;
import java.util.List;
import java.util.Map;

/** LayerNorm over the last axis: one task per block of rows, each row normalised in fp32. */
public final class LayerNorm implements ProgramProvider {
    static final String NAME = "examples.layer_norm";
    static final double EPS = 1e-5;

    /** x and y are rows × hidden of {@code dtype}; γ and β are 1 × hidden fp32; a task takes rowBlock rows. */
    public record Preset(String name, int rows, int hidden, int rowBlock, DType dtype) {
    }

    static final List<Preset> PRESETS = List.of(new Preset("tiny", 64, 256, 16, DType.FP32),
            new Preset("demo", 1024, 1024, 32, DType.BF16));

    @Override
    public List<ProgramDef> programs() {
        return List.of(new PresetProgram<>(NAME, "layer norm per row: (x − mean)/√(var + eps)·γ + β, fp32 math",
                PRESETS, Preset::name, "tiny", LayerNorm::spec));
    }

    static ProgramSpec spec(Preset p) {
        // fp32: mean and variance are fp32 sums of `hidden` terms (relative error ~1e-6 here), so 1e-4 is ample.
        // bf16: the chip rounds its fp32 result to bf16, the golden its exact one; where the two straddle a
        // rounding boundary they land one bf16 ulp apart, at most 2^-7 relative. atol covers the fp32 error
        // (~1e-6) on outputs near zero.
        GoldenComparator cmp = p.dtype() == DType.FP32 ? Comparators.allclose(1e-4, 1e-4)
                : Comparators.allclose(1.0 / 128, 1e-5);
        return new ProgramSpec(NAME, p.name(), program(p),
                List.of(InputSpec.of("x", p.dtype(), new long[] {p.rows(), p.hidden()}, new Init.Normal(0.5, 2)),
                        InputSpec.of("gamma", DType.FP32, new long[] {1, p.hidden()}, new Init.Uniform(0.5, 1.5)),
                        InputSpec.of("beta", DType.FP32, new long[] {1, p.hidden()}, new Init.Uniform(-0.5, 0.5))),
                LayerNorm::golden, Map.of("y", cmp), Map.of());
    }

    static Program program(Preset p) {
        int rb = p.rowBlock();
        ProgramBuilder pb = ProgramBuilder.program("layer_norm");
        TensorVar x = pb.input("x", p.dtype(), p.rows(), p.hidden());
        TensorVar gamma = pb.input("gamma", DType.FP32, 1, p.hidden());
        TensorVar beta = pb.input("beta", DType.FP32, 1, p.hidden());
        TensorVar y = pb.output("y", p.dtype(), p.rows(), p.hidden());
        KernelRef norm = pb.aiv(kernel(p));
        // every task reads the same γ and β: readers never wait for each other
        pb.orchestrate(o -> o.forRange("i", p.rows() / rb, i -> o.submit(norm,
                in(x.block(rb, p.hidden()).at(i, 0)), in(gamma), in(beta),
                outExisting(y.block(rb, p.hidden()).at(i, 0)))));
        return pb.build();
    }

    static Kernel kernel(Preset p) {
        int rb = p.rowBlock();
        int h = p.hidden();
        KernelBuilder kb = KernelBuilder.kernel("layer_norm_rows");
        KTensor x = kb.input("x", p.dtype(), 2);
        KTensor gamma = kb.input("gamma", DType.FP32, 2);
        KTensor beta = kb.input("beta", DType.FP32, 2);
        KTensor y = kb.output("y", p.dtype(), 2);
        KTile tx = kb.tile("tx", DType.FP32, rb, h); // a bf16 x is widened on load: all math in fp32
        KTile sq = kb.tile("sq", DType.FP32, rb, h);
        KTile mean = kb.tile("mean", DType.FP32, rb, 1);
        KTile var = kb.tile("var", DType.FP32, rb, 1);
        KTile tg = kb.tile("tg", DType.FP32, 1, h);
        KTile tb = kb.tile("tb", DType.FP32, 1, h);
        kb.load(tx, x, 0, 0).load(tg, gamma, 0, 0).load(tb, beta, 0, 0)
                .rowSum(mean, tx).muls(mean, mean, 1.0 / h)
                .rowBroadcast(Fn.Binary.SUB, tx, tx, mean)           // x − mean
                .mul(sq, tx, tx).rowSum(var, sq).muls(var, var, 1.0 / h)
                .adds(var, var, EPS).unary(Fn.Unary.RSQRT, var, var) // 1/√(var + eps)
                .rowBroadcast(Fn.Binary.MUL, tx, tx, var)
                .colBroadcast(Fn.Binary.MUL, tx, tx, tg)
                .colBroadcast(Fn.Binary.ADD, tx, tx, tb)
                .store(tx, y, 0, 0);                                  // rounded once to y's dtype
        return kb.build();
    }

    /** The reference: two passes per row in double. */
    static void golden(Map<String, Tensor> in, Map<String, Tensor> out) {
        Tensor x = in.get("x");
        Tensor gamma = in.get("gamma");
        Tensor beta = in.get("beta");
        Tensor y = out.get("y");
        int rows = (int) x.shape(0);
        int h = (int) x.shape(1);
        for (int r = 0; r < rows; r++) {
            long base = (long) r * h;
            double sum = 0;
            for (int c = 0; c < h; c++) {
                sum += x.getDouble(base + c);
            }
            double mean = sum / h;
            double sq = 0;
            for (int c = 0; c < h; c++) {
                double d = x.getDouble(base + c) - mean;
                sq += d * d;
            }
            double inv = 1 / Math.sqrt(sq / h + EPS);
            for (int c = 0; c < h; c++) {
                y.setDouble(base + c, (x.getDouble(base + c) - mean) * inv * gamma.getDouble(c) + beta.getDouble(c));
            }
        }
    }
}
