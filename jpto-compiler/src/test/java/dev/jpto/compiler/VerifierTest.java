package dev.jpto.compiler;

import static dev.jpto.compiler.dsl.TaskArg.in;
import static dev.jpto.compiler.dsl.TaskArg.inout;
import static dev.jpto.compiler.dsl.TaskArg.out;
import static dev.jpto.compiler.dsl.TaskArg.outExisting;
import static dev.jpto.compiler.dsl.TaskArg.scalar;
import static dev.jpto.isa.DType.BF16;
import static dev.jpto.isa.DType.FP32;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.compiler.dsl.KTensor;
import dev.jpto.compiler.dsl.KTile;
import dev.jpto.compiler.dsl.KernelBuilder;
import dev.jpto.compiler.dsl.KernelRef;
import dev.jpto.compiler.dsl.Orch;
import dev.jpto.compiler.dsl.ProgramBuilder;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.compiler.ir.IrError;
import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.Stmt;
import dev.jpto.compiler.ir.SubmitArg;
import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.compiler.ir.TensorExpr;
import dev.jpto.compiler.ir.VerificationException;
import dev.jpto.compiler.ir.Verifier;
import dev.jpto.isa.kernel.Kernel;
import dev.jpto.isa.kernel.TensorParam;
import dev.jpto.isa.kernel.TileDecl;
import dev.jpto.isa.op.TileOp;
import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.Direction;
import java.util.List;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

class VerifierTest {
    @Test
    void theExampleProgramsVerify() {
        assertThat(Verifier.check(TestPrograms.vectorAdd(256))).isEmpty();
        assertThat(Verifier.check(TestPrograms.matmul(128, 192, 128))).isEmpty();
        assertThat(Verifier.check(TestPrograms.rowSoftmax(256, 64))).isEmpty();
        assertThat(Verifier.check(TestPrograms.heapHog(8))).isEmpty();
        assertThat(Verifier.check(TestPrograms.prefixBlocks(0.5))).isEmpty();
    }

    /**
     * The findings on a copy kernel (src: read, dst: write, one scalar) and x/y fp32[128, 64]; the body is the
     * test's.
     */
    private static List<String> program(BiConsumer<Orch, Handles> body) {
        KernelBuilder k = KernelBuilder.kernel("copy");
        KTensor src = k.input("src", FP32, 2);
        KTensor dst = k.output("dst", FP32, 2);
        k.scalar("n");
        KTile t = k.tile("t", FP32, 64, 64);
        k.load(t, src, 0, 0).store(t, dst, 0, 0);
        Kernel copy = k.build();
        ProgramBuilder p = ProgramBuilder.program("p");
        TensorVar x = p.input("x", FP32, 128, 64);
        TensorVar y = p.output("y", FP32, 128, 64);
        KernelRef ref = p.aiv(copy);
        p.orchestrate(o -> body.accept(o, new Handles(x, y, ref)));
        return errors(p);
    }

    private record Handles(TensorVar x, TensorVar y, KernelRef copy) {
    }

    /** The findings ProgramBuilder.build() reports (it verifies), or none when it builds. */
    private static List<String> errors(ProgramBuilder p) {
        try {
            Program built = p.build();
            assertThat(Verifier.check(built)).isEmpty();
            return List.of();
        } catch (VerificationException e) {
            return e.errors().stream().map(IrError::toString).toList();
        }
    }

    @Test
    void aSliceThatMayLeaveItsTensorIsReported() {
        int line = Here.line() + 1; // the next line: forRange and submit
        List<String> errs = program((o, h) -> o.forRange("i", 3, i -> o.submit(h.copy(),
                in(h.x().block(64, 64).at(i, 0)), outExisting(h.y().block(64, 64).at(i, 0)), scalar(i))));
        String at = " at VerifierTest.java:" + line;
        assertThat(errs).anySatisfy(e -> assertThat(e)
                .startsWith("program p/for i" + at + "/submit #1 copy" + at + ": argument 0 'src' = ")
                .contains("slice start '64*i' in dimension 0 ranges over [0, 128]")
                .contains("leaves [0, 128)"));
    }

    @Test
    void directionsMustMatchHowTheKernelAccessesTheParameter() {
        List<String> errs = program((o, h) -> o.submit(h.copy(), inout(h.x().block(64, 64).at(0, 0)),
                in(h.y().block(64, 64).at(0, 0)), scalar(1)));
        assertThat(errs).anySatisfy(e -> assertThat(e).contains("argument 0 'src'")
                .contains("direction INOUT does not fit a parameter the kernel accesses as READ (use in(...))"));
        assertThat(errs).anySatisfy(e -> assertThat(e).contains("argument 1 'dst'")
                .contains("direction INPUT does not fit a parameter the kernel accesses as WRITE"));
    }

    @Test
    void outputDirectionIsOnlyForIntermediates() {
        List<String> errs = program((o, h) -> o.submit(h.copy(), in(h.x().block(64, 64).at(0, 0)), out(h.y()),
                scalar(1)));
        assertThat(errs).anySatisfy(e -> assertThat(e)
                .contains("program output 'y' is caller-provided: use outExisting(...)"));
    }

