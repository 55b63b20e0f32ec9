package dev.jpto.models.dsv4;

import dev.jpto.isa.DType;
import dev.jpto.models.dsv4.TensorSpec.Direction;

import java.util.ArrayList;
import java.util.List;

/**
 * The parameter list of one program at one preset, in the original's order (spec §2): every tensor with its
 * shape, dtype, direction and input rule (spec §5), then the scalar {@code num_tokens}.
 */
public record Dsv4Signature(Dsv4Program program, Dsv4Preset preset, List<TensorSpec> tensors) {

    /** Name of the trailing int32 scalar parameter. */
    public static final String NUM_TOKENS = "num_tokens";

    public Dsv4Signature {
        tensors = List.copyOf(tensors);
    }

    public TensorSpec tensor(String name) {
        for (TensorSpec s : tensors) {
            if (s.name().equals(name)) {
                return s;
            }
        }
        throw new IllegalArgumentException(program.programName() + " has no tensor '" + name + "'; it has "
                + tensors.stream().map(TensorSpec::name).toList());
    }

    /** The scalar parameters, in order (after the tensors): {@code num_tokens} (int32) of the preset's chunk. */
    public java.util.Map<String, Long> scalars() {
        return java.util.Map.of(NUM_TOKENS, (long) preset.numTokens());
    }

    /** Tensors the harness compares against the golden (InOut pools and x_out). */
    public List<TensorSpec> validated() {
        return tensors.stream().filter(TensorSpec::validated).toList();
    }

    /** Builds the signature; validates the preset for the program first. */
    public static Dsv4Signature of(Dsv4Program program, Dsv4Preset preset) {
        preset.validate(program);
        List<TensorSpec> l = new ArrayList<>();
        Builder b = new Builder(l);
        Dsv4Dims m = preset.dims();
        Dsv4Pools pools = preset.pools();
        int t = preset.t();
        int d = m.d();
        int hd = m.headDim();
        int start = preset.startPos();
        int end = start + preset.numTokens();
        RopeProfile rope = preset.rope().profile(program.compressRatio());

        // rows 1-13: identical in the three programs
        b.in("x_hc", DType.FP32, Dsv4Fills.xHc(preset.numTokens()), t, m.hcMult(), d);
        b.in("hc_attn_fn", DType.FP32, Init.normal(0, program.hcFnStd()), m.mixHc(), m.hcDim());
        b.in("hc_attn_scale", DType.FP32, new Init.Values(program.hcScale()), 3);
        b.in("hc_attn_base", DType.FP32, new Init.Values(program.hcBase()), m.mixHc());
        b.in("attn_norm_w", DType.BF16, Init.constant(1), d);
        b.in("wq_a", DType.BF16, uniformCentered(1 / Math.sqrt(d)), d, m.qLora());
        b.in("wq_b", DType.INT8, Dsv4Fills.quantizedUniform("wq_b", m.qLora(), m.h() * hd,
                1 / Math.sqrt(m.qLora()), false, false), m.qLora(), m.h() * hd);
        b.in("wq_b_scale", DType.FP32, Dsv4Fills.quantizedUniform("wq_b", m.qLora(), m.h() * hd,
                1 / Math.sqrt(m.qLora()), false, true), m.h() * hd);
        b.in("wkv", DType.BF16, uniformCentered(1 / Math.sqrt(d)), d, hd);
        b.in("gamma_cq", DType.BF16, Init.constant(1), m.qLora());
        b.in("gamma_ckv", DType.BF16, Init.constant(1), hd);
        b.in("freqs_cos", DType.BF16, Dsv4Fills.ropeTable(rope, m.ropeDim(), m.maxSeqLen(), true),
                m.maxSeqLen(), m.ropeDim());
        b.in("freqs_sin", DType.BF16, Dsv4Fills.ropeTable(rope, m.ropeDim(), m.maxSeqLen(), false),
                m.maxSeqLen(), m.ropeDim());

        Init kvCache = Dsv4Fills.poolPrefix("kv_cache", "zeros, except rows of positions max(0,start-128)..start-1:"
                + " (U-0.5)·0.1 (identity table)", start - 128, start, hd, 0.1, pos -> pos);
        Init oriSlots = Dsv4Fills.perToken("pos[t] for active t (identity table), -1 otherwise", preset,
                preset::position, -1);
        Init positions = Dsv4Fills.perToken("start_pos + t (t for padding rows)", preset, preset::position, 0);
        switch (program) {
            case SWA -> {
                b.inout("kv_cache", DType.BF16, kvCache, pools.oriBlockNum(), pools.blockSize(), 1, hd);
                b.in("block_table", DType.INT32, Dsv4Fills.identityTable(), pools.oriBlockNum());
                b.in("ori_slot_mapping", DType.INT64, oriSlots, t);
                b.in("position_ids", DType.INT32, positions, t);
            }
            case CSA -> addCsa(b, preset, kvCache, oriSlots, positions);
            case HCA -> addHca(b, preset, kvCache, oriSlots, positions);
        }
        b.in("attn_sink", DType.FP32, preset.sinkInit(), m.h());
        b.in("wo_a", DType.BF16, uniformCentered(1 / Math.sqrt(m.oGroupIn())), m.oGroups(), m.oLora(),
                m.oGroupIn());
        int oIn = m.oGroups() * m.oLora();
        b.in("wo_b", DType.INT8, Dsv4Fills.quantizedUniform("wo_b", d, oIn, 1 / Math.sqrt(oIn), true, false),
                d, oIn);
        b.in("wo_b_scale", DType.FP32, Dsv4Fills.quantizedUniform("wo_b", d, oIn, 1 / Math.sqrt(oIn), true, true),
                d);
        l.add(new TensorSpec("x_out", DType.FP32, new long[] {t, m.hcMult(), d}, Direction.OUT, Init.zeros(),
                true));
        return new Dsv4Signature(program, preset, l);
    }

