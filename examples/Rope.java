// Rotary position embedding (RoPE), half-rotation form, on q of several heads:
//   y[:, :d/2] = x_lo·cos_lo − x_hi·sin_lo,   y[:, d/2:] = x_hi·cos_hi + x_lo·sin_hi
// with cos/sin[s][i] = cos/sin((start + s)·θ_i), θ_i = 10000^(−2i/d) for i < d/2; the second half repeats the
// first.
// Shows: a custom InputFill (the tables are computed from positions, not random), slicing a tile's halves with
// load offsets, and a loop over heads inside the kernel that reuses the cos/sin tiles each task loaded once.
// Run: ./jpto run examples/Rope.java            (tiny: fp32)
//      ./jpto run examples/Rope.java --preset demo   (bf16 q, 32 heads)
// Independent check: ./jpto run examples/Rope.java --output-dir out --save-tensors
//                    python3 examples/numpy_check.py rope out

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
import dev.jpto.lib.registry.InputFill;
import dev.jpto.lib.registry.InputSpec;
import dev.jpto.lib.registry.PresetProgram;
import dev.jpto.lib.registry.ProgramDef;
import dev.jpto.lib.registry.ProgramProvider;
import dev.jpto.lib.registry.ProgramSpec;
import java.util.List;
import java.util.Map;

/** RoPE on q [heads, seq, headDim]: one task per block of positions, looping over the heads. */
public final class Rope implements ProgramProvider {
    static final String NAME = "examples.rope";
    static final double BASE = 10000;

    /** Positions start, start+1, … start+seq−1; a task rotates seqBlock positions of every head. */
    public record Preset(String name, int heads, int seq, int headDim, int seqBlock, int start, DType dtype) {
    }

    static final List<Preset> PRESETS = List.of(new Preset("tiny", 4, 64, 64, 16, 5, DType.FP32),
            new Preset("demo", 32, 1024, 128, 64, 1000, DType.BF16));

    @Override
    public List<ProgramDef> programs() {
        return List.of(new PresetProgram<>(NAME, "rotary position embedding (half rotation) on q, several heads, "
                + "cos/sin tables from positions", PRESETS, Preset::name, "tiny", Rope::spec));
    }

    /** The cos (or sin) table [seq, headDim] of positions start.., computed, not drawn: the seed plays no part. */
    record RopeTable(boolean sine, int start) implements InputFill {
        @Override
        public void fill(Tensor target, String name, long seed) {
            int seq = (int) target.shape(0);
            int d = (int) target.shape(1);
            for (int s = 0; s < seq; s++) {
                for (int c = 0; c < d; c++) {
                    double angle = (start + s) * Math.pow(BASE, -2.0 * (c % (d / 2)) / d);
                    target.setDouble((long) s * d + c, sine ? Math.sin(angle) : Math.cos(angle));
                }
            }
        }

        @Override
        public String describe() {
            return (sine ? "sin" : "cos") + "((" + start + " + s)·10000^(−2i/d))";
        }
    }

    static ProgramSpec spec(Preset p) {
        // fp32: each output is two fp32 products and a sum (a few fp32 ulp). bf16: the chip rounds that fp32
        // value, the golden the exact one; straddling a rounding boundary they differ by one bf16 ulp, at most
        // 2^-7 relative. atol covers the fp32 error on outputs that cancel to near zero.
        GoldenComparator cmp = p.dtype() == DType.FP32 ? Comparators.allclose(1e-5, 1e-6)
                : Comparators.allclose(1.0 / 128, 1e-5);
        long[] table = {p.seq(), p.headDim()};
        return new ProgramSpec(NAME, p.name(), program(p),
                List.of(InputSpec.of("q", p.dtype(), new long[] {p.heads(), p.seq(), p.headDim()},
                                new Init.Normal(0, 1)),
                        new InputSpec("cos", DType.FP32, table, new RopeTable(false, p.start())),
                        new InputSpec("sin", DType.FP32, table, new RopeTable(true, p.start()))),
                Rope::golden, Map.of("q_rot", cmp), Map.of());
    }

