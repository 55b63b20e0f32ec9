// Q, K and V projections from one input: q = x·Wq, k = x·Wk, v = x·Wv (bf16 operands, fp32 results).
// Shows: one kernel reused for three weight matrices (its tile shapes fit all three), and many tasks that read
// the same x: a tensor read by several tasks is shared, never copied, and readers do not wait for each other.
// The k and v projections are narrower than q (grouped-query attention: fewer KV heads than query heads).
// Run: ./jpto run examples/MultiProjection.java            (tiny)
//      ./jpto run examples/MultiProjection.java --preset demo
// Independent check: ./jpto run examples/MultiProjection.java --output-dir out --save-tensors
//                    python3 examples/numpy_check.py multi_projection out

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

/** Three projections of x [tokens, hidden]: one task per (projection, tn-wide column block). */
public final class MultiProjection implements ProgramProvider {
    static final String NAME = "examples.multi_projection";
    static final List<String> OUTPUTS = List.of("q", "k", "v");

    /** x is tokens × hidden; Wq is hidden × qDim, Wk and Wv hidden × kvDim; K advances tk at a time. */
    public record Preset(String name, int tokens, int hidden, int qDim, int kvDim, int tn, int tk) {
        int width(String output) {
            return output.equals("q") ? qDim : kvDim;
        }
    }

    static final List<Preset> PRESETS = List.of(new Preset("tiny", 16, 256, 256, 128, 64, 64),
            new Preset("demo", 64, 2048, 2048, 512, 128, 128));

    @Override
    public List<ProgramDef> programs() {
        return List.of(new PresetProgram<>(NAME, "q, k, v = x·Wq, x·Wk, x·Wv: three outputs from one shared input",
                PRESETS, Preset::name, "tiny", MultiProjection::spec));
    }

    static ProgramSpec spec(Preset p) {
        // Weights are scaled by 1/√hidden (as a real model's are) so each output is O(0.3). The golden multiplies
        // the same bf16 values in double; the chip sums `hidden` fp32 products in fp32: error ~√hidden·2^-24·0.3,
        // below 1e-6 here, so 1e-4 relative with a 1e-5 floor has wide room yet catches a wrong tile or block.
        double w = 1 / Math.sqrt(p.hidden());
        GoldenComparator cmp = Comparators.allclose(1e-4, 1e-5);
        return new ProgramSpec(NAME, p.name(), program(p),
                List.of(InputSpec.of("x", DType.BF16, new long[] {p.tokens(), p.hidden()}, new Init.Uniform(-1, 1)),
                        InputSpec.of("wq", DType.BF16, new long[] {p.hidden(), p.qDim()}, new Init.Uniform(-w, w)),
                        InputSpec.of("wk", DType.BF16, new long[] {p.hidden(), p.kvDim()}, new Init.Uniform(-w, w)),
                        InputSpec.of("wv", DType.BF16, new long[] {p.hidden(), p.kvDim()}, new Init.Uniform(-w, w))),
                MultiProjection::golden, Map.of("q", cmp, "k", cmp, "v", cmp), Map.of());
    }

    static Program program(Preset p) {
        ProgramBuilder pb = ProgramBuilder.program("multi_projection");
        TensorVar x = pb.input("x", DType.BF16, p.tokens(), p.hidden());
        List<TensorVar> weights = OUTPUTS.stream()
                .map(o -> pb.input("w" + o, DType.BF16, p.hidden(), p.width(o))).toList();
        List<TensorVar> outputs = OUTPUTS.stream()
                .map(o -> pb.output(o, DType.FP32, p.tokens(), p.width(o))).toList();
        KernelRef proj = pb.aic(projKernel(p));
        pb.orchestrate(o -> {
            for (int k = 0; k < OUTPUTS.size(); k++) { // a Java loop: three unrolled orchestration loops
                TensorVar wt = weights.get(k);
                TensorVar y = outputs.get(k);
                o.forRange(OUTPUTS.get(k) + "_j", p.width(OUTPUTS.get(k)) / p.tn(), j -> o.submit(proj, in(x),
                        in(wt.block(p.hidden(), p.tn()).at(0, j)), outExisting(y.block(p.tokens(), p.tn()).at(0, j))));
            }
        });
        return pb.build();
    }

    /** y = x · w for one tn-wide column block, K accumulated tk at a time in fp32. */
    static Kernel projKernel(Preset p) {
        int tk = p.tk();
        KernelBuilder kb = KernelBuilder.kernel("proj");
        KTensor x = kb.input("x", DType.BF16, 2);
        KTensor w = kb.input("w", DType.BF16, 2);
        KTensor y = kb.output("y", DType.FP32, 2);
        KTile tx = kb.tile("tx", DType.BF16, p.tokens(), tk);
        KTile tw = kb.tile("tw", DType.BF16, tk, p.tn());
        KTile acc = kb.tile("acc", DType.FP32, p.tokens(), p.tn());
        kb.fill(acc, 0.0).forRange("kt", 0, p.hidden() / tk, kt -> kb.load(tx, x, 0, kt.times(tk))
                .load(tw, w, kt.times(tk), 0).matmulAcc(acc, tx, tw));
        kb.store(acc, y, 0, 0);
        return kb.build();
    }

    /** The reference: each projection's dot products in double. */
    static void golden(Map<String, Tensor> in, Map<String, Tensor> out) {
        double[] x = in.get("x").toDoubleArray();
        int tokens = (int) in.get("x").shape(0);
        int hidden = (int) in.get("x").shape(1);
        for (String o : OUTPUTS) {
            Tensor wt = in.get("w" + o);
            Tensor y = out.get(o);
            int n = (int) wt.shape(1);
            double[] w = wt.toDoubleArray();
            for (int t = 0; t < tokens; t++) {
                for (int j = 0; j < n; j++) {
                    double s = 0;
                    for (int h = 0; h < hidden; h++) {
                        s += x[t * hidden + h] * w[h * n + j];
                    }
                    y.setDouble((long) t * n + j, s);
                }
            }
        }
    }
}