    @Test
    void intermediatesMustBeProducedBeforeUseAndReadAfter() {
        List<String> errs = program((o, h) -> {
            TensorVar t = o.alloc("t", FP32, 64, 64);
            TensorVar unused = o.alloc("u", FP32, 64, 64);
            o.submit(h.copy(), in(t), outExisting(h.y().block(64, 64).at(0, 0)), scalar(0));
            o.submit(h.copy(), in(h.x().block(64, 64).at(0, 0)), out(unused), scalar(0));
        });
        assertThat(errs).anySatisfy(e -> assertThat(e)
                .contains("intermediate 't' is used before any task produced it"));
        assertThat(errs).anySatisfy(e -> assertThat(e)
                .containsPattern("intermediate 'u' is produced by submit #2 copy at VerifierTest.java:\\d+ "
                        + "but never read"));
    }

    @Test
    void anIntermediateAllocatedOutsideALoopCannotBeProducedInside() {
        List<String> errs = program((o, h) -> {
            TensorVar t = o.alloc("t", FP32, 64, 64);
            o.forRange("i", 2, i -> {
                o.submit(h.copy(), in(h.x().block(64, 64).at(i, 0)), out(t), scalar(i));
                o.submit(h.copy(), in(t), outExisting(h.y().block(64, 64).at(i, 0)), scalar(i));
            });
        });
        assertThat(errs).anySatisfy(e -> assertThat(e).contains("move alloc into the loop body"));
    }

    @Test
    void argumentCountsKindsDtypesAndRanksAreChecked() {
        List<String> errs = program((o, h) -> {
            o.submit(h.copy(), in(h.x().block(64, 64).at(0, 0)), outExisting(h.y().block(64, 64).at(0, 0)));
            o.submit(h.copy(), scalar(1), outExisting(h.y().block(64, 64).at(0, 0)), scalar(1));
            o.submit(h.copy(), in(h.x().reshape(128, 8, 8)), outExisting(h.y()), scalar(1));
        });
        assertThat(errs).anySatisfy(e -> assertThat(e).contains("submit #1 copy")
                .contains("takes 2 tensor and 1 scalar arguments (copy(read src: fp32 rank 2, write dst: fp32 rank 2, "
                        + "scalar n)), got 2"));
        assertThat(errs).anySatisfy(e -> assertThat(e).contains("submit #2 copy")
                .contains("argument 0 is a scalar but kernel parameter 0 is tensor 'src'"));
        assertThat(errs).anySatisfy(e -> assertThat(e).contains("submit #3 copy")
                .contains("rank 3 [128, 8, 8] does not match the kernel parameter's rank 2"));

        KernelBuilder k = KernelBuilder.kernel("bf");
        KTensor src = k.input("src", BF16, 2);
        KTile t = k.tile("t", BF16, 8, 8);
        k.load(t, src, 0, 0);
        KernelBuilder w = KernelBuilder.kernel("w");
        KTensor dst = w.output("dst", FP32, 2);
        w.tile("t", FP32, 8, 8);
        ProgramBuilder pb = ProgramBuilder.program("q");
        TensorVar x = pb.input("x", FP32, 8, 8);
        TensorVar y = pb.output("y", FP32, 8, 8);
        KernelRef bf = pb.aiv(k.build());
        KernelRef wr = pb.aiv(w.build());
        pb.orchestrate(o -> {
            o.submit(bf, in(x));
            o.submit(wr, outExisting(y));
        });
        assertThat(errors(pb)).anySatisfy(e -> assertThat(e)
                .contains("dtype fp32 does not match the kernel parameter's bf16"));
        assertThat(dst.name()).isEqualTo("dst");
    }

    @Test
    void namesAndDeclarationsAreChecked() {
        int[] line = new int[1];
        List<String> errs = program((o, h) -> {
            line[0] = Here.line(); o.forRange("i", 2, i -> o.forRange("i", 2, i2 -> o.submit(h.copy(),
                    in(h.x().block(64, 64).at(i2, 0)), outExisting(h.y().block(64, 64).at(i2, 0)), scalar(0))));
            o.forRange("j", 4, 2, j -> { });
            o.alloc("x", FP32, 4, 4);
            o.submit(h.copy(), in(h.x().at(Affine("q"), 0).size(64, 64)), outExisting(h.y().block(64, 64).at(0, 0)),
                    scalar(0));
        });
        String at = " at VerifierTest.java:" + line[0];
        assertThat(errs).anySatisfy(e -> assertThat(e).contains("program p/for i" + at + "/for i" + at + ": ")
                .contains("shadows an enclosing loop variable"));
        assertThat(errs).anySatisfy(e -> assertThat(e).contains("loop never runs: range(4, 2)"));
        assertThat(errs).anySatisfy(e -> assertThat(e).contains("tensor 'x' is declared twice"));
        assertThat(errs).anySatisfy(e -> assertThat(e).contains("slice start 'q' uses 'q', which is not an enclosing"));
    }

