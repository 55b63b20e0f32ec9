package dev.jpto.models.basic;

import static dev.jpto.compiler.dsl.TaskArg.in;
import static dev.jpto.compiler.dsl.TaskArg.outExisting;
import static dev.jpto.isa.DType.FP32;

import dev.jpto.compiler.dsl.KTensor;
import dev.jpto.compiler.dsl.KTile;
import dev.jpto.compiler.dsl.KernelBuilder;
import dev.jpto.compiler.dsl.KernelRef;
import dev.jpto.compiler.dsl.ProgramBuilder;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.compiler.ir.Program;
import dev.jpto.isa.Tensor;
import dev.jpto.isa.op.Fn;
import dev.jpto.lib.compare.Comparators;
import dev.jpto.lib.gen.Init;
import dev.jpto.lib.registry.InputSpec;
import dev.jpto.lib.registry.PresetProgram;
import dev.jpto.lib.registry.ProgramDef;
import dev.jpto.lib.registry.ProgramSpec;
import java.util.List;
import java.util.Map;

/** {@code y = softmax(x)} along each row (max-subtracted), one task per block of rows. */
public final class Softmax {
    public static final String NAME = "basic.softmax";

    public record Preset(String name, int rows, int cols, int blockRows) {
        public Preset {
            Shapes.divides(NAME, "rows", rows, "block_rows", blockRows);
        }
    }

    public static final List<Preset> PRESETS = List.of(
            new Preset("tiny", 128, 96, 32),
            new Preset("demo", 4096, 1024, 32),
            new Preset("large", 16384, 4096, 8));

    private Softmax() {
    }

    public static ProgramDef def() {
        return new PresetProgram<>(NAME, "y = softmax(x) along rows (max-subtracted, fp32), one task per row block",
                PRESETS, Preset::name, "demo", Softmax::spec);
    }

    static ProgramSpec spec(Preset p) {
        return new ProgramSpec(NAME, p.name(), program(p),
                List.of(InputSpec.of("x", FP32, new long[] {p.rows(), p.cols()}, new Init.Normal(0, 3))),
                Softmax::golden, Map.of("y", Comparators.allclose(1e-5, 1e-7)), Map.of());
    }

    static Program program(Preset p) {
        int br = p.blockRows();
        KernelBuilder k = KernelBuilder.kernel("softmax_rows");
        KTensor x = k.input("x", FP32, 2);
        KTensor y = k.output("y", FP32, 2);
        KTile t = k.tile("t", FP32, br, p.cols());
        KTile mx = k.tile("mx", FP32, br, 1);
        KTile sum = k.tile("sum", FP32, br, 1);
        k.load(t, x, 0, 0)
                .rowMax(mx, t)
                .rowBroadcast(Fn.Binary.SUB, t, t, mx)
                .exp(t, t)
                .rowSum(sum, t)
                .rowBroadcast(Fn.Binary.DIV, t, t, sum)
                .store(t, y, 0, 0);

        ProgramBuilder pb = ProgramBuilder.program("softmax");
        TensorVar xs = pb.input("x", FP32, p.rows(), p.cols());
        TensorVar ys = pb.output("y", FP32, p.rows(), p.cols());
        KernelRef rows = pb.aiv(k.build());
        pb.orchestrate(o -> o.forRange("i", p.rows() / br, i ->
                o.submit(rows, in(xs.block(br, p.cols()).at(i, 0)), outExisting(ys.block(br, p.cols()).at(i, 0)))));
        return pb.build();
    }

    static void golden(Map<String, Tensor> in, Map<String, Tensor> out) {
        Tensor tx = in.get("x");
        int rows = Dense.dim(tx, 0);
        int cols = Dense.dim(tx, 1);
        double[] x = Dense.read(tx);
        double[] y = new double[x.length];
        for (int r = 0; r < rows; r++) {
            int base = r * cols;
            double max = Double.NEGATIVE_INFINITY;
            for (int c = 0; c < cols; c++) {
                max = Math.max(max, x[base + c]);
            }
            double sum = 0;
            for (int c = 0; c < cols; c++) {
                y[base + c] = Math.exp(x[base + c] - max);
                sum += y[base + c];
            }
            for (int c = 0; c < cols; c++) {
                y[base + c] /= sum;
            }
        }
        Dense.write(out.get("y"), y);
    }
}
