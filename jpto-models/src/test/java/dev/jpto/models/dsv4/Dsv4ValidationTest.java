package dev.jpto.models.dsv4;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.isa.Tensor;
import java.lang.foreign.Arena;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The pool comparator and the x_out comparator on golden outputs and on deliberately damaged copies. */
class Dsv4ValidationTest {

    private static Tensor copy(Tensor t, Arena arena) {
        Tensor c = Tensor.allocate(arena, t.dtype(), t.shape());
        c.copyFrom(t);
        return c;
    }

    @Test
    void everyCsaPoolPassesAgainstItselfAndFailsWhenAnUnmappedRowIsTouched() {
        try (Arena arena = Arena.ofConfined()) {
            Dsv4Preset p = Dsv4Preset.tiny().withChunk(128, 100);
            Map<String, Tensor> in = Dsv4Inputs.generate(Dsv4Signature.of(Dsv4Program.CSA, p), 2, arena);
            Dsv4GoldenResult g = Dsv4Golden.run(Dsv4Program.CSA, p, in, arena);
            for (TensorSpec s : Dsv4Signature.of(Dsv4Program.CSA, p).validated()) {
                if (s.name().equals("x_out")) {
                    continue;
                }
                Dsv4Validation.PoolTolerance tol = Dsv4Validation.poolTolerance(Dsv4Program.CSA, s.name());
                Tensor exp = g.expected(s.name());
                Dsv4Validation.PoolResult ok = Dsv4Validation.mappedPool(copy(exp, arena), exp, in.get(tol.mapping()),
                        p.numTokens(), tol);
                assertThat(ok.pass()).as(s.name() + " " + ok.reason()).isTrue();
                assertThat(ok.mappedRows()).as(s.name()).isPositive();
                // the input pool (nothing written) differs on the mapped rows: must fail unless they were zero
                Tensor damaged = copy(exp, arena);
                long width = exp.shape(exp.rank() - 1);
                long unmapped = firstUnmappedRow(in.get(tol.mapping()), exp.numel() / width);
                damaged.setDouble(unmapped * width, damaged.getDouble(unmapped * width) + 1);
                Dsv4Validation.PoolResult bad = Dsv4Validation.mappedPool(damaged, exp, in.get(tol.mapping()),
                        p.numTokens(), tol);
                assertThat(bad.pass()).as(s.name()).isFalse();
                assertThat(bad.reason()).contains("unmapped row " + unmapped);
            }
        }
    }

    private static long firstUnmappedRow(Tensor mapping, long rows) {
        java.util.Set<Long> used = new java.util.HashSet<>();
        for (int t = 0; t < mapping.numel(); t++) {
            used.add((long) mapping.getDouble(t));
        }
        for (long r = 0; r < rows; r++) {
            if (!used.contains(r)) {
                return r;
            }
        }
        throw new IllegalStateException("every row is mapped");
    }

    @Test
    void aWrongKvRowFailsTheKvCacheComparator() {
        try (Arena arena = Arena.ofConfined()) {
            Dsv4Preset p = Dsv4Preset.tiny();
            Map<String, Tensor> in = Dsv4Inputs.generate(Dsv4Signature.of(Dsv4Program.SWA, p), 2, arena);
            Dsv4GoldenResult g = Dsv4Golden.run(Dsv4Program.SWA, p, in, arena);
            Tensor exp = g.expected("kv_cache");
            Tensor act = copy(exp, arena);
            int hd = p.dims().headDim();
            for (int j = 0; j < hd; j++) {
                act.setDouble(5L * hd + j, -act.getDouble(5L * hd + j) + 0.01);
            }
            Dsv4Validation.PoolTolerance tol = Dsv4Validation.poolTolerance(Dsv4Program.SWA, "kv_cache");
            Dsv4Validation.PoolResult r = Dsv4Validation.mappedPool(act, exp, in.get("ori_slot_mapping"), 128, tol);
            assertThat(r.pass()).isFalse();
            assertThat(r.bad()).isGreaterThan(r.allowed());
            assertThat(r.reason()).contains("atol=1.0E-4 rtol=0.01");
        }
    }

    @Test
    void xOutComparatorRejectsANonZeroPaddingRowAndAWrongValue() {
        try (Arena arena = Arena.ofConfined()) {
            Dsv4Preset p = Dsv4Preset.tiny().withChunk(0, 120);
            Map<String, Tensor> in = Dsv4Inputs.generate(Dsv4Signature.of(Dsv4Program.HCA, p), 2, arena);
            Tensor exp = Dsv4Golden.run(Dsv4Program.HCA, p, in, arena).expected("x_out");
            Tensor act = copy(exp, arena);
            act.setDouble(exp.numel() - 1, 1e-6);
            assertThat(Dsv4Validation.ratioReldiff(act, exp, 5e-3, 0.005, 1, 120).reason())
                    .contains("padding row 127");
            Tensor act2 = copy(exp, arena);
            for (long i = 0; i < 2000; i++) {
                act2.setDouble(i, act2.getDouble(i) * 1.1 + 0.01);
            }
            Dsv4Validation.RatioResult r = Dsv4Validation.ratioReldiff(act2, exp, 5e-3, 0.005, 1, 120);
            assertThat(r.pass()).isFalse();
            assertThat(r.bad()).isGreaterThan(r.allowed());
        }
    }

    @Test
    void unknownPoolsListTheValidOnes() {
        assertThatThrownBy(() -> Dsv4Validation.poolTolerance(Dsv4Program.HCA, "x_out"))
                .hasMessageContaining("pools: kv_cache, cmp_kv");
    }
}
