package dev.jpto.models.dsv4;

/**
 * Model dimensions of one DeepSeek-V4 attention layer (the original's {@code config.py} fields), plus the
 * quantities derived from them. Names follow the original's kernel constants ({@code D}, {@code H}, …).
 *
 * @param d              hidden size D
 * @param h              attention heads H
 * @param headDim        HEAD_DIM (nope + rope lanes of one head)
 * @param ropeDim        ROPE_HEAD_DIM, the last lanes of a head that are rotated
 * @param qLora          Q_LORA, rank of the query down-projection
 * @param oLora          O_LORA, rank of one group of the grouped output projection
 * @param oGroups        O_GROUPS
 * @param win            WIN, sliding window
 * @param idxNHeads      IDX_N_HEADS of the CSA indexer
 * @param idxHeadDim     IDX_HEAD_DIM (also the Hadamard order)
 * @param idxTopk        IDX_TOPK
 * @param hcMult         HC_MULT, hyper-connection streams
 * @param sinkhornIters  HC_SINKHORN_ITER
 * @param eps            rms_norm_eps
 * @param hcEps          hc_eps
 * @param maxSeqLen      MAX_SEQ_LEN as the kernels override it (rows of the RoPE tables)
 */
public record Dsv4Dims(int d, int h, int headDim, int ropeDim, int qLora, int oLora, int oGroups, int win,
                       int idxNHeads, int idxHeadDim, int idxTopk, int hcMult, int sinkhornIters, double eps,
                       double hcEps, int maxSeqLen) {

    public int nopeDim() {
        return headDim - ropeDim;
    }

    public int hcDim() {
        return hcMult * d;
    }

    /** MIX_HC = (2 + HC_MULT)·HC_MULT: pre gates, post gates and the HC_MULT² comb logits. */
    public int mixHc() {
        return (2 + hcMult) * hcMult;
    }

    public int headsPerGroup() {
        return h / oGroups;
    }

    public int oGroupIn() {
        return headsPerGroup() * headDim;
    }

    public double softmaxScale() {
        return 1.0 / Math.sqrt(headDim);
    }

    /** WEIGHTS_SCALE = IDX_HEAD_DIM^-0.5 · IDX_N_HEADS^-0.5 of the indexer head weights. */
    public double weightsScale() {
        return 1.0 / Math.sqrt(idxHeadDim) / Math.sqrt(idxNHeads);
    }

    public int idxNopeDim() {
        return idxHeadDim - ropeDim;
    }
}
