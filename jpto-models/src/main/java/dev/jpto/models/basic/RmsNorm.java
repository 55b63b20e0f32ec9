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
import dev.jpto.isa.DType;
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

/**
 * {@code y = x / sqrt(mean(x²) + eps) · gamma} per row; x, gamma and y in {@code dtype}, computed in fp32 tiles
 * (loads widen, the store rounds once). One task per block of rows.
 */
public final class RmsNorm {
    public static final String NAME = "basic.rmsnorm";

    public record Preset(String name, int rows, int hidden, int blockRows, double eps, DType dtype) {
        public Preset {
            Shapes.divides(NAME, "rows", rows, "block_rows", blockRows);
        }
    }

    public static final List<Preset> PRESETS = List.of(
            new Preset("tiny", 64, 256, 16, 1e-6, DType.BF16),
            new Preset("tiny_fp32", 64, 256, 16, 1e-6, FP32),
            new Preset("demo", 4096, 4096, 4, 1e-6, DType.BF16));

    private RmsNorm() {
    }

    public static ProgramDef def() {
        return new PresetProgram<>(NAME, "y = x · rsqrt(mean(x²) + eps) · gamma per row (bf16 in/out, fp32 math)",
                PRESETS, Preset::name, "demo", RmsNorm::spec);
    }

    static ProgramSpec spec(Preset p) {
        // a bf16 output is one rounding from the fp32 result: allow one bf16 ulp (2^-7 relative) and a bit
        var cmp = p.dtype() == FP32 ? Comparators.allclose(1e-5, 1e-6) : Comparators.allclose(1e-2, 1e-2);
        return new ProgramSpec(NAME, p.name(), program(p),
                List.of(InputSpec.of("x", p.dtype(), new long[] {p.rows(), p.hidden()}, new Init.Normal(0, 1)),
                        InputSpec.of("gamma", p.dtype(), new long[] {1, p.hidden()}, new Init.Uniform(0.5, 1.5))),
                (in, out) -> golden(in, out, p.eps()), Map.of("y", cmp), Map.of());
    }

    static Program program(Preset p) {
        int br = p.blockRows();
        int h = p.hidden();
        KernelBuilder k = KernelBuilder.kernel("rmsnorm_rows");
        KTensor x = k.input("x", p.dtype(), 2);
        KTensor gamma = k.input("gamma", p.dtype(), 2);
        KTensor y = k.output("y", p.dtype(), 2);
        KTile t = k.tile("t", FP32, br, h);
        KTile sq = k.tile("sq", FP32, br, h);
        KTile g = k.tile("g", FP32, 1, h);
        KTile r = k.tile("r", FP32, br, 1);
        k.load(t, x, 0, 0).load(g, gamma, 0, 0)
                .mul(sq, t, t)
                .rowSum(r, sq)
                .muls(r, r, 1.0 / h)
                .adds(r, r, p.eps())
                .unary(Fn.Unary.RSQRT, r, r)
                .rowBroadcast(Fn.Binary.MUL, t, t, r)
                .colBroadcast(Fn.Binary.MUL, t, t, g)
                .store(t, y, 0, 0);

        ProgramBuilder pb = ProgramBuilder.program("rmsnorm");
        TensorVar xs = pb.input("x", p.dtype(), p.rows(), h);
        TensorVar gs = pb.input("gamma", p.dtype(), 1, h);
        TensorVar ys = pb.output("y", p.dtype(), p.rows(), h);
        KernelRef rows = pb.aiv(k.build());
        pb.orchestrate(o -> o.forRange("i", p.rows() / br, i ->
                o.submit(rows, in(xs.block(br, h).at(i, 0)), in(gs), outExisting(ys.block(br, h).at(i, 0)))));
        return pb.build();
    }

    static void golden(Map<String, Tensor> in, Map<String, Tensor> out, double eps) {
        Tensor tx = in.get("x");
        int rows = Dense.dim(tx, 0);
        int h = Dense.dim(tx, 1);
        double[] x = Dense.read(tx);
        double[] g = Dense.read(in.get("gamma"));
        double[] y = new double[x.length];
        for (int r = 0; r < rows; r++) {
            double ss = 0;
            for (int c = 0; c < h; c++) {
                ss += x[r * h + c] * x[r * h + c];
            }
            double inv = 1.0 / Math.sqrt(ss / h + eps);
            for (int c = 0; c < h; c++) {
                y[r * h + c] = x[r * h + c] * inv * g[c];
            }
        }
        Dense.write(out.get("y"), y);
    }
}
