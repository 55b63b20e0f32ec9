package dev.jpto.models.basic;

import static dev.jpto.compiler.dsl.TaskArg.in;
import static dev.jpto.compiler.dsl.TaskArg.outExisting;
import static dev.jpto.compiler.dsl.TaskArg.scalar;
import static dev.jpto.isa.DType.FP32;

import dev.jpto.compiler.dsl.KIndex;
import dev.jpto.compiler.dsl.KScalar;
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
import dev.jpto.lib.registry.ProgramSpec;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Causal multi-head attention {@code o = softmax(q·kᵀ/√d + causal mask)·v} with the online softmax of
 * FlashAttention. q, k, v and o are {@code [heads, seq, headDim]}. One task per (head, query block) — several per
 * head; each task loops over the key/value blocks before its diagonal inside the kernel (the ISA's Loop), keeping
 * the running row maximum m, row sum l and unnormalised output acc in fp32 tiles, then handles the diagonal block
 * with the causal mask and divides by l once at the end.
 */
public final class FlashAttention {
    public static final String NAME = "basic.flash_attention";

    /** A size: query and key blocks are both {@code block} rows, so the diagonal block is the only masked one. */
    public record Preset(String name, int heads, int seq, int headDim, int block, DType dtype) {
        public Preset {
            Shapes.divides(NAME, "seq", seq, "block", block);
            if (heads < 1 || headDim < 1) {
                throw new IllegalArgumentException(NAME + ": heads and head_dim must be >= 1: heads=" + heads
                        + " head_dim=" + headDim);
            }
        }

        public double scale() {
            return 1.0 / Math.sqrt(headDim);
        }
    }

    public static final List<Preset> PRESETS = List.of(
            new Preset("tiny", 2, 128, 64, 32, FP32),
            new Preset("tiny_bf16", 2, 128, 64, 32, DType.BF16),
            new Preset("demo", 8, 1024, 128, 128, DType.BF16),
            new Preset("large", 16, 4096, 128, 128, DType.BF16));

    private FlashAttention() {
    }

    public static ProgramDef def() {
        return new PresetProgram<>(NAME, "causal multi-head attention with online softmax, one task per (head,"
                + " query block) looping over KV blocks", PRESETS, Preset::name, "demo", FlashAttention::spec);
    }

    static ProgramSpec spec(Preset p) {
        long[] shape = {p.heads(), p.seq(), p.headDim()};
        // bf16 o is one rounding of an fp32 result (2^-8 relative); fp32 differs from fp64 by accumulation only
        GoldenComparator cmp = p.dtype() == FP32 ? Comparators.allclose(1e-4, 1e-5)
                : Comparators.allclose(1e-2, 1e-3);
        return new ProgramSpec(NAME, p.name(), program(p),
                List.of(InputSpec.of("q", p.dtype(), shape, new Init.Normal(0, 1)),
                        InputSpec.of("k", p.dtype(), shape, new Init.Normal(0, 1)),
                        InputSpec.of("v", p.dtype(), shape, new Init.Normal(0, 1))),
                (in, out) -> golden(in, out, p.scale()), Map.of("o", cmp), Map.of());
    }

    static Program program(Preset p) {
        int b = p.block();
        int d = p.headDim();
        int s = p.seq();
        ProgramBuilder pb = ProgramBuilder.program("flash_attention");
        TensorVar q = pb.input("q", p.dtype(), p.heads(), s, d);
        TensorVar k = pb.input("k", p.dtype(), p.heads(), s, d);
        TensorVar v = pb.input("v", p.dtype(), p.heads(), s, d);
        TensorVar o = pb.output("o", p.dtype(), p.heads(), s, d);
        KernelRef attn = pb.aic(kernel(p));
        pb.orchestrate(orch -> orch.forRange("h", p.heads(), h -> orch.forRange("qb", s / b, qb ->
                orch.submit(attn,
                        in(q.block(1, b, d).at(h, qb, 0)),
                        in(k.block(1, s, d).at(h, 0, 0)),
                        in(v.block(1, s, d).at(h, 0, 0)),
                        outExisting(o.block(1, b, d).at(h, qb, 0)),
                        scalar(qb)))));
        return pb.build();
    }

    /** The tiles of one task; {@link #step} is one key/value block of the online softmax. */
    private record Tiles(KTile q, KTile k, KTile v, KTile s, KTile blockMax, KTile newMax, KTile max, KTile alpha,
                         KTile rowSum, KTile sum, KTile acc, KTile mask, KTile negInf) {
    }

    private static Kernel kernel(Preset p) {
        int b = p.block();
        int d = p.headDim();
        KernelBuilder kb = KernelBuilder.kernel("flash_attn_block");
        KTensor q = kb.input("q", p.dtype(), 3);
        KTensor k = kb.input("k", p.dtype(), 3);
        KTensor v = kb.input("v", p.dtype(), 3);
        KTensor o = kb.output("o", p.dtype(), 3);
        KScalar qBlock = kb.scalar("q_block");
        Tiles t = new Tiles(kb.tile("tq", FP32, b, d), kb.tile("tk", FP32, b, d), kb.tile("tv", FP32, b, d),
                kb.tile("s", FP32, b, b), kb.tile("m_blk", FP32, b, 1), kb.tile("m_new", FP32, b, 1),
                kb.tile("m", FP32, b, 1), kb.tile("alpha", FP32, b, 1), kb.tile("l_blk", FP32, b, 1),
                kb.tile("l", FP32, b, 1), kb.tile("acc", FP32, b, d), kb.tile("mask", DType.BOOL, b, b),
                kb.tile("neg_inf", FP32, b, b));
        KTile col = kb.tile("col", FP32, b, b);
        KTile row = kb.tile("row", FP32, b, b);

        kb.load(t.q(), q, 0, 0, 0)
                .fill(t.max(), Double.NEGATIVE_INFINITY)
                .fill(t.sum(), 0.0)
                .fill(t.acc(), 0.0)
                .fill(t.negInf(), Double.NEGATIVE_INFINITY)
                // diagonal block: key column c is after query row r exactly when c - r > 0
                .iota(col, Fn.Axis.COLS, 0)
                .iota(row, Fn.Axis.ROWS, 0)
                .sub(col, col, row)
                .compareScalar(Fn.Compare.GT, t.mask(), col, 0);
        kb.forRange("kv_block", 0, qBlock, kvBlock -> step(kb, t, k, v, kvBlock.times(b), p.scale(), false));
        step(kb, t, k, v, qBlock.times(b), p.scale(), true);
        kb.rowBroadcast(Fn.Binary.DIV, t.acc(), t.acc(), t.sum())
                .store(t.acc(), o, 0, 0, 0);
        return kb.build();
    }

    /** One key/value block at row {@code kvRow}: rescale the running state by exp(m − m_new) and add p·v. */
    private static void step(KernelBuilder kb, Tiles t, KTensor k, KTensor v, KIndex kvRow, double scale,
                             boolean causal) {
        kb.load(t.k(), k, 0, kvRow, 0)
                .load(t.v(), v, 0, kvRow, 0)
                .matmulTransB(t.s(), t.q(), t.k(), false)
                .muls(t.s(), t.s(), scale);
        if (causal) {
            kb.select(t.s(), t.mask(), t.negInf(), t.s());
        }
        kb.rowMax(t.blockMax(), t.s())
                .max(t.newMax(), t.max(), t.blockMax())
                .rowBroadcast(Fn.Binary.SUB, t.s(), t.s(), t.newMax())
                .exp(t.s(), t.s())
                .sub(t.alpha(), t.max(), t.newMax())
                .exp(t.alpha(), t.alpha())
                .rowSum(t.rowSum(), t.s())
                .mul(t.sum(), t.sum(), t.alpha())
                .add(t.sum(), t.sum(), t.rowSum())
                .rowBroadcast(Fn.Binary.MUL, t.acc(), t.acc(), t.alpha())
                .matmulAcc(t.acc(), t.s(), t.v())
                .copy(t.max(), t.newMax());
    }

    /** Straight from the definition: per head and query row, softmax over keys 0..row, then the weighted sum of v. */
    static void golden(Map<String, Tensor> in, Map<String, Tensor> out, double scale) {
        Tensor tq = in.get("q");
        int heads = Dense.dim(tq, 0);
        int seq = Dense.dim(tq, 1);
        int d = Dense.dim(tq, 2);
        double[] q = Dense.read(tq);
        double[] k = Dense.read(in.get("k"));
        double[] v = Dense.read(in.get("v"));
        double[] o = new double[q.length];
        // (head, row) pairs are independent: computed in parallel, each exactly as a sequential loop would
        IntStream.range(0, heads * seq).parallel().forEach(hi -> {
            int base = hi / seq * seq * d;
            int i = hi % seq;
            double[] w = new double[i + 1];
            double max = Double.NEGATIVE_INFINITY;
            for (int j = 0; j <= i; j++) {
                double dot = 0;
                for (int c = 0; c < d; c++) {
                    dot += q[base + i * d + c] * k[base + j * d + c];
                }
                w[j] = dot * scale;
                max = Math.max(max, w[j]);
            }
            double sum = 0;
            for (int j = 0; j <= i; j++) {
                w[j] = Math.exp(w[j] - max);
                sum += w[j];
            }
            for (int j = 0; j <= i; j++) {
                double wj = w[j] / sum;
                for (int c = 0; c < d; c++) {
                    o[base + i * d + c] += wj * v[base + j * d + c];
                }
            }
        });
        Dense.write(out.get("o"), o);
    }
}
