// Decode-style paged attention: each sequence's one new query token (all heads) attends to its cached keys and
// values, which live in fixed-size blocks scattered through a shared pool and are found through a block table.
//   q          [batch, heads, headDim]             bf16   one query token per sequence
//   k_cache    [numBlocks, blockSize, headDim]     bf16   the pool of physical blocks (one KV head shared by
//   v_cache    [numBlocks, blockSize, headDim]     bf16   all query heads, as in multi-query attention)
//   block_table[batch, maxBlocks]                  int32  logical block j of sequence b is physical block [b, j]
//   context_lens[batch]                            int32  cached tokens per sequence, 1 .. maxBlocks·blockSize
//   out        [batch, heads, headDim]             fp32   softmax(q·kᵀ/√headDim)·v over the sequence's tokens
// Shows: data-dependent orchestration. A first vector task turns the context lengths into block counts; then,
// per sequence, the orchestration reads its length and block count (Orch.read, the original's pl.read), and for
// each of its blocks reads the physical block id from the block table and submits one online-softmax step on
// exactly that block. The steps carry the running max m, sum l and output acc in fp32 intermediates (inout), so
// a sequence's steps run in order while different sequences run in parallel. The last block's slots past the
// context length hold stale data (pool blocks are reused): the step kernel masks them to −∞.
// Run: ./jpto run examples/PagedAttention.java            (tiny: 4 sequences, up to 4 blocks of 16 tokens)
//      ./jpto run examples/PagedAttention.java --preset demo
// Independent check: ./jpto run examples/PagedAttention.java --output-dir out --save-tensors
//                    python3 examples/numpy_check.py paged_attention out

import static dev.jpto.compiler.dsl.TaskArg.in;
import static dev.jpto.compiler.dsl.TaskArg.inout;
import static dev.jpto.compiler.dsl.TaskArg.out;
import static dev.jpto.compiler.dsl.TaskArg.outExisting;
import static dev.jpto.compiler.dsl.TaskArg.scalar;

import dev.jpto.compiler.dsl.KScalar;
import dev.jpto.compiler.dsl.KTensor;
import dev.jpto.compiler.dsl.KTile;
import dev.jpto.compiler.dsl.KernelBuilder;
import dev.jpto.compiler.dsl.KernelRef;
import dev.jpto.compiler.dsl.ProgramBuilder;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.compiler.ir.Affine;
import dev.jpto.compiler.ir.Program;
import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.isa.kernel.Kernel;
import dev.jpto.isa.op.Fn;
import dev.jpto.lib.compare.Comparators;
import dev.jpto.lib.gen.Init;
import dev.jpto.lib.gen.SplitMix64;
import dev.jpto.lib.registry.InputFill;
import dev.jpto.lib.registry.InputSpec;
import dev.jpto.lib.registry.PresetProgram;
import dev.jpto.lib.registry.ProgramDef;
import dev.jpto.lib.registry.ProgramProvider;
import dev.jpto.lib.registry.ProgramSpec;
import java.util.List;
import java.util.Map;

/** Paged attention for one decode step: per sequence, one task per KV block it uses. */
public final class PagedAttention implements ProgramProvider {
    static final String NAME = "examples.paged_attention";

    /** The pool has batch·maxBlocks blocks plus spareBlocks that no sequence uses (they hold garbage). */
    public record Preset(String name, int batch, int heads, int headDim, int blockSize, int maxBlocks,
                         int spareBlocks) {
        int numBlocks() {
            return batch * maxBlocks + spareBlocks;
        }

        int maxContext() {
            return maxBlocks * blockSize;
        }

        double scale() {
            return 1 / Math.sqrt(headDim);
        }
    }

    static final List<Preset> PRESETS = List.of(new Preset("tiny", 4, 8, 64, 16, 4, 4),
            new Preset("demo", 8, 16, 128, 64, 16, 32));

    @Override
    public List<ProgramDef> programs() {
        return List.of(new PresetProgram<>(NAME, "decode paged attention: block table, variable context lengths, "
                + "online softmax over the blocks each sequence reads", PRESETS, Preset::name, "tiny",
                PagedAttention::spec));
    }

