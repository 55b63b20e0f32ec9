package dev.jpto.compiler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.jpto.compiler.launch.ChipWorker;
import dev.jpto.compiler.run.RunConfig;
import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.RunReport;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 9: eight programs dispatched at once from eight threads onto two chips (four threads per chip, whose runs
 * the chip serialises) all give the plain-loop reference's results, round after round.
 */
@Timeout(120)
class ConcurrentDispatchTest {
    private static final int THREADS = 8;
    private static final int ROUNDS = 3;

    /** One thread's program, its tensors and the check of its outputs against a plain-loop reference. */
    private record Job(CompiledProgram program, Map<String, Tensor> args, Runnable check) {
    }

    private static Job job(int i, Arena arena) {
        long seed = 100 + i;
        return switch (i % 4) {
            case 0 -> {
                int rows = 128 + 64 * (i / 4);
                Tensor x = Tensors.random(arena, seed, rows, 128);
                Tensor y = Tensors.random(arena, seed + 50, rows, 128);
                Tensor z = Tensor.allocate(arena, DType.FP32, rows, 128);
                yield new Job(Compiler.compileInMemory(TestPrograms.vectorAdd(rows)), Map.of("x", x, "y", y, "z", z),
                        () -> {
                            for (long k = 0; k < z.numel(); k++) {
                                assertThat(z.getDouble(k)).as("vector_add job %d z[%d]", i, k)
                                        .isEqualTo((double) ((float) x.getDouble(k) + (float) y.getDouble(k)));
                            }
                        });
            }
            case 1 -> {
                int m = 64 * (1 + i / 4);
                Tensor a = Tensors.random(arena, seed, m, 192);
                Tensor b = Tensors.random(arena, seed + 50, 192, 128);
                Tensor c = Tensor.allocate(arena, DType.FP32, m, 128);
                yield new Job(Compiler.compileInMemory(TestPrograms.matmul(m, 192, 128)), Map.of("a", a, "b", b, "c", c),
                        () -> {
                            double[] ref = Tensors.matmul(a, b);
                            for (int k = 0; k < ref.length; k++) {
                                assertThat(c.getDouble(k)).as("matmul job %d c[%d]", i, k).isCloseTo(ref[k], within(1e-4));
                            }
                        });
            }
            case 2 -> {
                Tensor x = Tensors.random(arena, seed, 192, 64);
                Tensor y = Tensor.allocate(arena, DType.FP32, 192, 64);
                yield new Job(Compiler.compileInMemory(TestPrograms.rowSoftmax(192, 64)), Map.of("x", x, "y", y), () -> {
                    double[] ref = Tensors.softmaxRows(x);
                    for (int k = 0; k < ref.length; k++) {
                        assertThat(y.getDouble(k)).as("softmax job %d y[%d]", i, k).isCloseTo(ref[k], within(1e-6));
                    }
                });
            }
            default -> {
                int blocks = 6 + i;
                Tensor x = Tensors.random(arena, seed, 64L * blocks, 64);
                Tensor y = Tensor.allocate(arena, DType.FP32, 64L * blocks, 64);
                yield new Job(Compiler.compileInMemory(TestPrograms.heapHog(blocks)), Map.of("x", x, "y", y), () -> {
                    for (long k = 0; k < y.numel(); k++) {
                        assertThat(y.getDouble(k)).as("heap_hog job %d y[%d]", i, k).isEqualTo(x.getDouble(k));
                    }
                });
            }
        };
    }

    private static void clear(Map<String, Tensor> args, CompiledProgram program) {
        for (var d : program.outputs()) {
            Tensor t = args.get(d.name());
            for (long k = 0; k < t.numel(); k++) {
                t.setDouble(k, 0);
            }
        }
    }

    @Test
    void eightProgramsFromEightThreadsOnTwoChipsAllMatchTheirReferences() throws Exception {
        RunConfig onA = RunConfig.defaults().withPlatform(Platform.A2A3SIM).withDeviceId(0).withAicpuThreadNum(3);
        RunConfig onB = RunConfig.defaults().withPlatform(Platform.A5SIM).withDeviceId(1);
        try (Arena arena = Arena.ofShared();
             ChipWorker a = ChipWorker.open(onA);
             ChipWorker b = ChipWorker.open(onB);
             ExecutorService pool = Executors.newFixedThreadPool(THREADS)) {
            List<Job> jobs = new ArrayList<>();
            for (int i = 0; i < THREADS; i++) {
                jobs.add(job(i, arena));
            }
            CyclicBarrier start = new CyclicBarrier(THREADS);
            List<Future<Long>> futures = new ArrayList<>();
            for (int i = 0; i < THREADS; i++) {
                Job job = jobs.get(i);
                ChipWorker worker = i % 2 == 0 ? a : b;
                RunConfig config = i % 2 == 0 ? onA : onB;
                futures.add(pool.submit(() -> {
                    long tasks = 0;
                    for (int r = 0; r < ROUNDS; r++) {
                        clear(job.args(), job.program());
                        start.await(30, TimeUnit.SECONDS); // every round, all eight dispatch together
                        RunReport rep = worker.run(job.program(), job.args(), config);
                        job.check().run();
                        tasks += rep.tasksExecuted();
                    }
                    return tasks;
                }));
            }
            for (int i = 0; i < THREADS; i++) {
                assertThat(futures.get(i).get(60, TimeUnit.SECONDS)).as("tasks of job %d", i).isPositive();
            }
        }
    }
}