    private static void addCsa(Builder b, Dsv4Preset p, Init kvCache, Init oriSlots, Init positions) {
        Dsv4Dims m = p.dims();
        Dsv4Pools pools = p.pools();
        int d = m.d();
        int hd = m.headDim();
        int ihd = m.idxHeadDim();
        int t = p.t();
        int start = p.startPos();
        int[] stateTable = scrambled(p.csaStateMaxBlocks(), pools.csaStateBlocks());
        int[] innerTable = scrambled(p.csaStateMaxBlocks(), pools.csaInnerStateBlocks());
        b.in("cmp_wkv", DType.BF16, Init.normal(0, 0.0245), 2 * hd, d);
        b.in("cmp_wgate", DType.BF16, Init.normal(0, 0.0388), 2 * hd, d);
        b.in("cmp_ape", DType.FP32, Init.normal(0, 0.1243), 4, 2 * hd);
        b.in("cmp_norm_w", DType.BF16, Init.normal(0.9666, 0.1929), hd);
        b.inout("compress_state", DType.FP32, Dsv4Fills.poolPrefix("compress_state",
                        "zeros, except state rows of positions max(0,start-8)..start-1: (U-0.5)·0.05",
                        start - 8, start, 4 * hd, 0.05, pos -> stateRow(stateTable, pos, 4)),
                pools.csaStateBlocks(), 4, 4 * hd);
        b.in("compress_state_block_table", DType.INT32, Dsv4Fills.scrambledTable(pools.csaStateBlocks()),
                p.csaStateMaxBlocks());
        b.in("hadamard_idx", DType.BF16, Dsv4Fills.hadamard(ihd), ihd, ihd);
        int idxOut = m.idxNHeads() * ihd;
        Dsv4Fills.SharedWeight idxWqB = Dsv4Fills.sharedWeight("idx_wq_b", idxOut, m.qLora(), 0.108, 0.56, true);
        b.in("idx_wq_b", DType.INT8, idxWqB.codes(), m.qLora(), idxOut);
        b.in("idx_wq_b_scale", DType.FP32, idxWqB.scales(), idxOut);
        b.in("idx_weights_proj", DType.BF16, Init.normal(0, 0.2313), d, m.idxNHeads());
        b.in("inner_wkv", DType.BF16, Init.normal(0, 0.0293), 2 * ihd, d);
        b.in("inner_wgate", DType.BF16, Init.normal(0, 0.0512), 2 * ihd, d);
        b.in("inner_ape", DType.FP32, Init.normal(0, 0.1528), 4, 2 * ihd);
        b.in("inner_norm_w", DType.BF16, Init.normal(0.6850, 0.2610), ihd);
        b.inout("inner_compress_state", DType.FP32, Dsv4Fills.poolPrefix("inner_compress_state",
                        "zeros, except rows of positions start-8..start-1: (U-0.5)·0.05",
                        start - 8, start, 4 * ihd, 0.05, pos -> stateRow(innerTable, pos, 4)),
                pools.csaInnerStateBlocks(), 4, 4 * ihd);
        b.in("inner_compress_state_block_table", DType.INT32, Dsv4Fills.scrambledTable(pools.csaInnerStateBlocks()),
                p.csaStateMaxBlocks());
        b.inout("kv_cache", DType.BF16, kvCache, pools.oriBlockNum(), pools.blockSize(), 1, hd);
        b.in("ori_block_table", DType.INT32, Dsv4Fills.identityTable(), p.oriMaxBlocks());
        b.in("ori_slot_mapping", DType.INT64, oriSlots, t);
        b.inout("cmp_kv", DType.BF16, Dsv4Fills.poolPrefix("cmp_kv",
                        "zeros, except logical slots 0..start/4-1 (identity table): (U-0.5)·0.1",
                        0, start / 4, hd, 0.1, s -> s),
                pools.cmpBlockNum(), pools.blockSize(), 1, hd);
        b.in("cmp_block_table", DType.INT32, Dsv4Fills.identityTable(), pools.cmpMaxBlocks());
        b.inout("idx_kv_cache", DType.INT8, Dsv4Fills.idxKvPrefix(start / 4, ihd, false),
                pools.idxBlockNum(), pools.blockSize(), 1, ihd);
        b.inout("idx_kv_scale", DType.FP32, Dsv4Fills.idxKvPrefix(start / 4, ihd, true),
                pools.idxBlockNum(), pools.blockSize(), 1, 1);
        b.in("idx_block_table", DType.INT32, Dsv4Fills.identityTable(), pools.idxMaxBlocks());
        b.in("position_ids", DType.INT32, positions, t);
        Init closing = Dsv4Fills.perToken("(pos+1)/4 - 1 when (pos+1) % 4 == 0 (identity table), else -1", p,
                i -> (p.position(i) + 1) % 4 == 0 ? (p.position(i) + 1) / 4 - 1 : -1, -1);
        b.in("cmp_slot_mapping", DType.INT64, closing, t);
        b.in("idx_slot_mapping", DType.INT64, closing, t);
        b.in("state_slot_mapping", DType.INT64, Dsv4Fills.perToken("table[pos/4]·4 + pos%4 (scrambled table)", p,
                i -> stateRow(stateTable, p.position(i), 4), -1), t);
        b.in("inner_state_slot_mapping", DType.INT64, Dsv4Fills.perToken("table[pos/4]·4 + pos%4 (scrambled table)",
                p, i -> stateRow(innerTable, p.position(i), 4), -1), t);
    }

