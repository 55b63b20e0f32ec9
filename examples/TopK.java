// Per-row top-k of a score matrix: the k largest values (descending) and their column indices (int32).
// Shows: an op with two outputs (values and indices), an integer output, and validating indices the way a
// top-k must be validated: scores here are small integers, so ties are everywhere, and an index may differ from
// the golden's only where the two picks' scores tie (Comparators.topkPair). The ISA's topk takes the lower index
// on a tie, as the golden below does, but a kernel that broke ties the other way would still be correct.
// Run: ./jpto run examples/TopK.java            (tiny: 64 rows of 256, k = 8)
//      ./jpto run examples/TopK.java --preset demo   (1024 rows of 1024, k = 32)
// Independent check: ./jpto run examples/TopK.java --output-dir out --save-tensors
//                    python3 examples/numpy_check.py topk out

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
import dev.jpto.lib.gen.Init;
import dev.jpto.lib.registry.InputSpec;
import dev.jpto.lib.registry.PresetProgram;
import dev.jpto.lib.registry.ProgramDef;
import dev.jpto.lib.registry.ProgramProvider;
import dev.jpto.lib.registry.ProgramSpec;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/** Row-wise top-k over scores [rows, n]: one task per block of rows, each row whole in one tile. */
public final class TopK implements ProgramProvider {
    static final String NAME = "examples.topk";

    /** scores is rows × n fp32 with integer values in [−levels, levels); a task takes rowBlock rows. */
    public record Preset(String name, int rows, int n, int k, int rowBlock, int levels) {
    }

    static final List<Preset> PRESETS = List.of(new Preset("tiny", 64, 256, 8, 16, 32),
            new Preset("demo", 1024, 1024, 32, 32, 64));

    @Override
    public List<ProgramDef> programs() {
        return List.of(new PresetProgram<>(NAME, "per-row top-k values and int32 indices, ties validated by score",
                PRESETS, Preset::name, "tiny", TopK::spec));
    }

    static ProgramSpec spec(Preset p) {
        // Values are copies of scores (small integers, exact in fp32): compared exactly. Indices: equal to the
        // golden's, or else pointing at an exactly tied score (topkPair with zero tolerance on the paired values).
        return new ProgramSpec(NAME, p.name(), program(p),
                List.of(InputSpec.of("scores", DType.FP32, new long[] {p.rows(), p.n()},
                        new Init.IntRange(-p.levels(), p.levels()))),
                (in, out) -> golden(in, out, p.k()),
                Map.of("values", Comparators.allclose(0, 0), "indices", Comparators.topkPair("values", 0, 0)),
                Map.of());
    }

    static Program program(Preset p) {
        int rb = p.rowBlock();
        ProgramBuilder pb = ProgramBuilder.program("topk");
        TensorVar scores = pb.input("scores", DType.FP32, p.rows(), p.n());
        TensorVar values = pb.output("values", DType.FP32, p.rows(), p.k());
        TensorVar indices = pb.output("indices", DType.INT32, p.rows(), p.k());
        KernelRef topk = pb.aiv(kernel(p));
        pb.orchestrate(o -> o.forRange("i", p.rows() / rb, i -> o.submit(topk,
                in(scores.block(rb, p.n()).at(i, 0)),
                outExisting(values.block(rb, p.k()).at(i, 0)), outExisting(indices.block(rb, p.k()).at(i, 0)))));
        return pb.build();
    }

    static Kernel kernel(Preset p) {
        int rb = p.rowBlock();
        KernelBuilder kb = KernelBuilder.kernel("topk_rows");
        KTensor scores = kb.input("scores", DType.FP32, 2);
        KTensor values = kb.output("values", DType.FP32, 2);
        KTensor indices = kb.output("indices", DType.INT32, 2);
        KTile s = kb.tile("s", DType.FP32, rb, p.n());
        KTile v = kb.tile("v", DType.FP32, rb, p.k());
        KTile idx = kb.tile("idx", DType.INT32, rb, p.k());
        kb.load(s, scores, 0, 0).topK(v, idx, s, p.k()).store(v, values, 0, 0).store(idx, indices, 0, 0);
        return kb.build();
    }

    /** The reference: per row, sort the column numbers by (score descending, column ascending), keep k. */
    static void golden(Map<String, Tensor> in, Map<String, Tensor> out, int k) {
        Tensor scores = in.get("scores");
        Tensor values = out.get("values");
        Tensor indices = out.get("indices");
        int rows = (int) scores.shape(0);
        int n = (int) scores.shape(1);
        for (int r = 0; r < rows; r++) {
            long base = (long) r * n;
            List<Integer> order = IntStream.range(0, n).boxed()
                    .sorted(Comparator.comparingDouble((Integer c) -> -scores.getDouble(base + c))
                            .thenComparingInt(c -> c))
                    .toList();
            for (int j = 0; j < k; j++) {
                values.setDouble((long) r * k + j, scores.getDouble(base + order.get(j)));
                indices.setDouble((long) r * k + j, order.get(j));
            }
        }
    }
}
