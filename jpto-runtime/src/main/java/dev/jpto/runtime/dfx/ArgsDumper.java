package dev.jpto.runtime.dfx;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.runtime.Arg;
import dev.jpto.runtime.Direction;
import dev.jpto.runtime.TaskContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * {@code enable_dump_args}: every tensor argument of every task as a {@code .npy} file, written on the scheduler
 * thread that runs the task — arguments the kernel reads just before its body runs, arguments it writes just
 * after the body returned (before any consumer can start):
 *
 * <pre>
 * args/&lt;task id hex&gt;/&lt;arg index&gt;_&lt;role&gt;_&lt;before|after&gt;.npy
 *     role: input, inout, no_dep (before); output, output_existing, inout, no_dep (after)
 * args_dump/args_dump.json
 *     run_dir, bin_format "npy", dump_args_level, totals {before_dispatch, after_completion, input, output,
 *     inout, truncated, dropped}, args[] {task_id (hex), kernel, role, stage, arg_index, kind, dtype, file_dtype,
 *     shape, strides, start_offset, is_contiguous, truncated, file (relative to run_dir), bytes}
 * </pre>
 * bf16 is stored widened to {@code <f4} (exact; numpy has no bfloat16), like {@code --save-tensors}. jpto has no
 * per-task marks, so levels 1 (marked), 2 (all) and 3 (hybrid) all dump every task; the level is recorded.
 */
final class ArgsDumper {
    static final String DIR = "args";
    static final String MANIFEST = "args_dump/args_dump.json";

    /** One file written. */
    record Entry(long task, String kernel, int argIndex, String role, String stage, DType dtype, long[] shape,
                 long[] strides, long offset, boolean contiguous, String file, long bytes) {
    }

    private final Path prefix;
    private final int level;
    private final List<List<Entry>> perThread = new ArrayList<>();
    /** The first write failure; the manifest write reports it. */
    private volatile UncheckedIOException failure;

    ArgsDumper(Path prefix, int level, int threads) {
        this.prefix = prefix;
        this.level = level;
        for (int t = 0; t < threads; t++) {
            perThread.add(new ArrayList<>());
        }
    }

    void before(long taskId, int thread, Arg[] args, TaskContext task) {
        for (int i = 0; i < args.length; i++) {
            if (args[i] instanceof Arg.TensorArg(Tensor t, Direction d) && d != Direction.OUTPUT_EXISTING) {
                dump(taskId, thread, task.kernelName(), i, ArgInfo.role(d), "before", t);
            }
        }
    }

    void after(long taskId, int thread, Arg[] args, TaskContext task) {
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case Arg.TensorArg(Tensor t, Direction d) when d != Direction.INPUT ->
                        dump(taskId, thread, task.kernelName(), i, ArgInfo.role(d), "after", t);
                case Arg.Output o -> dump(taskId, thread, task.kernelName(), i, "output", "after", task.tensor(i));
                default -> { }
            }
        }
    }

    private void dump(long taskId, int thread, String kernel, int index, String role, String stage, Tensor t) {
        if (failure != null) {
            return;
        }
        String rel = DIR + "/" + TaskInfo.hex(taskId) + "/" + index + "_" + role + "_" + stage + ".npy";
        Path file = prefix.resolve(rel);
        try {
            Files.createDirectories(file.getParent());
            long bytes = NpyFile.write(file, t);
            perThread.get(thread).add(new Entry(taskId, kernel, index, role, stage, t.dtype(), t.shape(),
                    t.strides(), t.offset(), t.isContiguous(), rel, bytes));
        } catch (IOException e) {
            failure = new UncheckedIOException("enable_dump_args: cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    Path writeManifest(boolean fatal) {
        if (failure != null) {
            throw failure;
        }
        List<Entry> all = new ArrayList<>();
        perThread.forEach(all::addAll);
        all.sort(Comparator.comparingLong(Entry::task).thenComparing(Entry::stage, Comparator.reverseOrder())
                .thenComparingInt(Entry::argIndex));
        long before = all.stream().filter(e -> e.stage().equals("before")).count();
        return Json.write(prefix.resolve(MANIFEST), g -> {
            g.writeStartObject();
            g.writeStringField("run_dir", prefix.toAbsolutePath().toString());
            g.writeStringField("bin_format", "npy");
            g.writeNumberField("dump_args_level", level);
            g.writeBooleanField("fatal", fatal);
            g.writeObjectFieldStart("totals");
            g.writeNumberField("before_dispatch", before);
            g.writeNumberField("after_completion", all.size() - before);
            g.writeNumberField("input", all.stream().filter(e -> e.role().equals("input")).count());
            g.writeNumberField("output", all.stream().filter(e -> e.role().startsWith("output")).count());
            g.writeNumberField("inout", all.stream().filter(e -> e.role().equals("inout")).count());
            g.writeNumberField("truncated", 0);
            g.writeNumberField("dropped", 0);
            g.writeEndObject();
            g.writeArrayFieldStart("args");
            for (Entry e : all) {
                entry(g, e);
            }
            g.writeEndArray();
            g.writeEndObject();
        });
    }

    private static void entry(JsonGenerator g, Entry e) throws IOException {
        g.writeStartObject();
        g.writeStringField("task_id", TaskInfo.hex(e.task()));
        g.writeStringField("kernel", e.kernel());
        g.writeStringField("role", e.role());
        g.writeStringField("stage", e.stage());
        g.writeNumberField("arg_index", e.argIndex());
        g.writeStringField("kind", "tensor");
        g.writeStringField("dtype", e.dtype().text());
        g.writeStringField("file_dtype", NpyFile.descr(e.dtype()));
        Json.longArray(g, "shape", e.shape());
        Json.longArray(g, "strides", e.strides());
        g.writeNumberField("start_offset", e.offset());
        g.writeBooleanField("is_contiguous", e.contiguous());
        g.writeBooleanField("truncated", false);
        g.writeStringField("file", e.file());
        g.writeNumberField("bytes", e.bytes());
        g.writeEndObject();
    }
}