    private static void addHca(Builder b, Dsv4Preset p, Init kvCache, Init oriSlots, Init positions) {
        Dsv4Dims m = p.dims();
        Dsv4Pools pools = p.pools();
        int d = m.d();
        int hd = m.headDim();
        int t = p.t();
        int start = p.startPos();
        int[] stateTable = scrambled(p.hcaStateMaxBlocks(), pools.hcaStateBlocks());
        b.in("cmp_wkv", DType.BF16, Init.normal(0, 0.0246), hd, d);
        b.in("cmp_wgate", DType.BF16, Init.normal(0, 0.0316), hd, d);
        b.in("cmp_ape", DType.FP32, Init.normal(0, 0.0340), 128, hd);
        b.in("cmp_norm_w", DType.BF16, Init.normal(0.1001, 0.0549), hd);
        b.inout("compress_state", DType.FP32, Dsv4Fills.poolPrefix("compress_state",
                        "zeros, except rows of positions max(0,start-128)..start-1: (U-0.5)·0.05",
                        start - 128, start, 2 * hd, 0.05, pos -> stateRow(stateTable, pos, 8)),
                pools.hcaStateBlocks(), 8, 2 * hd);
        b.in("compress_state_block_table", DType.INT32, Dsv4Fills.scrambledTable(pools.hcaStateBlocks()),
                p.hcaStateMaxBlocks());
        b.inout("kv_cache", DType.BF16, kvCache, pools.oriBlockNum(), pools.blockSize(), 1, hd);
        b.in("ori_slot_mapping", DType.INT64, oriSlots, t);
        b.in("ori_block_table", DType.INT32, Dsv4Fills.identityTable(), p.oriMaxBlocks());
        b.inout("cmp_kv", DType.BF16, Dsv4Fills.poolPrefix("cmp_kv",
                        "zeros, except slots 0..start/128-1: (U-0.5)·0.1", 0, start / 128, hd, 0.1, s -> s),
                pools.cmpBlockNum(), pools.blockSize(), 1, hd);
        b.in("cmp_block_table", DType.INT32, Dsv4Fills.firstBlockOnlyTable(), pools.cmpMaxBlocks());
        b.in("position_ids", DType.INT32, positions, t);
        b.in("cmp_slot_mapping", DType.INT64, Dsv4Fills.perToken(
                "(pos+1)/128 - 1 lowered through cmp_block_table when (pos+1) % 128 == 0, else -1", p, i -> {
                    int pos = p.position(i);
                    if ((pos + 1) % 128 != 0) {
                        return -1;
                    }
                    int slot = (pos + 1) / 128 - 1;
                    return slot / pools.blockSize() == 0 ? slot : -1;
                }, -1), t);
        b.in("state_slot_mapping", DType.INT64, Dsv4Fills.perToken("table[pos/8]·8 + pos%8 (scrambled table)", p,
                i -> stateRow(stateTable, p.position(i), 8), -1), t);
    }

    /** Physical state row of absolute position {@code pos}: {@code table[pos / rows]·rows + pos % rows}. */
    static int stateRow(int[] table, int pos, int rows) {
        return table[pos / rows] * rows + pos % rows;
    }

    static int[] scrambled(int length, int physical) {
        int[] t = new int[length];
        for (int b = 0; b < length; b++) {
            t[b] = (int) ((17L * b + 3) % physical);
        }
        return t;
    }

    private static Init uniformCentered(double scale) {
        return Init.uniform(-0.5 * scale, 0.5 * scale);
    }

    private record Builder(List<TensorSpec> out) {
        void in(String name, DType dtype, Init init, long... shape) {
            out.add(new TensorSpec(name, dtype, shape, Direction.IN, init, false));
        }

        void inout(String name, DType dtype, Init init, long... shape) {
            out.add(new TensorSpec(name, dtype, shape, Direction.INOUT, init, true));
        }
    }
}
