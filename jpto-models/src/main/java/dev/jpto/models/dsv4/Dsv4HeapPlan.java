package dev.jpto.models.dsv4;

import dev.jpto.isa.DType;

import dev.jpto.runtime.RingField;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The ring-heap intermediates of the original's decomposition: every orchestration-level
 * {@code pl.create_tensor} of a program and its inlined callees, in allocation order, with the scope depth it is
 * submitted at. In the original all of them sit at the top level of the program body (no {@code for}/{@code if}
 * around them), and the compiler opens one AUTO scope for that body (depth 1, ring 1; inlined callees open
 * none), so none is released before the program ends and the ring-1 peak is the sum of the rounded sizes.
 */
public final class Dsv4HeapPlan {
    /** simpler packs each runtime OUTPUT buffer at a 1024-byte granule (PTO2_PACKED_OUTPUT_ALIGN). */
    public static final long OUTPUT_ALIGN = 1024;
    /** Scope depth of the program body's AUTO scope (the executor's root scope is depth 0). */
    public static final int BODY_SCOPE_DEPTH = 1;

    /** One heap allocation: the callee that creates it, the original's tensor name, dtype and shape. */
    public record Alloc(String stage, String name, DType dtype, long[] shape, int scopeDepth) {
        public Alloc {
            shape = shape.clone();
        }

        @Override
        public long[] shape() {
            return shape.clone();
        }

        public long bytes() {
            long n = dtype.byteSize();
            for (long e : shape) {
                n *= e;
            }
            return n;
        }

        /** Bytes taken on the heap ring: rounded up to {@link #OUTPUT_ALIGN}. */
        public long heapBytes() {
            return (bytes() + OUTPUT_ALIGN - 1) / OUTPUT_ALIGN * OUTPUT_ALIGN;
        }

        /** The ring of the scope depth ({@link RingField#ringOf}). */
        public int ring() {
            return RingField.ringOf(scopeDepth);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Alloc a && stage.equals(a.stage) && name.equals(a.name) && dtype == a.dtype
                    && Arrays.equals(shape, a.shape) && scopeDepth == a.scopeDepth;
        }

        @Override
        public int hashCode() {
            return name.hashCode() * 31 + Arrays.hashCode(shape);
        }

        @Override
        public String toString() {
            return stage + "." + name + " " + dtype.text() + Arrays.toString(shape) + " = " + bytes() + " B";
        }
    }

    private Dsv4HeapPlan() {
    }

    /** Sum of {@link Alloc#heapBytes()} of the allocations on {@code ring}: its peak, since none is freed early. */
    public static long peakBytes(List<Alloc> plan, int ring) {
        return plan.stream().filter(a -> a.ring() == ring).mapToLong(Alloc::heapBytes).sum();
    }

    /**
     * The first allocation on {@code ring} that cannot be placed in a heap of {@code heapBytes} when nothing is
     * released before the scope closes (the HEAP_RING_DEADLOCK point), or empty when all fit.
     */
    public static java.util.Optional<Alloc> firstBlocked(List<Alloc> plan, int ring, long heapBytes) {
        long top = 0;
        for (Alloc a : plan) {
            if (a.ring() != ring) {
                continue;
            }
            top += a.heapBytes();
            if (top > heapBytes) {
                return java.util.Optional.of(a);
            }
        }
        return java.util.Optional.empty();
    }

