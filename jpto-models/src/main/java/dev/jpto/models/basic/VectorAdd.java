package dev.jpto.models.basic;

import static dev.jpto.compiler.dsl.TaskArg.in;
import static dev.jpto.compiler.dsl.TaskArg.outExisting;

import dev.jpto.compiler.dsl.KTensor;
import dev.jpto.compiler.dsl.KTile;
import dev.jpto.compiler.dsl.KernelBuilder;
import dev.jpto.compiler.dsl.KernelRef;
import dev.jpto.compiler.dsl.ProgramBuilder;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.compiler.ir.Program;
import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.lib.compare.Comparators;
import dev.jpto.lib.gen.Init;
import dev.jpto.lib.registry.InputSpec;
import dev.jpto.lib.registry.PresetProgram;
import dev.jpto.lib.registry.ProgramDef;
import dev.jpto.lib.registry.ProgramSpec;
import java.util.List;
import java.util.Map;

/** {@code z = x + y} over a 2-D grid of tiles, one task per tile. */
public final class VectorAdd {
    public static final String NAME = "basic.vector_add";

    /** A size: {@code rows × cols} elements in {@code tileRows × tileCols} tiles. */
    public record Preset(String name, int rows, int cols, int tileRows, int tileCols, DType dtype) {
        public Preset {
            Shapes.divides(NAME, "rows", rows, "tile_rows", tileRows);
            Shapes.divides(NAME, "cols", cols, "tile_cols", tileCols);
        }
    }

    public static final List<Preset> PRESETS = List.of(
            new Preset("tiny", 128, 256, 64, 128, DType.FP32),
            new Preset("demo", 2048, 2048, 64, 256, DType.FP32),
            new Preset("large", 8192, 4096, 64, 256, DType.FP32));

    private VectorAdd() {
    }

    public static ProgramDef def() {
        return new PresetProgram<>(NAME, "z = x + y, elementwise over a grid of tiles (one task per tile)",
                PRESETS, Preset::name, "demo", VectorAdd::spec);
    }

    static ProgramSpec spec(Preset p) {
        long[] shape = {p.rows(), p.cols()};
        return new ProgramSpec(NAME, p.name(), program(p),
                List.of(InputSpec.of("x", p.dtype(), shape, new Init.Uniform(-1, 1)),
                        InputSpec.of("y", p.dtype(), shape, new Init.Uniform(-1, 1))),
                VectorAdd::golden,
                // fp32 + fp32 rounded once is exactly what the tile engines compute
                Map.of("z", Comparators.allclose(0, 0)), Map.of());
    }

    public static Program program(Preset p) {
        KernelBuilder k = KernelBuilder.kernel("add_tile");
        KTensor x = k.input("x", p.dtype(), 2);
        KTensor y = k.input("y", p.dtype(), 2);
        KTensor z = k.output("z", p.dtype(), 2);
        KTile a = k.tile("a", p.dtype(), p.tileRows(), p.tileCols());
        KTile b = k.tile("b", p.dtype(), p.tileRows(), p.tileCols());
        k.load(a, x, 0, 0).load(b, y, 0, 0).add(a, a, b).store(a, z, 0, 0);

        ProgramBuilder pb = ProgramBuilder.program("vector_add");
        TensorVar xs = pb.input("x", p.dtype(), p.rows(), p.cols());
        TensorVar ys = pb.input("y", p.dtype(), p.rows(), p.cols());
        TensorVar zs = pb.output("z", p.dtype(), p.rows(), p.cols());
        KernelRef add = pb.aiv(k.build());
        int tr = p.tileRows();
        int tc = p.tileCols();
        pb.orchestrate(o -> o.forRange("i", p.rows() / tr, i -> o.forRange("j", p.cols() / tc, j -> o.submit(add,
                in(xs.block(tr, tc).at(i, j)), in(ys.block(tr, tc).at(i, j)), outExisting(zs.block(tr, tc).at(i, j))))));
        return pb.build();
    }

    public static void golden(Map<String, Tensor> in, Map<String, Tensor> out) {
        double[] x = Dense.read(in.get("x"));
        double[] y = Dense.read(in.get("y"));
        double[] z = new double[x.length];
        for (int i = 0; i < z.length; i++) {
            z[i] = x[i] + y[i];
        }
        Dense.write(out.get("z"), z);
    }
}
