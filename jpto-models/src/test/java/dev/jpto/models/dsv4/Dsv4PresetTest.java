package dev.jpto.models.dsv4;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import org.junit.jupiter.api.Test;

class Dsv4PresetTest {

    @Test
    void everyPresetIsValidForEveryProgram() {
        for (Dsv4Preset p : Dsv4Preset.all()) {
            for (Dsv4Program prog : Dsv4Program.values()) {
                assertThat(p.violations(prog)).as(p.name() + " " + prog).isEmpty();
            }
        }
    }

    @Test
    void proDerivedConstantsMatchTheSpecTable() {
        Dsv4Preset p = Dsv4Preset.pro();
        Dsv4Dims m = p.dims();
        assertThat(m.hcDim()).isEqualTo(28672);
        assertThat(m.mixHc()).isEqualTo(24);
        assertThat(m.nopeDim()).isEqualTo(448);
        assertThat(m.headsPerGroup()).isEqualTo(8);
        assertThat(m.oGroupIn()).isEqualTo(4096);
        assertThat(m.softmaxScale()).isCloseTo(0.0441942, within(1e-7));
        assertThat(m.weightsScale()).isCloseTo(0.0110485, within(1e-7));
        assertThat(p.prefillMaxCompressed()).isEqualTo(192);
        assertThat(p.sparseTopk()).isEqualTo(320);
        assertThat(p.attnBlocks()).isEqualTo(3);
        assertThat(p.sparsePad()).isEqualTo(384);
        assertThat(p.cmpColumns()).isEqualTo(256);
        assertThat(p.maxCmpWrites(4)).isEqualTo(32);
        assertThat(p.maxCmpWrites(128)).isEqualTo(1);
        assertThat(p.oriMaxBlocks()).isEqualTo(128);
        assertThat(p.csaStateMaxBlocks()).isEqualTo(4096);
        assertThat(p.hcaStateMaxBlocks()).isEqualTo(2048);
    }

    @Test
    void tinyKeepsTheStructureOfPro() {
        Dsv4Preset tiny = Dsv4Preset.tiny();
        Dsv4Preset pro = Dsv4Preset.pro();
        assertThat(tiny.t()).isEqualTo(pro.t());
        assertThat(tiny.sparsePad()).isEqualTo(pro.sparsePad());
        assertThat(tiny.attnBlocks()).isEqualTo(3);
        assertThat(tiny.maxCmpWrites(4)).isEqualTo(32);
        assertThat(tiny.dims().ropeDim()).isEqualTo(64);
        assertThat(tiny.dims().idxHeadDim()).isEqualTo(128);
        assertThat(tiny.dims().oGroups()).isGreaterThan(1);
        assertThat(tiny.rope()).isEqualTo(pro.rope());
        assertThat(tiny.oriMaxBlocks()).isEqualTo(16);
        assertThat(tiny.csaStateMaxBlocks()).isEqualTo(512);
        assertThat(tiny.hcaStateMaxBlocks()).isEqualTo(256);
    }

    @Test
    void demoHasNonZeroSinksAndProKeepsTheOriginalsZeros() {
        Init.Dist demo = (Init.Dist) Dsv4Preset.demo().sinkInit();
        assertThat(demo.dist()).isInstanceOf(dev.jpto.lib.gen.Init.Uniform.class);
        assertThat(((dev.jpto.lib.gen.Init.Uniform) demo.dist()).lo()).isGreaterThan(0);
        assertThat(Dsv4Preset.pro().sinkInit()).isEqualTo(Init.zeros());
    }

