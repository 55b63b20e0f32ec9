package dev.jpto.models.dsv4;

import java.util.ArrayList;
import java.util.List;

/**
 * A named size of the three programs: model dimensions, RoPE configuration, pools, and the fixture (chunk start,
 * active tokens, attention sinks). {@link #validate(Dsv4Program)} enforces the original's structural and
 * capacity constraints; {@link #originalTilingViolations()} lists the kernel-tiling asserts of the original that
 * a preset does not meet (informational: a port tiles for its own engine).
 *
 * @param sinkInit how {@code attn_sink[H]} is generated: zeros in the original's fixtures (and {@code pro}),
 *                 non-zero for {@code demo} and {@code tiny} so a missing sink term is visible
 */
public record Dsv4Preset(String name, Dsv4Dims dims, Dsv4Rope rope, Dsv4Pools pools, int startPos, int numTokens,
                         Init sinkInit) {

    /** Positions the CSA indexer scores at most: two 128-row blocks (INDEXER_SCORE_CAP). */
    public static final int INDEXER_SCORE_CAP = 256;
    /** Rows per attention tile (PREFILL_ATTN_TILE). */
    public static final int ATTN_TILE = 128;
    /** The kernels' MAX_SEQ_LEN override (KERNEL_MAX_SEQ_LEN). */
    public static final int KERNEL_MAX_SEQ_LEN = 16384;

    private static final Dsv4Pools ORIGINAL_POOLS = new Dsv4Pools(128, 128, 128, 32, 32, 64, 64, 65, 65, 64);

    /** DeepSeek-V4 Pro ({@code config.PRO} with the kernels' MAX_SEQ_LEN = 16384), fixture as the original's. */
    public static Dsv4Preset pro() {
        return new Dsv4Preset("pro",
                new Dsv4Dims(7168, 128, 512, 64, 1536, 1024, 16, 128, 64, 128, 1024, 4, 20, 1e-6, 1e-6,
                        KERNEL_MAX_SEQ_LEN),
                new Dsv4Rope(10000, 160000, 16, 32, 1, 65536), ORIGINAL_POOLS, 0, 128, Init.zeros());
    }

    /**
     * The original's {@code config.DEMO} model (D 4096, H 64, 8 groups, IDX_TOPK 512, compressed RoPE base 40000
     * without YaRN) with the kernels' MAX_SEQ_LEN and non-zero attention sinks.
     */
    public static Dsv4Preset demo() {
        return new Dsv4Preset("demo",
                new Dsv4Dims(4096, 64, 512, 64, 1024, 1024, 8, 128, 64, 128, 512, 4, 20, 1e-6, 1e-6,
                        KERNEL_MAX_SEQ_LEN),
                new Dsv4Rope(10000, 40000, 40, 32, 1, 0), ORIGINAL_POOLS, 0, 128, Init.uniform(2.0, 5.0));
    }

    /**
     * Spec §1.3: every structural constant of Pro kept (T = WIN = BLOCK_SIZE = 128, ratios 4/128, three attention
     * tiles, HC_MULT 4, RoPE 64 with Pro's YaRN, IDX_HEAD_DIM 128, IDX_TOPK 256, >1 output group), widths shrunk.
     */
    public static Dsv4Preset tiny() {
        return new Dsv4Preset("tiny",
                new Dsv4Dims(256, 8, 128, 64, 128, 64, 2, 128, 4, 128, 256, 4, 20, 1e-6, 1e-6, 2048),
                new Dsv4Rope(10000, 160000, 16, 32, 1, 65536),
                new Dsv4Pools(128, 128, 16, 4, 4, 4, 4, 65, 65, 64), 0, 128, Init.uniform(2.0, 5.0));
    }

    public static List<Dsv4Preset> all() {
        return List.of(tiny(), demo(), pro());
    }

    public static Dsv4Preset byName(String name) {
        return switch (name) {
            case "tiny" -> tiny();
            case "demo" -> demo();
            case "pro" -> pro();
            default -> throw new IllegalArgumentException("unknown dsv4 preset '" + name
                    + "'; valid: tiny, demo, pro");
        };
    }

    /** The same preset for another chunk: {@code startPos} (multiple of 128) and {@code numTokens} active rows. */
    public Dsv4Preset withChunk(int newStartPos, int newNumTokens) {
        return new Dsv4Preset(name, dims, rope, pools, newStartPos, newNumTokens, sinkInit);
    }

    /** The same preset with another attention-sink rule. */
    public Dsv4Preset withSinks(Init newSinkInit) {
        return new Dsv4Preset(name, dims, rope, pools, startPos, numTokens, newSinkInit);
    }

    // ---- derived constants (spec §1.2) ----

    public int t() {
        return pools.t();
    }

    /** Length of the ori block table: ceil(MAX_SEQ_LEN / BLOCK_SIZE). */
    public int oriMaxBlocks() {
        return ceilDiv(dims.maxSeqLen(), pools.blockSize());
    }

    /** Length of the ratio-4 state block tables: ceil(MAX_SEQ_LEN / 4). */
    public int csaStateMaxBlocks() {
        return ceilDiv(dims.maxSeqLen(), Dsv4Pools.CSA_STATE_BLOCK_ROWS);
    }

    /** Length of the ratio-128 state block table: ceil(MAX_SEQ_LEN / 8). */
    public int hcaStateMaxBlocks() {
        return ceilDiv(dims.maxSeqLen(), Dsv4Pools.HCA_STATE_BLOCK_ROWS);
    }

    /** PREFILL_MAX_COMPRESSED = max(1, min(IDX_TOPK, WIN + WIN/2)). */
    public int prefillMaxCompressed() {
        return Math.max(1, Math.min(dims.idxTopk(), dims.win() + dims.win() / 2));
    }

    /** PREFILL_SPARSE_TOPK = min(WIN + IDX_TOPK, min(WIN, T) + PREFILL_MAX_COMPRESSED). */
    public int sparseTopk() {
        return Math.min(dims.win() + dims.idxTopk(), Math.min(dims.win(), t()) + prefillMaxCompressed());
    }

    /** PREFILL_ATTN_BLOCKS = ceil(PREFILL_SPARSE_TOPK / 128). */
    public int attnBlocks() {
        return ceilDiv(sparseTopk(), ATTN_TILE);
    }

    /** PREFILL_SPARSE_PAD = blocks·128: slots 0..WIN-1 window keys, the rest compressed columns. */
    public int sparsePad() {
        return attnBlocks() * ATTN_TILE;
    }

    /** Compressed columns the attention reads per token: PREFILL_SPARSE_PAD − WIN. */
    public int cmpColumns() {
        return sparsePad() - dims.win();
    }

    /** Compressed rows one chunk can close: T / ratio (MAX_CMP_WRITES). */
    public int maxCmpWrites(int ratio) {
        return ratio == 0 ? 0 : t() / ratio;
    }

    /** Absolute position of token row {@code t}: start_pos + t when active, t for padding rows (unused). */
    public int position(int t) {
        return t < numTokens ? startPos + t : t;
    }

    // ---- validation ----

    /** Throws if a structural or capacity constraint of the original fails for {@code program}; names each rule. */
    public Dsv4Preset validate(Dsv4Program program) {
        List<String> bad = violations(program);
        if (!bad.isEmpty()) {
            throw new IllegalArgumentException("dsv4 preset '" + name + "' is invalid for " + program.programName()
                    + ":\n  " + String.join("\n  ", bad));
        }
        return this;
    }

    /** Every violated constraint, as "rule: name=value (fix)" lines; empty when valid. */
    public List<String> violations(Dsv4Program program) {
        List<String> v = new ArrayList<>();
        Dsv4Dims m = dims;
        int t = t();
        check(v, t == 128 && m.win() == 128 && pools.blockSize() == 128,
                "T == WIN == BLOCK_SIZE == 128 (one window page per chunk; the SWA overlay maps suffix rows as WIN+t)",
                "T=" + t + " WIN=" + m.win() + " BLOCK_SIZE=" + pools.blockSize(), "use 128 for all three");
        check(v, t % 16 == 0, "T % 16 == 0 (16-row cube tiles)", "T=" + t, "use a multiple of 16");
        check(v, m.hcMult() == 4, "HC_MULT == 4 (hc_pre is unrolled for 4 streams; hc_attn_base has 24 values)",
                "HC_MULT=" + m.hcMult(), "use 4");
        check(v, m.ropeDim() > 0 && m.ropeDim() % 32 == 0 && m.ropeDim() < m.headDim(),
                "ROPE_HEAD_DIM must be a positive multiple of 32 below HEAD_DIM (rope_cs tiles 16 frequency pairs)",
                "ROPE_HEAD_DIM=" + m.ropeDim() + " HEAD_DIM=" + m.headDim(), "use 64");
        check(v, m.oGroups() > 0 && m.h() % m.oGroups() == 0, "H % O_GROUPS == 0 (heads split evenly over groups)",
                "H=" + m.h() + " O_GROUPS=" + m.oGroups(), "pick O_GROUPS dividing H");
        check(v, m.idxTopk() >= INDEXER_SCORE_CAP,
                "IDX_TOPK >= 256 (prefill_indexer asserts min(IDX_TOPK, 256) == 256)", "IDX_TOPK=" + m.idxTopk(),
                "try 256");
        check(v, Integer.bitCount(m.idxHeadDim()) == 1 && m.idxHeadDim() > m.ropeDim(),
                "IDX_HEAD_DIM must be a power of two above ROPE_HEAD_DIM (Sylvester Hadamard; rope lanes inside)",
                "IDX_HEAD_DIM=" + m.idxHeadDim(), "try 128");
        check(v, m.idxNHeads() > 0, "IDX_N_HEADS > 0", "IDX_N_HEADS=" + m.idxNHeads(), "try 64");
        check(v, m.maxSeqLen() > 0 && m.maxSeqLen() % pools.blockSize() == 0,
                "MAX_SEQ_LEN must be a positive multiple of BLOCK_SIZE", "MAX_SEQ_LEN=" + m.maxSeqLen(),
                "try 16384");
        check(v, oriMaxBlocks() <= pools.oriBlockNum(),
                "ceil(MAX_SEQ_LEN/BLOCK_SIZE) <= ORI_BLOCK_NUM (identity ori table must stay in the pool)",
                "ori_max_blocks=" + oriMaxBlocks() + " ORI_BLOCK_NUM=" + pools.oriBlockNum(),
                "raise ORI_BLOCK_NUM to " + oriMaxBlocks());
        check(v, pools.cmpMaxBlocks() <= pools.cmpBlockNum() && pools.idxMaxBlocks() <= pools.idxBlockNum(),
                "identity cmp/idx block tables must stay inside their pools",
                "CMP_MAX_BLOCKS=" + pools.cmpMaxBlocks() + " CMP_BLOCK_NUM=" + pools.cmpBlockNum()
                        + " IDX_MAX_BLOCKS=" + pools.idxMaxBlocks() + " IDX_BLOCK_NUM=" + pools.idxBlockNum(),
                "make each pool at least as long as its table");
        // fixture
        check(v, numTokens >= 1 && numTokens <= t, "1 <= num_tokens <= T", "num_tokens=" + numTokens,
                "use 1.." + t);
        check(v, startPos >= 0 && startPos % 128 == 0, "start_pos must be a non-negative multiple of 128",
                "start_pos=" + startPos, "round down to " + Math.max(0, startPos / 128 * 128));
        int end = startPos + numTokens;
        check(v, end <= m.maxSeqLen(), "start_pos + num_tokens <= MAX_SEQ_LEN", "end=" + end, "use a smaller start_pos");
        if (program == Dsv4Program.CSA) {
            check(v, end / 4 <= cmpColumns(),
                    "CSA: (start_pos + num_tokens)/4 <= PREFILL_SPARSE_PAD - WIN (the attention reads at most "
                            + cmpColumns() + " compressed rows)", "start_pos+num_tokens=" + end,
                    "keep start_pos + num_tokens <= " + 4 * cmpColumns());
            check(v, end / 4 <= pools.cmpMaxBlocks() * pools.blockSize()
                            && end / 4 <= pools.idxMaxBlocks() * pools.blockSize(),
                    "CSA: compressed rows must fit the cmp and idx block tables", "compressed rows=" + end / 4,
                    "use a smaller start_pos");
        }
        if (program == Dsv4Program.HCA) {
            check(v, t == program.compressRatio(), "HCA: T == 128 == COMPRESS_RATIO (one ratio-128 chunk per program)",
                    "T=" + t, "use T=128");
            check(v, end / 128 <= pools.blockSize(),
                    "HCA: at most BLOCK_SIZE compressed rows (only cmp block 0 is mapped)",
                    "compressed rows=" + end / 128, "keep start_pos + num_tokens <= " + 128 * pools.blockSize());
        }
        return v;
    }

    /**
     * Kernel-tiling asserts of the original that this preset does not meet. The original has no small preset
     * (its smallest selectable model is Flash, D = 4096) and simply fails these asserts at import for smaller
     * widths; a port tiles for its own engine, so these are informational.
     */
    public List<String> originalTilingViolations() {
        List<String> v = new ArrayList<>();
        Dsv4Dims m = dims;
        check(v, m.d() % 1024 == 0, "hc_pre mix_x: D % 1024 == 0 (D_SPMD)", "D=" + m.d(), "");
        check(v, m.d() % 512 == 0, "rms_norm / proj_b_act: D % 512 == 0", "D=" + m.d(), "");
        check(v, m.d() % 1024 == 0, "proj_b_mm: D % PROJ_B_D_CHUNK(1024) == 0", "D=" + m.d(), "");
        check(v, m.oLora() % 512 == 0, "quant: O_LORA % QUANT_TILE(512) == 0", "O_LORA=" + m.oLora(), "");
        check(v, m.oLora() % 128 == 0, "proj_a_mm: O_LORA % 128 == 0", "O_LORA=" + m.oLora(), "");
        check(v, m.h() % 32 == 0, "qk_pv: H % QK_M_TILE(32) == 0 (head batches of 32)", "H=" + m.h(), "");
        check(v, m.qLora() % 256 == 0, "qr_rms_norm_quant: Q_LORA % 256 == 0 (sum-of-squares chunks)",
                "Q_LORA=" + m.qLora(), "");
        check(v, m.idxNHeads() % 64 == 0, "indexer: IDX_N_HEADS·T % 256 == 0 and 64-head batches",
                "IDX_N_HEADS=" + m.idxNHeads(), "");
        return v;
    }

    private static void check(List<String> out, boolean ok, String rule, String values, String fix) {
        if (!ok) {
            out.add(rule + ": " + values + (fix.isEmpty() ? "" : " (" + fix + ")"));
        }
    }

    static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }
}
