package dev.jpto.models.dsv4;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.Tensor;
import java.lang.foreign.Arena;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Each golden against the naive double-precision evaluation of a few output elements (tiny preset). */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class Dsv4GoldenNaiveTest {
    private static final int[] TOKENS = {0, 3, 63, 127};
    /** The CSA/HCA chunk starts at 128 so the window and the compressor read the prefix and the old state. */
    private final Map<Dsv4Program, Run> runs = new EnumMap<>(Dsv4Program.class);
    private Arena arena;

    record Run(Dsv4Preset preset, Map<String, Tensor> in, Dsv4GoldenResult golden, NaiveReference naive) {
    }

    @BeforeAll
    void runGoldens() {
        arena = Arena.ofShared();
        for (Dsv4Program prog : Dsv4Program.values()) {
            Dsv4Preset p = Dsv4Preset.tiny().withChunk(prog == Dsv4Program.SWA ? 0 : 128, 128);
            Map<String, Tensor> in = Dsv4Inputs.generate(Dsv4Signature.of(prog, p), 11, arena);
            runs.put(prog, new Run(p, in, Dsv4Golden.run(prog, p, in, arena), new NaiveReference(p, in)));
        }
    }

    @AfterAll
    void close() {
        arena.close();
    }

    @ParameterizedTest
    @EnumSource(Dsv4Program.class)
    void kvRowsMatchTheNaiveProjection(Dsv4Program prog) {
        Run r = runs.get(prog);
        int hd = r.preset().dims().headDim();
        for (int t : TOKENS) {
            double[] kv = r.naive().kv(t);
            double max = maxAbs(kv);
            for (int j = 0; j < hd; j++) {
                assertThat((double) r.golden().trace().kv()[t * hd + j]).as("kv[%d,%d]", t, j)
                        .isCloseTo(kv[j], org.assertj.core.api.Assertions.within(0.01 * max));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Dsv4Program.class)
    void attentionRowsMatchBruteForceWithSink(Dsv4Program prog) {
        Run r = runs.get(prog);
        Dsv4Dims m = r.preset().dims();
        int hd = m.headDim();
        Tensor cache = r.golden().expected("kv_cache");
        Tensor cmp = prog == Dsv4Program.SWA ? null : r.golden().expected("cmp_kv");
        for (int t : TOKENS) {
            List<double[]> keys = r.naive().keys(prog, t, cache, cmp);
            for (int head : new int[] {0, m.h() - 1}) {
                double[] q = new double[hd];
                for (int x = 0; x < hd; x++) {
                    q[x] = r.golden().trace().q()[(t * m.h() + head) * hd + x];
                }
                double[] o = r.naive().attention(q, keys, t, head);
                double max = maxAbs(o);
                for (int x = 0; x < hd; x++) {
                    assertThat((double) r.golden().trace().ob()[(t * m.h() + head) * hd + x])
                            .as("%s ob[t=%d,h=%d,%d]", prog, t, head, x)
                            .isCloseTo(o[x], org.assertj.core.api.Assertions.within(0.01 * max));
                }
                // invariants of the weights: the sink takes a positive share, the keys take the rest
                double[] w = r.naive().weights(q, keys, head);
                double keySum = 0;
                for (int j = 0; j < keys.size(); j++) {
                    keySum += w[j];
                }
                assertThat(keySum).isLessThan(1.0).isCloseTo(1 - w[keys.size()],
                        org.assertj.core.api.Assertions.within(1e-12));
                assertThat(w[keys.size()]).isGreaterThan(0);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Dsv4Program.class)
    void outputProjectionMatchesTheUnquantisedProduct(Dsv4Program prog) {
        Run r = runs.get(prog);
        int d = r.preset().dims().d();
        float[] out = r.golden().trace().attnOut();
        for (int t : TOKENS) {
            double rms = 0;
            for (int n = 0; n < d; n++) {
                rms += (double) out[t * d + n] * out[t * d + n];
            }
            rms = Math.sqrt(rms / d);
            for (int n : new int[] {0, 1, d / 2, d - 1}) {
                assertThat((double) out[t * d + n]).as("attn_out[%d,%d]", t, n)
                        .isCloseTo(r.naive().attnOut(r.golden().trace().ob(), t, n),
                                org.assertj.core.api.Assertions.within(0.05 * rms));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Dsv4Program.class)
    void xOutIsAttentionTimesPostPlusTheCombinedResidual(Dsv4Program prog) {
        Run r = runs.get(prog);
        int d = r.preset().dims().d();
        Tensor xOut = r.golden().expected("x_out");
        for (int t : TOKENS) {
            double[][] hc = r.naive().hcPre(t);
            for (int o = 0; o < 4; o++) {
                for (int dd : new int[] {0, d - 1}) {
                    double expect = r.golden().trace().attnOut()[t * d + dd] * hc[1][o];
                    for (int i = 0; i < 4; i++) {
                        expect += r.naive().in("x_hc", ((long) t * 4 + i) * d + dd) * hc[2][4 * i + o];
                    }
                    assertThat(xOut.getDouble(((long) t * 4 + o) * d + dd)).as("x_out[%d,%d,%d]", t, o, dd)
                            .isCloseTo(expect, org.assertj.core.api.Assertions.within(1e-5));
                }
            }
        }
    }

    @org.junit.jupiter.api.Test
    void hcaCompressedRowMatchesTheNaivePool() {
        Run r = runs.get(Dsv4Program.HCA);
        Dsv4Dims m = r.preset().dims();
        NaiveReference nv = r.naive();
        int hd = m.headDim();
        int d = m.d();
        // chunk 128..255 closes compressed slot 1 (positions 128..255) at its last token
        double[][] x = new double[128][];
        for (int t = 0; t < 128; t++) {
            x[t] = nv.xNormed(t);
        }
        double[] pooled = new double[hd];
        for (int ch = 0; ch < hd; ch++) {
            double[] kv = new double[128];
            double[] sc = new double[128];
            double mx = Double.NEGATIVE_INFINITY;
            for (int s = 0; s < 128; s++) {
                for (int i = 0; i < d; i++) {
                    kv[s] += x[s][i] * nv.in("cmp_wkv", (long) ch * d + i);
                    sc[s] += x[s][i] * nv.in("cmp_wgate", (long) ch * d + i);
                }
                sc[s] += nv.in("cmp_ape", (long) s * hd + ch);
                mx = Math.max(mx, sc[s]);
            }
            double l = 0;
            for (int s = 0; s < 128; s++) {
                double e = Math.exp(sc[s] - mx);
                l += e;
                pooled[ch] += e * kv[s];
            }
            pooled[ch] /= l;
        }
        double ss = 0;
        for (double v : pooled) {
            ss += v * v;
        }
        double inv = 1 / Math.sqrt(ss / hd + m.eps());
        for (int ch = 0; ch < hd; ch++) {
            pooled[ch] *= inv * nv.in("cmp_norm_w", ch);
        }
        nv.rope(pooled, m.nopeDim(), 128, false);
        Tensor cmp = r.golden().expected("cmp_kv");
        double max = maxAbs(pooled);
        for (int ch = 0; ch < hd; ch++) {
            assertThat(cmp.getDouble((long) hd + ch)).as("cmp_kv[1,%d]", ch)
                    .isCloseTo(pooled[ch], org.assertj.core.api.Assertions.within(0.01 * max));
        }
    }

    @org.junit.jupiter.api.Test
    void csaCompressedRowsAndIndexKeysMatchTheNaivePool() {
        Run r = runs.get(Dsv4Program.CSA);
        Dsv4Dims m = r.preset().dims();
        int hd = m.headDim();
        int ihd = m.idxHeadDim();
        Tensor cmp = r.golden().expected("cmp_kv");
        Tensor idx = r.golden().expected("idx_kv_cache");
        Tensor idxScale = r.golden().expected("idx_kv_scale");
        // w = 131 closes slot 32 and pools positions 124..127 from the old state; w = 191 closes slot 47
        for (int w : new int[] {131, 191}) {
            int slot = (w + 1) / 4 - 1;
            double[] row = r.naive().csaCompressed(w, "cmp", "compress_state", "compress_state_block_table", hd);
            double max = maxAbs(row);
            for (int ch = 0; ch < hd; ch++) {
                assertThat(cmp.getDouble((long) slot * hd + ch)).as("cmp_kv[%d,%d]", slot, ch)
                        .isCloseTo(row[ch], org.assertj.core.api.Assertions.within(0.01 * max));
            }
            double[] inner = r.naive().csaCompressed(w, "inner", "inner_compress_state",
                    "inner_compress_state_block_table", ihd);
            double[] f = new double[ihd];
            for (int i = 0; i < ihd; i++) {
                double nb = NaiveReference.bf16(inner[i]);
                for (int j = 0; j < ihd; j++) {
                    f[j] += nb * r.naive().in("hadamard_idx", (long) i * ihd + j);
                }
            }
            double amax = maxAbs(f);
            assertThat(idxScale.getDouble(slot)).isCloseTo(amax / 127, org.assertj.core.api.Assertions.within(
                    0.01 * amax / 127));
            for (int j = 0; j < ihd; j++) {
                assertThat(idx.getDouble((long) slot * ihd + j)).as("idx_kv_cache[%d,%d]", slot, j)
                        .isCloseTo(f[j] / amax * 127, org.assertj.core.api.Assertions.within(1.6));
            }
        }
    }

    static double maxAbs(double[] v) {
        double m = 0;
        for (double x : v) {
            m = Math.max(m, Math.abs(x));
        }
        return m;
    }
}