    /** Every sequence gets distinct physical blocks: a seeded shuffle of the pool, dealt out row by row. */
    record ShuffledBlocks(int numBlocks) implements InputFill {
        @Override
        public void fill(Tensor target, String name, long seed) {
            int[] pool = new int[numBlocks];
            for (int i = 0; i < numBlocks; i++) {
                pool[i] = i;
            }
            SplitMix64 rng = SplitMix64.stream(seed, name);
            for (int i = numBlocks - 1; i > 0; i--) { // Fisher–Yates
                int j = (int) rng.nextBounded(i + 1);
                int t = pool[i];
                pool[i] = pool[j];
                pool[j] = t;
            }
            for (long e = 0; e < target.numel(); e++) {
                target.setDouble(e, pool[(int) e]);
            }
        }

        @Override
        public String describe() {
            return "distinct block ids, a shuffle of [0, " + numBlocks + ")";
        }
    }

    static ProgramSpec spec(Preset p) {
        long[] cache = {p.numBlocks(), p.blockSize(), p.headDim()};
        // Inputs are bf16, but the golden reads the same rounded values and the chip computes in fp32 tiles, so
        // only fp32 arithmetic separates them: headDim-long dot products and ≤ maxContext-long sums, relative
        // error ~1e-6; as for basic.flash_attention in fp32, 1e-4 relative with a 1e-5 floor.
        return new ProgramSpec(NAME, p.name(), program(p),
                List.of(InputSpec.of("q", DType.BF16, new long[] {p.batch(), p.heads(), p.headDim()},
                                new Init.Normal(0, 1)),
                        InputSpec.of("k_cache", DType.BF16, cache, new Init.Normal(0, 1)),
                        InputSpec.of("v_cache", DType.BF16, cache, new Init.Normal(0, 1)),
                        new InputSpec("block_table", DType.INT32, new long[] {p.batch(), p.maxBlocks()},
                                new ShuffledBlocks(p.numBlocks())),
                        InputSpec.of("context_lens", DType.INT32, new long[] {p.batch()},
                                new Init.IntRange(1, p.maxContext() + 1))),
                (in, o) -> golden(in, o, p.blockSize(), p.scale()), Map.of("out", Comparators.allclose(1e-4, 1e-5)),
                Map.of());
    }

    static Program program(Preset p) {
        int h = p.heads();
        int d = p.headDim();
        int bs = p.blockSize();
        ProgramBuilder pb = ProgramBuilder.program("paged_attention");
        TensorVar q = pb.input("q", DType.BF16, p.batch(), h, d);
        TensorVar kCache = pb.input("k_cache", DType.BF16, p.numBlocks(), bs, d);
        TensorVar vCache = pb.input("v_cache", DType.BF16, p.numBlocks(), bs, d);
        TensorVar blockTable = pb.input("block_table", DType.INT32, p.batch(), p.maxBlocks());
        TensorVar contextLens = pb.input("context_lens", DType.INT32, p.batch());
        TensorVar outT = pb.output("out", DType.FP32, p.batch(), h, d);
        KernelRef count = pb.aiv(blockCountKernel(p));
        KernelRef init = pb.aiv(initKernel(p));
        KernelRef step = pb.aic(stepKernel(p));
        KernelRef finish = pb.aiv(finishKernel(p));
        pb.orchestrate(o -> {
            // ceil(len / blockSize) per sequence, on the chip: orchestration indices are affine (no division)
            TensorVar blocks = o.alloc("num_blocks", DType.INT32, 1, p.batch());
            o.submit(count, in(contextLens.reshape(1, p.batch())), out(blocks));
            o.forRange("b", p.batch(), b -> o.scope(() -> {
                Affine len = o.read("len", contextLens.at(b).size(1), p.maxContext());
                Affine nb = o.read("nb", blocks.at(0, b).size(1, 1), p.maxBlocks());
                TensorVar m = o.alloc("m", DType.FP32, h, 1);
                TensorVar l = o.alloc("l", DType.FP32, h, 1);
                TensorVar acc = o.alloc("acc", DType.FP32, h, d);
                o.submit(init, out(m), out(l), out(acc));
                o.forRange("j", 0, nb, j -> {
                    Affine block = o.read("block", blockTable.at(b, j).size(1, 1), p.numBlocks() - 1);
                    o.submit(step, in(q.block(1, h, d).at(b, 0, 0)), in(kCache.block(1, bs, d).at(block, 0, 0)),
                            in(vCache.block(1, bs, d).at(block, 0, 0)), inout(m), inout(l), inout(acc),
                            scalar(len), scalar(j.times(bs)));
                });
                o.submit(finish, in(acc), in(l), outExisting(outT.block(1, h, d).at(b, 0, 0)));
            }));
        });
        return pb.build();
    }

