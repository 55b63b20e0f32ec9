package dev.jpto.compiler;

import static dev.jpto.compiler.dsl.TaskArg.in;
import static dev.jpto.compiler.dsl.TaskArg.outExisting;
import static dev.jpto.compiler.dsl.TaskArg.scalar;
import static dev.jpto.isa.DType.FP32;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.compiler.dsl.KScalar;
import dev.jpto.compiler.dsl.KTensor;
import dev.jpto.compiler.dsl.KTile;
import dev.jpto.compiler.dsl.KernelBuilder;
import dev.jpto.compiler.dsl.KernelRef;
import dev.jpto.compiler.dsl.Orch;
import dev.jpto.compiler.dsl.ProgramBuilder;
import dev.jpto.compiler.dsl.SubmitOptions;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.compiler.ir.IrPrinter;
import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.Stmt;
import dev.jpto.compiler.ir.VerificationException;
import dev.jpto.compiler.launch.Runner;
import dev.jpto.compiler.plan.RingPlan;
import dev.jpto.compiler.plan.RingPlanner;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.ScopeKind;
import dev.jpto.runtime.RunReport;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Compiled programs with SPMD submits, manual scopes and explicit dependencies: DSL, IR, work dir, plan, run. */
@Timeout(60)
class LaunchProgramTest {
    @TempDir
    Path dir;

    /** y = x + 1 on rows [4b, 4b + 4) of a [64, 16] tensor, b a scalar parameter. */
    private static KernelBuilder plusOneRows(String name) {
        KernelBuilder k = KernelBuilder.kernel(name);
        KTensor x = k.input("x", FP32, 2);
        KTensor y = k.output("y", FP32, 2);
        KScalar b = k.scalar("b");
        KTile t = k.tile("t", FP32, 4, 16);
        k.load(t, x, b.times(4), 0).adds(t, t, 1).store(t, y, b.times(4), 0);
        return k;
    }

    /** Two 16-block submits in a manual scope, the second after the first: z = x + 2. */
    private static Program twoSpmdSteps(int blocks, Consumer<Orch> extra) {
        ProgramBuilder p = ProgramBuilder.program("spmd_steps");
        TensorVar x = p.input("x", FP32, 64, 16);
        TensorVar z = p.output("z", FP32, 64, 16);
        KernelRef first = p.aiv(plusOneRows("first").build());
        KernelRef second = p.aiv(plusOneRows("second").build());
        p.orchestrate(o -> {
            TensorVar mid = o.alloc("mid", FP32, 64, 16);
            o.manualScope(() -> {
                o.submit(SubmitOptions.blocks(blocks).withLabel("a"), first, in(x),
                        dev.jpto.compiler.dsl.TaskArg.out(mid), scalar(Orch.BLOCK_IDX));
                o.submit(SubmitOptions.blocks(blocks).withAfter("a"), second, in(mid), outExisting(z),
                        scalar(Orch.BLOCK_IDX));
                extra.accept(o);
            });
        });
        return p.build();
    }

    @Test
    void spmdStepsInAManualScopeRunInMemoryAndFromTheWorkDir() throws Exception {
        Program program = twoSpmdSteps(16, o -> { });
        assertThat(IrPrinter.print(program)).contains("manual scope").contains("blocks 16 as a")
                .contains("blocks 16 after a");
        Compiler.compile(program, dir.resolve("wd"));
        CompiledProgram loaded = CompiledProgram.load(dir.resolve("wd"));
        assertThat(loaded.program().body()).isEqualTo(program.body());
        for (CompiledProgram compiled : new CompiledProgram[] {Compiler.compileInMemory(program), loaded}) {
            try (Arena arena = Arena.ofShared()) {
                Tensor x = Tensors.random(arena, 5, 64, 16);
                Tensor z = Tensor.allocate(arena, FP32, 64, 16);
                RunReport rep = Runner.run(compiled, Map.of("x", x, "z", z));
                assertThat(rep.tasksExecuted()).as("one task per submit, whatever its blocks").isEqualTo(2);
                for (long i = 0; i < z.numel(); i++) {
                    assertThat(z.getDouble(i)).isEqualTo((double) ((float) x.getDouble(i) + 1f + 1f));
                }
            }
        }
    }

    @Test
    void thePlanCountsAnSpmdSubmitOnceAndOnlyExplicitEdgesInAManualScope() {
        RingPlan plan = RingPlanner.plan(twoSpmdSteps(16, o -> { }));
        assertThat(plan.ring(1).tasks()).isEqualTo(2);
        assertThat(plan.ring(1).depEntries()).as("the one explicit edge; no creator edge to mid's producer")
                .isEqualTo(1);
    }

    @Test
    void theVerifierChecksBlockIndexRangesLabelsAndScopeNesting() {
        // 17 blocks: block 16 would load rows 64..67 of a 64-row tensor
        assertThatThrownBy(() -> twoSpmdSteps(17, o -> { })).isInstanceOf(VerificationException.class)
                .hasMessageContaining("kernel first op #0 (load) reads x at offset '4*b' in dimension 0, which ranges "
                        + "over [0, 64], with extent 4");
    }

    @Test
    void aLabelNamedBeforeItIsDefinedAnAutoScopeInAManualOneAndBadJsonAreRefused() throws Exception {
        ProgramBuilder p = ProgramBuilder.program("bad");
        TensorVar x = p.input("x", FP32, 64, 16);
        TensorVar z = p.output("z", FP32, 64, 16);
        KernelRef k = p.aiv(plusOneRows("k").build());
        p.orchestrate(o -> o.manualScope(() -> {
            o.submit(SubmitOptions.after("later"), k, in(x), outExisting(z), scalar(0));
            o.scope(() -> o.submit(SubmitOptions.labelled("later"), k, in(x), outExisting(z), scalar(1)));
        }));
        assertThatThrownBy(p::build).isInstanceOf(VerificationException.class)
                .hasMessageContaining("after names 'later', which no earlier submit is labelled")
                .hasMessageContaining("an auto scope cannot open inside a manual scope");
        Stmt.Scope manual = new Stmt.Scope(java.util.List.of(), ScopeKind.MANUAL);
        assertThat(manual.kind()).isEqualTo(ScopeKind.MANUAL);
    }
}