    /** The allocations of {@code program} at {@code preset}, in submission order. */
    public static List<Alloc> of(Dsv4Program program, Dsv4Preset p) {
        Dsv4Dims m = p.dims();
        long t = p.t();
        long d = m.d();
        long hd = m.headDim();
        long rope = m.ropeDim();
        long ql = m.qLora();
        long tl = (t + 15) / 16 * 16;
        List<Alloc> l = new ArrayList<>();
        Adder body = new Adder(l, "program");
        Adder hc = new Adder(l, "hc_pre");
        Adder qkv = new Adder(l, "qkv_proj_rope");
        body.add("x_mixed", DType.BF16, t, d);
        body.add("post", DType.FP32, t, m.hcMult());
        body.add("comb", DType.FP32, t, (long) m.hcMult() * m.hcMult());
        hc.add("inv_rms", DType.FP32, tl, 1);
        hc.add("mixes_raw", DType.FP32, tl, 32);
        hc.add("mixes_partials", DType.FP32, 4 * tl, 32);
        hc.add("pre_raw_store", DType.FP32, tl, 8);
        hc.add("post_raw_store", DType.FP32, tl, 8);
        hc.add("pre_val_store", DType.FP32, tl, 8);
        body.add("x_normed", DType.BF16, t, d);
        body.add("rope_cos_t", DType.BF16, t, rope);
        body.add("rope_sin_t", DType.BF16, t, rope);
        body.add("q", DType.BF16, t, m.h(), hd);
        body.add("kv", DType.BF16, t, hd);
        body.add("qr", DType.INT8, t, ql);
        body.add("qr_scale", DType.FP32, t, 1);
        qkv.add("q_rope_cos_il", DType.FP32, t, rope);
        qkv.add("q_rope_sin_signed", DType.FP32, t, rope);
        qkv.add("q_rope_swap_idx", DType.INT32, t, rope);
        qkv.add("qr_fp32", DType.FP32, t, ql);
        qkv.add("qr_partials", DType.FP32, 2 * t, ql);
        qkv.add("qr_i8_matmul", DType.INT8, t, ql);
        qkv.add("q_proj_i32", DType.INT32, t, (long) m.h() * hd);
        qkv.add("kv_fp32", DType.FP32, t, hd);
        qkv.add("kv_partials", DType.FP32, 4 * t, hd);
        switch (program) {
            case SWA -> {
                body.add("swa_indices", DType.INT32, t, m.win());
                body.add("cmp_block_table_dummy", DType.INT32, p.pools().cmpMaxBlocks());
                body.add("cmp_kv_dummy", DType.BF16, p.pools().cmpBlockNum(), p.pools().blockSize(), 1, hd);
                body.add("cmp_indices_dummy", DType.INT32, t, m.idxTopk());
            }
            case CSA -> csa(p, l, body);
            case HCA -> {
                Adder c = new Adder(l, "prefill_compressor_ratio128");
                c.add("kv_proj_scratch", DType.FP32, t, hd);
                c.add("score_proj_scratch", DType.FP32, t, hd);
                c.add("pooled_kv_pad", DType.FP32, 8, hd);
                c.add("normed_kv_pad", DType.FP32, 8, hd);
                c.add("write_pos_map", DType.INT32, 1, 8);
                c.add("write_dst_map", DType.INT32, 1, 8);
                body.add("swa_indices", DType.INT32, t, m.win());
                body.add("cmp_indices", DType.INT32, t, m.idxTopk());
            }
        }
        body.add("attn_out", DType.BF16, t, d);
        Adder sa = new Adder(l, "prefill_sparse_attn");
        long pad = p.sparsePad();
        // per (token, tile, head): T·(H/16)·3·16 in the original's head tiles of 16, T·3·H for any H
        long blkRows = t * p.attnBlocks() * m.h();
        long g = m.oGroups();
        sa.add("rope_cos_il", DType.FP32, t, rope);
        sa.add("rope_sin_signed", DType.FP32, t, rope);
        sa.add("sparse_kv", DType.BF16, t * pad, hd);
        sa.add("sparse_bias", DType.FP32, t, pad);
        sa.add("sparse_blk_mi", DType.FP32, blkRows, 1);
        sa.add("sparse_blk_li", DType.FP32, blkRows, 1);
        sa.add("sparse_blk_oi", DType.FP32, blkRows, hd);
        sa.add("attn_rope_stage", DType.FP32, t * m.h(), rope);
        sa.add("o_packed", DType.BF16, g * t, m.oGroupIn());
        sa.add("o_r", DType.FP32, t, g * m.oLora());
        sa.add("o_r_i8", DType.INT8, t, g * m.oLora());
        sa.add("act_scale_dq", DType.FP32, g, t);
        sa.add("partials", DType.INT32, t, g * d);
        return List.copyOf(l);
    }

    private static void csa(Dsv4Preset p, List<Alloc> l, Adder body) {
        Dsv4Dims m = p.dims();
        long t = p.t();
        long hd = m.headDim();
        long ihd = m.idxHeadDim();
        long writes = p.maxCmpWrites(4);
        Adder c = new Adder(l, "prefill_compressor_ratio4");
        c.add("cmp4_kv_proj_scratch", DType.FP32, t, 2 * hd);
        c.add("cmp4_score_proj_scratch", DType.FP32, t, 2 * hd);
        c.add("pooled_kv", DType.FP32, writes, hd);
        c.add("normed_kv", DType.FP32, writes, hd);
        c.add("write_pos_map", DType.INT32, 1, writes);
        c.add("write_dst_map", DType.INT32, 1, writes);
        body.add("idx_cos", DType.FP32, t, m.ropeDim() / 2);
        body.add("idx_sin", DType.FP32, t, m.ropeDim() / 2);
        body.add("cmp_topk_indices", DType.INT32, t, m.idxTopk());
        body.add("idx_score_unused", DType.FP32, t, Dsv4Preset.INDEXER_SCORE_CAP);
        Adder ix = new Adder(l, "prefill_indexer");
        Adder ic = new Adder(l, "prefill_indexer_compressor");
        long nh = m.idxNHeads();
        ix.add("qr_proj", DType.FP32, t, nh * ihd);
        ix.add("qr_rope_out", DType.BF16, t * nh, m.ropeDim());
        ix.add("qr_hadamard_i8", DType.INT8, t * nh, ihd);
        ix.add("qr_hadamard_scale_dq", DType.FP32, t * nh, 1);
        ix.add("weights", DType.FP32, t, nh);
        ic.add("kv_proj_scratch", DType.FP32, t, 2 * ihd);
        ic.add("score_proj_scratch", DType.FP32, t, 2 * ihd);
        ic.add("pooled_kv", DType.FP32, writes, ihd);
        ic.add("normed_kv", DType.BF16, writes, ihd);
        ic.add("final_kv", DType.FP32, writes, ihd);
        ic.add("write_pos_map", DType.INT32, 1, writes);
        ic.add("write_dst_map", DType.INT32, 1, writes);
        ix.add("score_wide", DType.FP32, t, 2048);
        body.add("swa_indices", DType.INT32, t, m.win());
        body.add("cmp_indices", DType.INT32, t, m.idxTopk());
    }

    private record Adder(List<Alloc> out, String stage) {
        void add(String name, DType dtype, long... shape) {
            out.add(new Alloc(stage, name, dtype, shape, BODY_SCOPE_DEPTH));
        }
    }
}