    /** num_blocks = (len + blockSize − 1) / blockSize, integer division of non-negative values. */
    static Kernel blockCountKernel(Preset p) {
        KernelBuilder kb = KernelBuilder.kernel("block_count");
        KTensor lens = kb.input("context_lens", DType.INT32, 2);
        KTensor blocks = kb.output("num_blocks", DType.INT32, 2);
        KTile t = kb.tile("t", DType.INT32, 1, p.batch());
        kb.load(t, lens, 0, 0).adds(t, t, p.blockSize() - 1).binaryScalar(Fn.Binary.DIV, t, t, p.blockSize())
                .store(t, blocks, 0, 0);
        return kb.build();
    }

    /** m = −∞, l = 0, acc = 0: the online softmax before any block. */
    static Kernel initKernel(Preset p) {
        KernelBuilder kb = KernelBuilder.kernel("attn_state_init");
        KTensor m = kb.output("m", DType.FP32, 2);
        KTensor l = kb.output("l", DType.FP32, 2);
        KTensor acc = kb.output("acc", DType.FP32, 2);
        KTile col = kb.tile("col", DType.FP32, p.heads(), 1);
        KTile ta = kb.tile("ta", DType.FP32, p.heads(), p.headDim());
        kb.fill(col, Double.NEGATIVE_INFINITY).store(col, m, 0, 0).fill(col, 0.0).store(col, l, 0, 0)
                .fill(ta, 0.0).store(ta, acc, 0, 0);
        return kb.build();
    }

    /**
     * One block of the online softmax for all heads of one sequence: s = q·kᵀ·scale with the positions at or past
     * len masked; m' = max(m, rowmax s); p = exp(s − m'); α = exp(m − m'); l = α·l + Σp; acc = α·acc + p·v.
     */
    static Kernel stepKernel(Preset p) {
        int h = p.heads();
        int d = p.headDim();
        int bs = p.blockSize();
        KernelBuilder kb = KernelBuilder.kernel("paged_attn_step");
        KTensor q = kb.input("q", DType.BF16, 3);
        KTensor k = kb.input("k", DType.BF16, 3);
        KTensor v = kb.input("v", DType.BF16, 3);
        KTensor m = kb.inout("m", DType.FP32, 2);
        KTensor l = kb.inout("l", DType.FP32, 2);
        KTensor acc = kb.inout("acc", DType.FP32, 2);
        KScalar len = kb.scalar("len");
        KScalar first = kb.scalar("first_pos"); // the position of this block's slot 0
        KTile tq = kb.tile("tq", DType.FP32, h, d);
        KTile tk = kb.tile("tk", DType.FP32, bs, d);
        KTile tv = kb.tile("tv", DType.FP32, bs, d);
        KTile s = kb.tile("s", DType.FP32, h, bs);
        KTile pos = kb.tile("pos", DType.FP32, h, bs);
        KTile limit = kb.tile("limit", DType.FP32, h, bs);
        KTile past = kb.tile("past", DType.BOOL, h, bs);
        KTile negInf = kb.tile("neg_inf", DType.FP32, h, bs);
        KTile tm = kb.tile("tm", DType.FP32, h, 1);
        KTile blockMax = kb.tile("m_blk", DType.FP32, h, 1);
        KTile newMax = kb.tile("m_new", DType.FP32, h, 1);
        KTile alpha = kb.tile("alpha", DType.FP32, h, 1);
        KTile tl = kb.tile("tl", DType.FP32, h, 1);
        KTile rowSum = kb.tile("l_blk", DType.FP32, h, 1);
        KTile ta = kb.tile("ta", DType.FP32, h, d);
        kb.load(tq, q, 0, 0, 0).load(tk, k, 0, 0, 0).load(tv, v, 0, 0, 0)
                .load(tm, m, 0, 0).load(tl, l, 0, 0).load(ta, acc, 0, 0)
                .matmulTransB(s, tq, tk, false).muls(s, s, p.scale())
                // slot c holds position first + c; positions >= len are not this sequence's tokens
                .iota(pos, Fn.Axis.COLS, 0).binaryScalar(Fn.Binary.ADD, pos, pos, first)
                .fill(limit, len).compare(Fn.Compare.GE, past, pos, limit)
                .fill(negInf, Double.NEGATIVE_INFINITY).select(s, past, negInf, s)
                .rowMax(blockMax, s).max(newMax, tm, blockMax)
                .rowBroadcast(Fn.Binary.SUB, s, s, newMax).exp(s, s)
                .sub(alpha, tm, newMax).exp(alpha, alpha)
                .rowSum(rowSum, s).mul(tl, tl, alpha).add(tl, tl, rowSum)
                .rowBroadcast(Fn.Binary.MUL, ta, ta, alpha).matmulAcc(ta, s, tv)
                .store(newMax, m, 0, 0).store(tl, l, 0, 0).store(ta, acc, 0, 0);
        return kb.build();
    }

