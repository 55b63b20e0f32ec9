package dev.jpto.lib.runner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.lib.npy.Npy;
import dev.jpto.runtime.Arg;
import dev.jpto.runtime.CallConfig;
import dev.jpto.runtime.chip.Chip;
import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.RunReport;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** enable_dump_args: the .npy files read back with {@link Npy#read} equal the tasks' inputs and outputs. */
@Timeout(30)
class ArgsDumpFormatTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void inputsBeforeDispatchAndOutputsAfterCompletion(@TempDir Path dir) throws Exception {
        List<Long> ids = new ArrayList<>();
        RunReport rep;
        double[] x0, h0;
        try (Arena arena = Arena.ofShared(); Chip chip = Chip.open(Platform.A2A3SIM, 0)) {
            Tensor x = Tensor.allocate(arena, DType.FP32, 4, 8);
            Tensor hFull = Tensor.allocate(arena, DType.BF16, 4, 8);
            Tensor o = Tensor.allocate(arena, DType.FP32, 4, 8);
            for (long i = 0; i < 32; i++) {
                x.setDouble(i, 0.25 * i - 3);
                hFull.setDouble(i, i); // small integers: exact in bf16
            }
            Tensor h = hFull.slice(new long[] {1, 2}, new long[] {3, 4}); // strided bf16 view
            x0 = x.toDoubleArray();
            h0 = h.toDoubleArray();
            rep = chip.run(orch -> {
                long t0 = orch.submit("double", CoreType.AIV, ctx -> {
                    Tensor in = ctx.tensor(0), out = ctx.tensor(1);
                    for (long i = 0; i < in.numel(); i++) {
                        out.setDouble(i, 2 * in.getDouble(i));
                    }
                }, Arg.input(x), Arg.output(DType.FP32, 4, 8));
                long t1 = orch.submit("inc", CoreType.AIV, ctx -> {
                    Tensor v = ctx.tensor(0);
                    for (long i = 0; i < v.numel(); i++) {
                        v.setDouble(i, v.getDouble(i) + 1);
                    }
                }, Arg.inout(h));
                long t2 = orch.submit("copy", CoreType.AIC, ctx -> ctx.tensor(1).copyFrom(ctx.tensor(0)),
                        Arg.input(orch.output(t0, 1)), Arg.outputExisting(o), Arg.scalar(7));
                ids.addAll(List.of(t0, t1, t2));
            }, new CallConfig(0, 0, 2, 0, false, false, dir.toString(), null));
        }
        assertThat(rep.dfxFiles()).containsExactly(dir.resolve("args_dump/args_dump.json"));
        double[] twice = new double[32];
        double[] inc = new double[h0.length];
        for (int i = 0; i < 32; i++) {
            twice[i] = 2 * x0[i];
        }
        for (int i = 0; i < inc.length; i++) {
            inc[i] = h0[i] + 1;
        }
        assertThat(read(dir, ids.get(0), "0_input_before")).containsExactly(x0);
        assertThat(read(dir, ids.get(0), "1_output_after")).containsExactly(twice);
        Tensor hb = Npy.read(file(dir, ids.get(1), "0_inout_before"), DType.BF16, new long[] {3, 4});
        assertThat(hb.toDoubleArray()).containsExactly(h0);
        assertThat(Npy.read(file(dir, ids.get(1), "0_inout_after"), DType.BF16, new long[] {3, 4}).toDoubleArray())
                .containsExactly(inc);
        assertThat(read(dir, ids.get(2), "0_input_before")).containsExactly(twice);
        assertThat(read(dir, ids.get(2), "1_output_existing_after")).containsExactly(twice);
        // only what each stage defines: no input after, no output before, no scalar file
        try (var files = Files.list(dir.resolve("args").resolve(hex(ids.get(2))))) {
            assertThat(files.map(p -> p.getFileName().toString()).sorted().toList())
                    .containsExactly("0_input_before.npy", "1_output_existing_after.npy");
        }

        JsonNode manifest = JSON.readTree(dir.resolve("args_dump/args_dump.json").toFile());
        assertThat(manifest.get("dump_args_level").asInt()).isEqualTo(2);
        assertThat(manifest.get("bin_format").asText()).isEqualTo("npy");
        JsonNode totals = manifest.get("totals");
        assertThat(totals.get("before_dispatch").asInt()).isEqualTo(3);
        assertThat(totals.get("after_completion").asInt()).isEqualTo(3);
        assertThat(totals.get("inout").asInt()).isEqualTo(2);
        JsonNode args = manifest.get("args");
        assertThat(args).hasSize(6);
        for (JsonNode a : args) {
            Path f = Path.of(manifest.get("run_dir").asText()).resolve(a.get("file").asText());
            assertThat(f).exists();
            assertThat(a.get("bytes").asLong()).isEqualTo(Files.size(f));
            assertThat(Npy.readHeader(f).shape()).containsExactly(longs(a.get("shape")));
            if (a.get("task_id").asText().equals(hex(ids.get(1)))) {
                assertThat(a.get("dtype").asText()).isEqualTo("bf16");
                assertThat(a.get("file_dtype").asText()).isEqualTo("<f4");
                assertThat(a.get("is_contiguous").asBoolean()).isFalse();
                assertThat(a.get("strides").toString()).isEqualTo("[8,1]");
                assertThat(a.get("start_offset").asLong()).isEqualTo(10);
            }
        }
    }

    @Test
    void emptyAndScalarShapedTensorsRoundTrip(@TempDir Path dir) throws Exception {
        List<Long> ids = new ArrayList<>();
        try (Arena arena = Arena.ofShared(); Chip chip = Chip.open(Platform.A2A3SIM, 0)) {
            Tensor empty = Tensor.allocate(arena, DType.INT32, 0, 5);
            Tensor one = Tensor.allocate(arena, DType.INT8, 1);
            one.setDouble(0, -7);
            chip.run(orch -> ids.add(orch.submit("noop", CoreType.AIV, ctx -> { }, Arg.input(empty),
                    Arg.input(one))), new CallConfig(0, 0, 1, 0, false, false, dir.toString(), null));
        }
        Tensor e = Npy.read(file(dir, ids.getFirst(), "0_input_before"));
        assertThat(e.shape()).containsExactly(0, 5);
        assertThat(e.dtype()).isEqualTo(DType.INT32);
        Tensor o = Npy.read(file(dir, ids.getFirst(), "1_input_before"));
        assertThat(o.dtype()).isEqualTo(DType.INT8);
        assertThat(o.toDoubleArray()).containsExactly(-7);
    }

    private static long[] longs(JsonNode a) {
        long[] out = new long[a.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = a.get(i).asLong();
        }
        return out;
    }

    private static String hex(long id) {
        return String.format("0x%016x", id);
    }

    private static Path file(Path dir, long id, String name) {
        return dir.resolve("args").resolve(hex(id)).resolve(name + ".npy");
    }

    private static double[] read(Path dir, long id, String name) throws Exception {
        return Npy.read(file(dir, id, name)).toDoubleArray();
    }
}
