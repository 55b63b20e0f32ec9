package dev.jpto.tools.fuzz;

import static dev.jpto.compiler.dsl.TaskArg.in;
import static dev.jpto.compiler.dsl.TaskArg.inout;
import static dev.jpto.compiler.dsl.TaskArg.noDep;
import static dev.jpto.compiler.dsl.TaskArg.outExisting;
import static dev.jpto.isa.DType.FP32;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.compiler.dsl.KTensor;
import dev.jpto.compiler.dsl.KTile;
import dev.jpto.compiler.dsl.KernelBuilder;
import dev.jpto.compiler.dsl.KernelRef;
import dev.jpto.compiler.dsl.Orch;
import dev.jpto.compiler.dsl.ProgramBuilder;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.isa.kernel.Kernel;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The orderings the runtime does not promise are rejected; the ones it does are accepted. */
class OrderingRulesTest {
    private record Env(Orch o, TensorVar x, TensorVar y, TensorVar z, KernelRef copy, KernelRef update) {
        /** Rows {@code row..row+3} of {@code t} (8×8). */
        TensorVar rows(TensorVar t, int row) {
            return t.at(row, 0).size(4, 8);
        }
    }

    /** dst = src over a 4×8 block; dst is WRITE, or READ_WRITE for {@code update}. */
    private static Kernel kernel(String name, boolean readWrite) {
        KernelBuilder k = KernelBuilder.kernel(name);
        KTensor src = k.input("src", FP32, 2);
        KTensor dst = readWrite ? k.inout("dst", FP32, 2) : k.output("dst", FP32, 2);
        KTile t = k.tile("t", FP32, 4, 8);
        k.load(t, src, 0, 0).store(t, dst, 0, 0);
        return k.build();
    }

    private static String verdict(Consumer<Env> body) {
        ProgramBuilder p = ProgramBuilder.program("rules");
        TensorVar x = p.input("x", FP32, 8, 8);
        TensorVar y = p.output("y", FP32, 8, 8);
        TensorVar z = p.output("z", FP32, 8, 8);
        KernelRef copy = p.aiv(kernel("copy", false));
        KernelRef update = p.aiv(kernel("update", true));
        p.orchestrate(o -> {
            Env e = new Env(o, x, y, z, copy, update);
            body.accept(e);
            // a valid program uses every kernel and output (build() verifies): z's rows 4..7, which no case touches
            o.submit(update, in(e.rows(x, 4)), inout(e.rows(z, 4)));
        });
        return OrderingRules.check(p.build()).violation().orElse("ok");
    }

    @Test
    void readAfterWriteIsOrderedButWriteAfterReadIsNot() {
        assertThat(verdict(e -> {
            e.o().submit(e.update(), in(e.rows(e.x(), 0)), inout(e.rows(e.y(), 0)));
            e.o().submit(e.copy(), in(e.rows(e.y(), 0)), outExisting(e.rows(e.z(), 0)));
        })).isEqualTo("ok");
        assertThat(verdict(e -> {
            e.o().submit(e.copy(), in(e.rows(e.y(), 0)), outExisting(e.rows(e.z(), 0)));
            e.o().submit(e.update(), in(e.rows(e.x(), 0)), inout(e.rows(e.y(), 2))); // rows 2, 3 were read
        })).contains("task 2 (update)").contains("write-after-read");
    }

    @Test
    void outputExistingWritesOnlyUntouchedElements() {
        assertThat(verdict(e -> {
            e.o().submit(e.update(), in(e.rows(e.x(), 0)), inout(e.rows(e.y(), 0)));
            e.o().submit(e.copy(), in(e.rows(e.x(), 0)), outExisting(e.rows(e.y(), 2)));
        })).contains("OUTPUT_EXISTING waits only for the creator");
        assertThat(verdict(e -> {
            e.o().submit(e.update(), in(e.rows(e.x(), 0)), inout(e.rows(e.y(), 0)));
            e.o().submit(e.copy(), in(e.rows(e.x(), 0)), outExisting(e.rows(e.y(), 4)));
        })).isEqualTo("ok");
    }

    @Test
    void noDepReadsOnlyWhatNoTrackedWriterTouched() {
        assertThat(verdict(e -> {
            e.o().submit(e.update(), in(e.rows(e.x(), 0)), inout(e.rows(e.y(), 0)));
            e.o().submit(e.copy(), noDep(e.rows(e.y(), 2)), outExisting(e.rows(e.z(), 0)));
        })).contains("NO_DEP waits only for the creator");
        assertThat(verdict(e -> {
            e.o().submit(e.update(), in(e.rows(e.x(), 0)), inout(e.rows(e.y(), 0)));
            e.o().submit(e.copy(), noDep(e.rows(e.x(), 2)), outExisting(e.rows(e.z(), 0)));
        })).isEqualTo("ok");
    }

    @Test
    void aNoDepWriteSealsItsElements() {
        assertThat(verdict(e -> {
            e.o().submit(e.copy(), in(e.rows(e.x(), 0)), noDep(e.rows(e.y(), 0)));
            e.o().submit(e.copy(), in(e.rows(e.y(), 3)), outExisting(e.rows(e.z(), 0)));
        })).contains("sealed");
    }
}
