package dev.jpto.models.dsv4;

/**
 * Deployment constants: the token rows of one program and the physical pools of the paged caches and the
 * compressor states (the original's {@code config.py} "Deployment/Implementation constants").
 *
 * @param t                    T = PREFILL_BATCH·PREFILL_SEQ token rows per program
 * @param blockSize            BLOCK_SIZE, rows per page of kv_cache, cmp_kv, idx_kv_cache
 * @param oriBlockNum          physical blocks of kv_cache (PREFILL_ORI_BLOCK_NUM; also SWA's block_table length)
 * @param cmpMaxBlocks         length of cmp_block_table (PREFILL_CMP_MAX_BLOCKS)
 * @param cmpBlockNum          physical blocks of cmp_kv
 * @param idxMaxBlocks         length of idx_block_table
 * @param idxBlockNum          physical blocks of idx_kv_cache / idx_kv_scale
 * @param csaStateBlocks       physical blocks of the CSA main compress_state (block = 4 rows)
 * @param csaInnerStateBlocks  physical blocks of inner_compress_state (block = 4 rows)
 * @param hcaStateBlocks       physical blocks of the HCA compress_state (block = 8 rows)
 */
public record Dsv4Pools(int t, int blockSize, int oriBlockNum, int cmpMaxBlocks, int cmpBlockNum, int idxMaxBlocks,
                        int idxBlockNum, int csaStateBlocks, int csaInnerStateBlocks, int hcaStateBlocks) {

    /** Rows per block of the ratio-4 compressor states (C4A_COMPRESSOR_BLOCK_SIZE). */
    public static final int CSA_STATE_BLOCK_ROWS = 4;
    /** Rows per block of the ratio-128 compressor state (C128_COMPRESSOR_BLOCK_SIZE). */
    public static final int HCA_STATE_BLOCK_ROWS = 8;
}
