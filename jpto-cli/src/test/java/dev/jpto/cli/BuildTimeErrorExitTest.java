package dev.jpto.cli;

import static dev.jpto.compiler.dsl.TaskArg.in;
import static dev.jpto.compiler.dsl.TaskArg.outExisting;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.compiler.dsl.KTensor;
import dev.jpto.compiler.dsl.KTile;
import dev.jpto.compiler.dsl.KernelBuilder;
import dev.jpto.compiler.dsl.KernelRef;
import dev.jpto.compiler.dsl.ProgramBuilder;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.isa.DType;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A program or kernel that fails its build-time checks is bad input: the command exits 2 (not 3, "internal
 * error") with one line naming the program, then the indented findings with the user's file:line.
 */
@Timeout(60)
class BuildTimeErrorExitTest {
    private static final String FILE = "BuildTimeErrorExitTest.java:";

    private record Result(int exit, String err) {
    }

    private static Result run(Callable<Integer> body) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Outcome.of("run", new PrintStream(err, true, StandardCharsets.UTF_8), false, body);
        return new Result(exit, err.toString(StandardCharsets.UTF_8));
    }

    private static int line() {
        return StackWalker.getInstance().walk(s -> s.skip(1).findFirst()).orElseThrow().getLineNumber();
    }

    /** A copy of an 8x8 block of x into y; {@code rowBlock} picks the block of x (1 is past x's 8 rows). */
    private static int copyProgram(int rowBlock, int[] submitLine) {
        KernelBuilder kb = KernelBuilder.kernel("copy");
        KTensor src = kb.input("src", DType.FP32, 2);
        KTensor dst = kb.output("dst", DType.FP32, 2);
        KTile t = kb.tile("t", DType.FP32, 8, 8);
        kb.load(t, src, 0, 0).store(t, dst, 0, 0);
        ProgramBuilder pb = ProgramBuilder.program("copy_block");
        TensorVar x = pb.input("x", DType.FP32, 8, 8);
        TensorVar y = pb.output("y", DType.FP32, 8, 8);
        KernelRef copy = pb.aiv(kb.build());
        pb.orchestrate(o -> {
            submitLine[0] = line(); o.submit(copy, in(x.block(8, 8).at(rowBlock, 0)), outExisting(y));
        });
        pb.build();
        return ExitCodes.PASS;
    }

    @Test
    void anInvalidProgramExitsTwoWithItsFindingsAndSourceLines() {
        int[] submitLine = new int[1];
        Result r = run(() -> copyProgram(1, submitLine));
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        String[] lines = r.err().split("\n");
        assertThat(lines[0]).isEqualTo("jpto run: program 'copy_block' is invalid (1 error)");
        assertThat(lines[1]).startsWith("  program copy_block/submit #1 copy at " + FILE + submitLine[0] + ": ")
                .contains("slice start '8' in dimension 0 ranges over [8, 8], so [start, start+8) leaves [0, 8)");
        assertThat(lines).hasSize(2);
        assertThat(r.err()).doesNotContain("internal error").doesNotContain("\tat ");
        // and the same program with the right block passes its checks
        assertThat(run(() -> copyProgram(0, submitLine)).exit()).isEqualTo(ExitCodes.PASS);
    }

    @Test
    void anInvalidKernelExitsTwoNamingTheOpAndItsLine() {
        int[] opLine = new int[1];
        Result r = run(() -> {
            KernelBuilder kb = KernelBuilder.kernel("bad_add");
            KTile a = kb.tile("a", DType.FP32, 8, 8);
            KTile b = kb.tile("b", DType.FP32, 8, 4);
            opLine[0] = line(); kb.add(a, a, b);
            kb.build();
            return ExitCodes.PASS;
        });
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).isEqualTo("jpto run: kernel bad_add: op #0 (add) at " + FILE + opLine[0] + ": operand b "
                + "(tile b fp32[8x4]) must be 8x8 to match a (tile a fp32[8x8])" + System.lineSeparator());
    }
}