    @Test
    void smallIdxTopkNamesTheIndexerConstraint() {
        Dsv4Preset p = Dsv4Preset.tiny();
        Dsv4Dims m = p.dims();
        Dsv4Dims small = new Dsv4Dims(m.d(), m.h(), m.headDim(), m.ropeDim(), m.qLora(), m.oLora(), m.oGroups(),
                m.win(), m.idxNHeads(), m.idxHeadDim(), 16, m.hcMult(), m.sinkhornIters(), m.eps(), m.hcEps(),
                m.maxSeqLen());
        Dsv4Preset bad = new Dsv4Preset("tiny-select", small, p.rope(), p.pools(), 0, 128, p.sinkInit());
        assertThatThrownBy(() -> bad.validate(Dsv4Program.CSA))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("IDX_TOPK >= 256")
                .hasMessageContaining("IDX_TOPK=16")
                .hasMessageContaining("try 256");
        // the formulas still derive the smaller padded list (spec §1.3 caveat)
        assertThat(bad.prefillMaxCompressed()).isEqualTo(16);
        assertThat(bad.sparsePad()).isEqualTo(256);
    }

    @Test
    void csaChunkBeyondTheAttentionCapacityIsRejected() {
        Dsv4Preset late = Dsv4Preset.tiny().withChunk(1024, 128);
        assertThat(late.violations(Dsv4Program.SWA)).isEmpty();
        assertThatThrownBy(() -> late.validate(Dsv4Program.CSA))
                .hasMessageContaining("(start_pos + num_tokens)/4 <= PREFILL_SPARSE_PAD - WIN")
                .hasMessageContaining("start_pos+num_tokens=1152")
                .hasMessageContaining("<= 1024");
        assertThat(Dsv4Preset.tiny().withChunk(896, 128).violations(Dsv4Program.CSA)).isEmpty();
    }

    @Test
    void chunkRulesNameTheValue() {
        assertThatThrownBy(() -> Dsv4Preset.pro().withChunk(100, 128).validate(Dsv4Program.SWA))
                .hasMessageContaining("start_pos must be a non-negative multiple of 128: start_pos=100");
        assertThatThrownBy(() -> Dsv4Preset.pro().withChunk(0, 0).validate(Dsv4Program.HCA))
                .hasMessageContaining("1 <= num_tokens <= T: num_tokens=0");
    }

    @Test
    void tinyViolatesOnlyKernelTilingAssertsOfTheOriginal() {
        assertThat(Dsv4Preset.pro().originalTilingViolations()).isEmpty();
        assertThat(Dsv4Preset.demo().originalTilingViolations()).isEmpty();
        assertThat(Dsv4Preset.tiny().originalTilingViolations())
                .anyMatch(s -> s.contains("D % 1024"))
                .anyMatch(s -> s.contains("QK_M_TILE"));
    }

    @Test
    void unknownNamesListTheValidOnes() {
        assertThatThrownBy(() -> Dsv4Preset.byName("flash")).hasMessageContaining("valid: tiny, demo, pro");
        assertThatThrownBy(() -> Dsv4Program.byName("mla")).hasMessageContaining("dsv4.prefill_attention_swa");
        assertThat(Dsv4Program.byName("dsv4.prefill_attention_hca")).isEqualTo(Dsv4Program.HCA);
    }

    @Test
    void yarnRampMatchesTheSpecBoundaries() {
        RopeProfile compressed = Dsv4Preset.pro().rope().profile(4);
        assertThat(RopeTables.corrDim(32, 64, compressed)).isCloseTo(15.45, within(0.01));
        assertThat(RopeTables.corrDim(1, 64, compressed)).isCloseTo(24.71, within(0.01));
        float[] f = RopeTables.invFreq(compressed, 64);
        assertThat(f[10]).isEqualTo((float) Math.pow(160000, -20.0 / 64));
        assertThat((double) f[30]).isCloseTo(Math.pow(160000, -60.0 / 64) / 16, withinPercentage(1e-4));
        float[] plain = RopeTables.invFreq(Dsv4Preset.pro().rope().profile(0), 64);
        assertThat((double) plain[31]).isCloseTo(Math.pow(10000, -62.0 / 64), withinPercentage(1e-4));
    }
}
