package dev.jpto.models.l3;

import static dev.jpto.isa.DType.FP32;

import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.l3.HostTensor;
import dev.jpto.compiler.l3.L3Program;
import dev.jpto.isa.DType;
import dev.jpto.lib.compare.Comparators;
import dev.jpto.lib.gen.Init;
import dev.jpto.models.basic.Matmul;
import dev.jpto.models.basic.VectorAdd;
import dev.jpto.lib.registry.InputSpec;
import dev.jpto.lib.registry.PresetProgram;
import dev.jpto.lib.registry.ProgramDef;
import dev.jpto.lib.registry.ProgramSpec;
import java.util.List;
import java.util.Map;

/**
 * {@code C = A·B} across chips (A, B fp32 or bf16; C fp32): A is split into {@code shards} row blocks and K into
 * two halves. Each (row block, K half) is one chip call of {@code basic.matmul}'s chip program, reading a strided
 * view of A and a row block of B and writing its partial product into host scratch {@code part[half]}; then per
 * row block one chip call of {@code basic.vector_add}'s program sums the two halves into C's rows — the host-level
 * reduction, whose inputs were produced on different chips, and the concat, since every sum writes its own rows.
 * Calls are placed round-robin; the host dependencies (each sum after its two matmuls) come from the views.
 */
public final class TiledMatmul {
    public static final String NAME = "l3.tiled_matmul";
    private static final int K_HALVES = 2;

    /**
     * A size: {@code shards} row blocks; {@code tile} and {@code kSplit} are the chip matmul's own (see
     * {@link Matmul}); {@code chips} is the default number of chips.
     */
    public record Preset(String name, int m, int k, int n, int shards, int tile, int kSplit, DType dtype, int chips) {
        public Preset {
            if (shards < 1 || m % shards != 0 || k % K_HALVES != 0) {
                throw new IllegalArgumentException(NAME + ": m must split into shards and k into two halves: m=" + m
                        + " shards=" + shards + " k=" + k);
            }
            matmul(name, m, k, n, shards, tile, kSplit, dtype); // checks the chip program's own constraints
        }

        /** The chip matmul of one (row block, K half). */
        Matmul.Preset matmul() {
            return matmul(name, m, k, n, shards, tile, kSplit, dtype);
        }

        private static Matmul.Preset matmul(String name, int m, int k, int n, int shards, int tile, int kSplit,
                                            DType dtype) {
            return new Matmul.Preset(name, m / shards, k / K_HALVES, n, tile, kSplit, dtype);
        }

        /** The chip sum of one row block's two partials. */
        VectorAdd.Preset sum() {
            return new VectorAdd.Preset(name, m / shards, n, Math.min(64, m / shards), Math.min(256, n), FP32);
        }
    }

    public static final List<Preset> PRESETS = List.of(
            new Preset("tiny", 256, 256, 128, 4, 64, 1, FP32, 2),
            new Preset("demo", 1024, 1024, 512, 8, 128, 2, DType.BF16, 2));

    private TiledMatmul() {
    }

    public static ProgramDef def() {
        return new PresetProgram<>(NAME, "L3: C = A·B split by rows and K halves across chips (basic.matmul chip "
                + "calls), partials summed per row block on chip (host-level reduction and concat)", PRESETS,
                Preset::name, "demo", TiledMatmul::spec);
    }

    static ProgramSpec spec(Preset p) {
        return new ProgramSpec(NAME, p.name(), program(p),
                List.of(InputSpec.of("a", p.dtype(), new long[] {p.m(), p.k()}, new Init.Uniform(-1, 1)),
                        InputSpec.of("b", p.dtype(), new long[] {p.k(), p.n()}, new Init.Uniform(-1, 1))),
                Matmul::golden,
                // fp32 accumulation per half, then one fp32 add of the halves
                Map.of("c", Comparators.allclose(1e-4, 1e-4)), Map.of());
    }

    public static L3Program program(Preset p) {
        int rows = p.m() / p.shards();
        int half = p.k() / K_HALVES;
        Program mm = Matmul.program(p.matmul());
        Program sum = VectorAdd.program(p.sum());
        L3Program.Builder l3 = L3Program.builder("tiled_matmul").chips(p.chips());
        HostTensor a = l3.input("a", p.dtype(), p.m(), p.k());
        HostTensor b = l3.input("b", p.dtype(), p.k(), p.n());
        HostTensor c = l3.output("c", FP32, p.m(), p.n());
        HostTensor part = l3.scratch("part", FP32, K_HALVES, p.m(), p.n());
        for (int r = 0; r < p.shards(); r++) {
            for (int h = 0; h < K_HALVES; h++) {
                l3.call("mm_r" + r + "_k" + h, mm, Map.of("a", a.rows(r * rows, rows).cols(h * half, half),
                        "b", b.rows(h * half, half), "c", part.at(h).rows(r * rows, rows)));
            }
        }
        for (int r = 0; r < p.shards(); r++) {
            l3.call("sum_r" + r, sum, Map.of("x", part.at(0).rows(r * rows, rows),
                    "y", part.at(1).rows(r * rows, rows), "z", c.rows(r * rows, rows)));
        }
        return l3.build();
    }
}