    private static dev.jpto.compiler.ir.Affine Affine(String var) {
        return dev.jpto.compiler.ir.Affine.var(var);
    }

    @Test
    void unusedInputsAndKernelsAreReported() {
        KernelBuilder k = KernelBuilder.kernel("fill");
        KTensor dst = k.output("dst", FP32, 2);
        KTile t = k.tile("t", FP32, 8, 8);
        k.fill(t, 1).store(t, dst, 0, 0);
        KernelBuilder spare = KernelBuilder.kernel("spare");
        spare.tile("t", FP32, 8, 8);
        ProgramBuilder p = ProgramBuilder.program("u");
        p.input("x", FP32, 8, 8);
        TensorVar y = p.output("y", FP32, 8, 8);
        KernelRef f = p.aiv(k.build());
        p.aiv(spare.build());
        p.orchestrate(o -> o.submit(f, outExisting(y)));
        assertThatThrownBy(() -> Verifier.verify(p.build()))
                .isInstanceOf(VerificationException.class)
                .hasMessageContaining("program 'u' is invalid (2 errors)")
                .hasMessageContaining("input 'x' is never read by any task")
                .hasMessageContaining("kernel 'spare' is declared but never submitted");
    }

    @Test
    void kernelsAreValidatedByTheIsaRulesWhenBuiltAndWhenVerified() {
        KernelBuilder k = KernelBuilder.kernel("bad_mm");
        KTensor src = k.input("src", FP32, 2);
        KTensor dst = k.output("dst", FP32, 2);
        KTile a = k.tile("a", BF16, 8, 8);
        KTile c = k.tile("c", BF16, 8, 8);
        k.load(a, src, 0, 0).matmul(c, a, a).store(c, dst, 0, 0); int line = Here.line();
        assertThatThrownBy(k::build).isInstanceOf(IllegalArgumentException.class).hasMessage("kernel bad_mm: op #1 "
                + "(matmul) at VerifierTest.java:" + line + ": operand c must be fp32, got tile c bf16[8x8]");

        // a kernel that did not come from a KernelBuilder (e.g. a work dir's text) is validated by the verifier
        Kernel raw = new Kernel("bad_mm", List.of(new TensorParam("src", FP32, 2, TensorParam.Access.READ)),
                List.of(), List.of(new TileDecl("a", BF16, 8, 8), new TileDecl("c", BF16, 8, 8)),
                List.of(new TileOp.MatMul(1, 0, 0, false, false)));
        Program p = new Program("m", List.of(new TensorDecl("x", FP32, new long[] {8, 8})),
                List.of(new TensorDecl("y", FP32, new long[] {8, 8})), List.of(raw),
                List.of(new Stmt.Submit("bad_mm", CoreType.AIC, List.of(
                        new SubmitArg.TensorArg(new TensorExpr.Ref("x"), Direction.INPUT)))));
        assertThat(Verifier.check(p)).map(IrError::toString)
                .contains("program m: kernel bad_mm: op #0 (matmul): operand c must be fp32, got tile c bf16[8x8]");
    }

    @Test
    void kernelAccessesMustStayInsideTheTensorsTheyAreGiven() {
        KernelBuilder k = KernelBuilder.kernel("rows");
        KTensor src = k.input("src", FP32, 2);
        KTensor dst = k.output("dst", FP32, 2);
        var row0 = k.scalar("row0");
        KTile t = k.tile("t", FP32, 32, 32);
        k.forRange("c", 0, 64, 32, c -> k.load(t, src, row0, c).store(t, dst, 0, c));
        ProgramBuilder p = ProgramBuilder.program("acc");
        TensorVar x = p.input("x", FP32, 128, 64);
        TensorVar y = p.output("y", FP32, 128, 64);
        KernelRef rows = p.aiv(k.build());
        int[] line = new int[1];
        p.orchestrate(o -> {
            // fine: row0 in [0, 96], a 32-row tile, columns 0 and 32 of 64
            o.forRange("i", 4, i -> o.submit(rows, in(x), outExisting(y.block(32, 64).at(i, 0)), scalar(i.times(32))));
            // row0 reaches 112: rows [112, 144) leave x's 128 rows; and a 16-row destination is too small
            line[0] = Here.line(); o.forRange("j", 2, j -> o.submit(rows, in(x), outExisting(y.at(j.times(16), 0)
                    .size(16, 64)), scalar(j.times(112))));
        });
        List<String> errs = errors(p);
        assertThat(errs).hasSize(2);
        String at = " at VerifierTest.java:" + line[0];
        assertThat(errs.get(0)).startsWith("program acc/for j" + at + "/submit #2 rows" + at + ": kernel rows op #0.0 "
                        + "(load) reads src at offset 'row0' ")
                .contains("in dimension 0, which ranges over [0, 112], with extent 32: leaves [0, 128)");
        assertThat(errs.get(1)).contains("kernel rows op #0.1 (store) writes dst at offset '0' in dimension 0")
                .contains("with extent 32: leaves [0, 16) of the argument's shape [16, 64]");
    }
}