    /** out = acc / l. */
    static Kernel finishKernel(Preset p) {
        KernelBuilder kb = KernelBuilder.kernel("attn_normalize");
        KTensor acc = kb.input("acc", DType.FP32, 2);
        KTensor l = kb.input("l", DType.FP32, 2);
        KTensor o = kb.output("out", DType.FP32, 3);
        KTile ta = kb.tile("ta", DType.FP32, p.heads(), p.headDim());
        KTile tl = kb.tile("tl", DType.FP32, p.heads(), 1);
        kb.load(ta, acc, 0, 0).load(tl, l, 0, 0).rowBroadcast(Fn.Binary.DIV, ta, ta, tl).store(ta, o, 0, 0, 0);
        return kb.build();
    }

    /** The reference: gather each sequence's first len cached tokens through the block table, plain softmax. */
    static void golden(Map<String, Tensor> in, Map<String, Tensor> out, int bs, double scale) {
        Tensor q = in.get("q");
        Tensor k = in.get("k_cache");
        Tensor v = in.get("v_cache");
        Tensor table = in.get("block_table");
        Tensor lens = in.get("context_lens");
        Tensor o = out.get("out");
        int batch = (int) q.shape(0);
        int heads = (int) q.shape(1);
        int d = (int) q.shape(2);
        int maxBlocks = (int) table.shape(1);
        for (int b = 0; b < batch; b++) {
            int len = (int) lens.getDouble(b);
            long[] row = new long[len]; // flat offset of token t's key/value row in the pool
            for (int t = 0; t < len; t++) {
                long block = (long) table.getDouble((long) b * maxBlocks + t / bs);
                row[t] = (block * bs + t % bs) * d;
            }
            for (int hh = 0; hh < heads; hh++) {
                long qRow = ((long) b * heads + hh) * d;
                double[] w = new double[len];
                double max = Double.NEGATIVE_INFINITY;
                for (int t = 0; t < len; t++) {
                    double dot = 0;
                    for (int c = 0; c < d; c++) {
                        dot += q.getDouble(qRow + c) * k.getDouble(row[t] + c);
                    }
                    w[t] = dot * scale;
                    max = Math.max(max, w[t]);
                }
                double sum = 0;
                for (int t = 0; t < len; t++) {
                    w[t] = Math.exp(w[t] - max);
                    sum += w[t];
                }
                for (int c = 0; c < d; c++) {
                    double acc = 0;
                    for (int t = 0; t < len; t++) {
                        acc += w[t] * v.getDouble(row[t] + c);
                    }
                    o.setDouble(qRow + c, acc / sum);
                }
            }
        }
    }
}