    static Program program(Preset p) {
        int sb = p.seqBlock();
        int d = p.headDim();
        ProgramBuilder pb = ProgramBuilder.program("rope");
        TensorVar q = pb.input("q", p.dtype(), p.heads(), p.seq(), d);
        TensorVar cos = pb.input("cos", DType.FP32, p.seq(), d);
        TensorVar sin = pb.input("sin", DType.FP32, p.seq(), d);
        TensorVar out = pb.output("q_rot", p.dtype(), p.heads(), p.seq(), d);
        KernelRef rope = pb.aiv(kernel(p));
        pb.orchestrate(o -> o.forRange("s", p.seq() / sb, s -> o.submit(rope,
                in(q.block(p.heads(), sb, d).at(0, s, 0)), in(cos.block(sb, d).at(s, 0)),
                in(sin.block(sb, d).at(s, 0)), outExisting(out.block(p.heads(), sb, d).at(0, s, 0)))));
        return pb.build();
    }

    static Kernel kernel(Preset p) {
        int sb = p.seqBlock();
        int half = p.headDim() / 2;
        KernelBuilder kb = KernelBuilder.kernel("rope_block");
        KTensor q = kb.input("q", p.dtype(), 3);
        KTensor cos = kb.input("cos", DType.FP32, 2);
        KTensor sin = kb.input("sin", DType.FP32, 2);
        KTensor out = kb.output("q_rot", p.dtype(), 3);
        KTile cosLo = kb.tile("cos_lo", DType.FP32, sb, half);
        KTile cosHi = kb.tile("cos_hi", DType.FP32, sb, half);
        KTile sinLo = kb.tile("sin_lo", DType.FP32, sb, half);
        KTile sinHi = kb.tile("sin_hi", DType.FP32, sb, half);
        KTile lo = kb.tile("x_lo", DType.FP32, sb, half);
        KTile hi = kb.tile("x_hi", DType.FP32, sb, half);
        KTile a = kb.tile("a", DType.FP32, sb, half);
        KTile b = kb.tile("b", DType.FP32, sb, half);
        // the tables' halves are separate loads, so no op has to split a tile
        kb.load(cosLo, cos, 0, 0).load(cosHi, cos, 0, half).load(sinLo, sin, 0, 0).load(sinHi, sin, 0, half);
        kb.forRange("h", 0, p.heads(), h -> kb.load(lo, q, h, 0, 0).load(hi, q, h, 0, half)
                .mul(a, lo, cosLo).mul(b, hi, sinLo).sub(a, a, b).store(a, out, h, 0, 0)      // x_lo·cos − x_hi·sin
                .mul(a, hi, cosHi).mul(b, lo, sinHi).add(a, a, b).store(a, out, h, 0, half)); // x_hi·cos + x_lo·sin
        return kb.build();
    }

    /** The reference: the rotation from its definition, in double, with the tables the chip was given. */
    static void golden(Map<String, Tensor> in, Map<String, Tensor> out) {
        Tensor q = in.get("q");
        Tensor cos = in.get("cos");
        Tensor sin = in.get("sin");
        Tensor y = out.get("q_rot");
        int heads = (int) q.shape(0);
        int seq = (int) q.shape(1);
        int d = (int) q.shape(2);
        int half = d / 2;
        for (int h = 0; h < heads; h++) {
            for (int s = 0; s < seq; s++) {
                long row = ((long) h * seq + s) * d;
                long table = (long) s * d;
                for (int i = 0; i < half; i++) {
                    double lo = q.getDouble(row + i);
                    double hi = q.getDouble(row + half + i);
                    y.setDouble(row + i, lo * cos.getDouble(table + i) - hi * sin.getDouble(table + i));
                    y.setDouble(row + half + i, hi * cos.getDouble(table + half + i)
                            + lo * sin.getDouble(table + half + i));
                }
            }
        }
    }
}
