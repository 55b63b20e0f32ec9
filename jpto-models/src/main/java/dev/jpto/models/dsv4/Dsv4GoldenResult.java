package dev.jpto.models.dsv4;

import dev.jpto.isa.Tensor;

import java.util.Map;

/**
 * What a golden run produces: the expected value of every validated tensor (x_out and the InOut pools with the
 * golden's writes applied), the two terms of x_out ({@code attn_share = attn_out·post} and
 * {@code residual = Σ_i x_hc·comb}, both [T, HC_MULT, D] fp32), and a trace of intermediates for tests.
 */
public record Dsv4GoldenResult(Map<String, Tensor> expected, Tensor attnShare, Tensor residual, Trace trace) {

    /**
     * Intermediates as fp32 values: q [T,H,HEAD_DIM], kv [T,HEAD_DIM], ob (attention after inverse RoPE, bf16
     * values) [T,H,HEAD_DIM], attn_out [T,D], post [T,HC_MULT], comb [T,HC_MULT²], the window indices [T,WIN] and
     * compressed indices [T, cmpIdxCols] (null for SWA).
     */
    public record Trace(float[] q, float[] kv, float[] ob, float[] attnOut, float[] post, float[] comb,
                        int[] swaIndices, int[] cmpIndices, int cmpIdxCols) {
    }

    public Tensor expected(String name) {
        Tensor t = expected.get(name);
        if (t == null) {
            throw new IllegalArgumentException("golden has no output '" + name + "'; it has " + expected.keySet());
        }
        return t;
    }
}
