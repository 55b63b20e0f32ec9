package dev.jpto.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import dev.jpto.lib.runner.TensorFiles;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 9's bad-input table: one row per bad input, driven through the real {@code jpto run / compile / exec}
 * command lines in-process. Each row asserts the exit code (2 usage or bad config) and the message: it names the
 * input and what is allowed, is one line without a stack trace, and nothing ran on a silent default. A refused
 * {@code run} computes no golden (except where only the chip can tell: a heap this host cannot map).
 */
@Timeout(120)
class BadInputTableTest {
    private static final String PROGRAM = "basic.vector_add";
    private static final String PRESET = "tiny";

    @TempDir
    static Path shared;
    /** A work dir of basic.vector_add:tiny and a directory of its two inputs, x.npy and y.npy (fp32[128, 256]). */
    private static Path workDir;
    private static Path inputs;

    @BeforeAll
    static void compileOnce() {
        workDir = shared.resolve("wd");
        assertThat(Main.run(new PrintStream(ByteArrayOutputStream.nullOutputStream()), System.err, "compile", PROGRAM,
                "--preset", PRESET, "-o", workDir.toString())).isZero();
        inputs = shared.resolve("inputs");
        try (Arena arena = Arena.ofConfined()) {
            Tensor x = Tensor.allocate(arena, DType.FP32, 128, 256);
            Tensor y = Tensor.allocate(arena, DType.FP32, 128, 256);
            TensorFiles.write(inputs, Map.of("x", x, "y", y));
        }
    }

    /** Builds a row's command line in its own temporary directory (copying and breaking what the row needs). */
    @FunctionalInterface
    interface Setup {
        String[] argv(Path tmp) throws IOException;
    }

    /** One row: a command line, the exit code and the fragments its error line must contain. */
    record Case(Setup setup, int exit, boolean goldenMayRun, List<String> messages) {
    }

    private static Row row(String name, int exit, Setup setup, String... messages) {
        return new Row(name, new Case(setup, exit, false, List.of(messages)));
    }

    private record Row(String name, Case c) {
        Arguments arguments() {
            return Arguments.of(Named.of(name, c));
        }
    }

    // ---- helpers that build broken inputs ---------------------------------------------------------------------

    private static Path copyWorkDir(Path tmp) throws IOException {
        Path dst = tmp.resolve("wd");
        try (Stream<Path> files = Files.walk(workDir)) {
            for (Path p : files.sorted().toList()) {
                Path target = dst.resolve(workDir.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
        return dst;
    }

    private static Path copyInputs(Path tmp) throws IOException {
        Path dst = tmp.resolve("inputs");
        Files.createDirectories(dst);
        for (String n : List.of("x.npy", "y.npy")) {
            Files.copy(inputs.resolve(n), dst.resolve(n));
        }
        return dst;
    }

    /** Replaces {@code from} by {@code to} in a text file; the row is broken if {@code from} is not there. */
    private static void edit(Path file, String from, String to) throws IOException {
        String text = Files.readString(file);
        if (!text.contains(from)) {
            throw new IllegalStateException(file + " does not contain '" + from + "': the table row is out of date");
        }
        Files.writeString(file, text.replace(from, to));
    }

    private static void truncate(Path file, int keepBytes) throws IOException {
        byte[] b = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(b, Math.min(keepBytes, b.length)));
    }

    /** A version-1.0 .npy preamble and header dict, padded as numpy pads it, then {@code dataBytes} zero bytes. */
    private static void npy(Path file, byte[] magic, int major, String dict, int dataBytes) throws IOException {
        byte[] h = dict.getBytes(StandardCharsets.ISO_8859_1);
        int pad = 64 - (10 + h.length + 1) % 64;
        ByteBuffer b = ByteBuffer.allocate(10 + h.length + pad + 1 + dataBytes).order(ByteOrder.LITTLE_ENDIAN);
        b.put(magic).put((byte) major).put((byte) 0).putShort((short) (h.length + pad + 1)).put(h);
        for (int i = 0; i < pad; i++) {
            b.put((byte) ' ');
        }
        b.put((byte) '\n');
        Files.write(file, b.array());
    }

    private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    private static final int X_BYTES = 128 * 256 * 4;

    private static String dict(String descr, boolean fortran, String shape) {
        return "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': " + shape
                + ", }";
    }

    private static String[] exec(Path wd, Path in, Path tmp, String... more) {
        List<String> a = new ArrayList<>(List.of("exec", wd.toString(), "--inputs", in.toString(), "--outputs",
                tmp.resolve("out").toString()));
        a.addAll(List.of(more));
        return a.toArray(String[]::new);
    }

    /** exec of a work dir broken by {@code breakIt}, on good inputs. */
    private static Setup brokenWorkDir(WorkDirEdit breakIt) {
        return tmp -> {
            Path wd = copyWorkDir(tmp);
            breakIt.apply(wd, tmp);
            return exec(wd, inputs, tmp);
        };
    }

    @FunctionalInterface
    interface WorkDirEdit {
        void apply(Path wd, Path tmp) throws IOException;
    }

    /** exec of the good work dir on inputs where x.npy is replaced by {@code writeX}. */
    private static Setup brokenX(InputEdit writeX) {
        return tmp -> {
            Path in = copyInputs(tmp);
            writeX.apply(in.resolve("x.npy"));
            return exec(workDir, in, tmp);
        };
    }

    @FunctionalInterface
    interface InputEdit {
        void apply(Path x) throws IOException;
    }

    private static Setup run(String... more) {
        return tmp -> {
            List<String> a = new ArrayList<>(List.of("run", PROGRAM, "--preset", PRESET));
            a.addAll(List.of(more));
            return a.toArray(String[]::new);
        };
    }

    private static Setup cfg(String entry) {
        return run("--runtime-cfg", entry);
    }

    private static Setup args(String... argv) {
        return tmp -> argv;
    }

    private static Path outsideFile(Path tmp, String name) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("outside"));
        return Files.writeString(dir.resolve(name), "not part of the work dir");
    }

    // ---- the table ----------------------------------------------------------------------------------------------

    static Stream<Arguments> table() {
        String m = "manifest.json";
        String kernel = "kernels/add_tile.pto";
        String orch = "orchestration.json";
        List<Row> rows = List.of(
                // work dir and manifest
                row("work dir missing", 2, tmp -> exec(tmp.resolve("nowhere"), inputs, tmp),
                        "nowhere: does not exist: expected a work dir written by jpto compile"),
                row("work dir is a file", 2, tmp -> exec(Files.writeString(tmp.resolve("f"), "x"), inputs, tmp),
                        "f: is not a directory: expected a work dir written by jpto compile"),
                row("manifest missing", 2, brokenWorkDir((wd, t) -> Files.delete(wd.resolve(m))),
                        "manifest.json: is missing: expected the work dir's manifest"),
                row("manifest empty", 2, brokenWorkDir((wd, t) -> Files.write(wd.resolve(m), new byte[0])),
                        "manifest.json: is empty: expected the work dir's manifest"),
                row("manifest truncated", 2, brokenWorkDir((wd, t) -> truncate(wd.resolve(m), 200)),
                        "manifest.json: is not valid JSON at line", "Unexpected end-of-input"),
                row("manifest corrupt (not UTF-8)", 2, brokenWorkDir((wd, t) -> Files.write(wd.resolve(m),
                        new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1, (byte) 0x93})), "manifest.json: is not UTF-8 text"),
                row("manifest is a JSON array", 2, brokenWorkDir((wd, t) -> Files.writeString(wd.resolve(m), "[1, 2]")),
                        "manifest.json: at $: expected an object with field 'format', found array"),
                row("manifest of another format", 2, brokenWorkDir((wd, t) -> edit(wd.resolve(m), "\"jpto-workdir\"",
                        "\"pypto-workdir\"")), "at $.format: expected \"jpto-workdir\", found \"pypto-workdir\""),
                row("manifest of another format version", 2, brokenWorkDir((wd, t) -> edit(wd.resolve(m),
                        "\"format_version\" : 1", "\"format_version\" : 2")),
                        "at $.format_version: format_version 2 is not supported: this jpto reads format_version 1; "
                                + "recompile the program with this jpto"),
                row("manifest version as a string", 2, brokenWorkDir((wd, t) -> edit(wd.resolve(m),
                        "\"format_version\" : 1", "\"format_version\" : \"1\"")),
                        "at $.format_version: expected an integer, found string \"1\""),
                row("manifest field missing", 2, brokenWorkDir((wd, t) -> edit(wd.resolve(m),
                        "\"program\" : \"vector_add\",", "")), "at $: missing field 'program'"),
                row("manifest field unknown", 2, brokenWorkDir((wd, t) -> edit(wd.resolve(m),
                        "\"program\" : ", "\"programme\" : 1, \"program\" : ")),
                        "at $: unexpected field 'programme' (expected: format, format_version, program"),
                row("manifest dtype unknown", 2, brokenWorkDir((wd, t) -> edit(wd.resolve(m), "\"dtype\" : \"fp32\"",
                        "\"dtype\" : \"fp33\"")), "manifest.json: at $.inputs[0].dtype", "fp33"),
                row("manifest kernel path ../x", 2, brokenWorkDir((wd, t) -> edit(wd.resolve(m), kernel,
                        "../outside/add_tile.pto")), "at $.kernels[0].file: path '../outside/add_tile.pto' resolves to",
                        "outside the work dir", "a work dir is data and may only name its own files"),
                row("manifest kernel path absolute", 2, brokenWorkDir((wd, t) -> edit(wd.resolve(m), kernel,
                        outsideFile(t, "k.pto").toString())), "at $.kernels[0].file: path '/", "outside the work dir"),
                row("manifest kernel path with backslashes", 2, brokenWorkDir((wd, t) -> edit(wd.resolve(m), kernel,
                        "kernels\\\\add_tile.pto")), "at $.kernels[0].file: 'kernels\\add_tile.pto' is not a relative "
                        + "path with '/' separators inside the work dir"),
                row("kernel file a symlink out", 2, brokenWorkDir((wd, t) -> {
                    Files.delete(wd.resolve(kernel));
                    Files.createSymbolicLink(wd.resolve(kernel), outsideFile(t, "add_tile.pto"));
                }), "at $.kernels[0].file: path 'kernels/add_tile.pto' is a link to", "outside the work dir"),
                row("kernels dir a symlink out", 2, brokenWorkDir((wd, t) -> {
                    Path out = Files.createDirectories(t.resolve("elsewhere"));
                    Files.move(wd.resolve(kernel), out.resolve("add_tile.pto"));
                    Files.delete(wd.resolve("kernels"));
                    Files.createSymbolicLink(wd.resolve("kernels"), out);
                }), "path 'kernels/add_tile.pto' is a link to", "elsewhere/add_tile.pto, outside the work dir"),
                row("manifest orchestration path ../x", 2, brokenWorkDir((wd, t) -> edit(wd.resolve(m),
                        "\"orchestration.json\"", "\"../orchestration.json\"")),
                        "at $.orchestration: path '../orchestration.json' resolves to", "outside the work dir"),
                row("manifest orchestration path absolute", 2, brokenWorkDir((wd, t) -> edit(wd.resolve(m),
                        "\"orchestration.json\"", "\"" + outsideFile(t, "o.json") + "\"")),
                        "at $.orchestration: path '/", "outside the work dir"),
                row("orchestration a symlink out", 2, brokenWorkDir((wd, t) -> {
                    Path out = outsideFile(t, "o.json");
                    Files.move(wd.resolve(orch), out, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                    Files.createSymbolicLink(wd.resolve(orch), out);
                }), "at $.orchestration: path 'orchestration.json' is a link to", "outside the work dir"),
                row("kernel file missing", 2, brokenWorkDir((wd, t) -> Files.delete(wd.resolve(kernel))),
                        "add_tile.pto: is missing: expected kernel 'add_tile' listed in manifest.json"),
                row("kernel file truncated", 2, brokenWorkDir((wd, t) -> truncate(wd.resolve(kernel), 100)),
                        "add_tile.pto: is not a valid kernel in the ISA text format: 5:1:"),
                row("kernel file corrupt", 2, brokenWorkDir((wd, t) -> Files.writeString(wd.resolve(kernel),
                        "garbage\n")), "add_tile.pto: is not a valid kernel in the ISA text format: 1:1: expected "
                        + "'kernel', got 'garbage'"),
                row("kernel file holds another kernel", 2, brokenWorkDir((wd, t) -> edit(wd.resolve(kernel),
                        "kernel add_tile", "kernel sub_tile")),
                        "add_tile.pto: holds kernel 'sub_tile' but manifest.json lists it as kernel 'add_tile'"),
                row("orchestration missing", 2, brokenWorkDir((wd, t) -> Files.delete(wd.resolve(orch))),
                        "orchestration.json: is missing: expected the orchestration named in manifest.json"),
                row("orchestration truncated", 2, brokenWorkDir((wd, t) -> truncate(wd.resolve(orch), 100)),
                        "orchestration.json: is not valid JSON at line"),
                row("orchestration corrupt", 2, brokenWorkDir((wd, t) -> Files.write(wd.resolve(orch),
                        new byte[] {(byte) 0xc3, 0x28})), "orchestration.json: is not UTF-8 text"),
                row("orchestration of another program", 2, brokenWorkDir((wd, t) -> edit(wd.resolve(orch),
                        "\"program\" : \"vector_add\"", "\"program\" : \"matmul\"")),
                        "orchestration.json: at $.program: expected \"vector_add\" (the manifest's program)"),
                row("orchestration submits an unknown kernel", 2, brokenWorkDir((wd, t) -> edit(wd.resolve(orch),
                        "\"submit\" : \"add_tile\"", "\"submit\" : \"mul_tile\"")), "orchestration.json: the program "
                        + "described by manifest.json and this file does not verify (was either edited?):",
                        "kernel 'mul_tile' is not declared in the program (declared: add_tile)"),

                // input .npy files
                row("input wrong shape", 2, brokenX(x -> npy(x, MAGIC, 1, dict("<f4", false, "(128, 255)"),
                        128 * 255 * 4)), "x.npy as x: fp32[128, 256]", "has shape (128, 255) but shape (128, 256) was "
                        + "expected"),
                row("input wrong rank", 2, brokenX(x -> npy(x, MAGIC, 1, dict("<f4", false, "(32768,)"), X_BYTES)),
                        "has shape (32768,) but shape (128, 256) was expected"),
                row("input wrong dtype", 2, brokenX(x -> npy(x, MAGIC, 1, dict("<i4", false, "(128, 256)"), X_BYTES)),
                        "holds <i4 data (read as int32) but dtype fp32 was expected; save it as <f4"),
                row("input unsupported dtype", 2, brokenX(x -> npy(x, MAGIC, 1, dict("|O", false, "(128, 256)"),
                        X_BYTES)), "descr '|O' is not supported; expected one of <f4"),
                row("input big-endian", 2, brokenX(x -> npy(x, MAGIC, 1, dict(">f4", false, "(128, 256)"), X_BYTES)),
                        "big-endian descr '>f4' is not supported"),
                row("input fortran order", 2, brokenX(x -> npy(x, MAGIC, 1, dict("<f4", true, "(128, 256)"), X_BYTES)),
                        "fortran_order is True; jpto reads C-order arrays only"),
                row("input header corrupt (magic)", 2, brokenX(x -> npy(x, new byte[] {(byte) 0x93, 'N', 'U', 'M',
                        'P', 'X'}, 1, dict("<f4", false, "(128, 256)"), X_BYTES)), "bad magic bytes", "not a .npy file"),
                row("input header corrupt (dict)", 2, brokenX(x -> npy(x, MAGIC, 1,
                        "{'descr': '<f4', 'fortran_order': False, 'shape': (128, 256), ", X_BYTES)),
                        "header dict parse error at character"),
                row("input header of another version", 2, brokenX(x -> npy(x, MAGIC, 9, dict("<f4", false,
                        "(128, 256)"), X_BYTES)), "unsupported .npy format version 9.0; jpto reads versions 1.0 and 2.0"),
                row("input header truncated", 2, brokenX(x -> truncate(x, 5)),
                        "file is 5 bytes, shorter than the 10-byte .npy preamble"),
                row("input data truncated", 2, brokenX(x -> truncate(x, 1000)), "truncated data: shape (128, 256) of "
                        + "<f4 needs exactly 131072 data bytes after the 128-byte header, the file has 872"),
                row("input missing", 2, tmp -> {
                    Path in = copyInputs(tmp);
                    Files.delete(in.resolve("y.npy"));
                    return exec(workDir, in, tmp);
                }, "missing input file", "y.npy for y: fp32[128, 256] (exec reads one <name>.npy per program input)"),
                row("input is a directory", 2, tmp -> {
                    Path in = copyInputs(tmp);
                    Files.delete(in.resolve("x.npy"));
                    Files.createDirectory(in.resolve("x.npy"));
                    return exec(workDir, in, tmp);
                }, "x.npy: is a directory, not a regular file: expected input x: fp32[128, 256]"),
                row("inputs dir missing", 2, tmp -> exec(workDir, tmp.resolve("none"), tmp), "missing input file",
                        "none/x.npy"),
                row("outputs dir is a file", 2, tmp -> {
                    String[] a = exec(workDir, inputs, tmp);
                    Files.writeString(tmp.resolve("out"), "a file");
                    return a;
                }, "jpto exec: --outputs ", "out is not a directory; give a directory (created if missing)"),

                // programs and presets
                row("run unknown program", 2, args("run", "basic.nope"), "unknown program 'basic.nope'; valid "
                        + "programs: basic.flash_attention, basic.matmul"),
                row("compile unknown program", 2, tmp -> new String[] {"compile", "dsv4.nope", "-o",
                        tmp.resolve("w").toString()}, "unknown program 'dsv4.nope'; valid programs:"),
                row("run unknown preset", 2, args("run", PROGRAM, "--preset", "huge"),
                        "--preset huge is not a preset of basic.vector_add; valid presets: tiny, demo, large"),
                row("compile unknown preset", 2, tmp -> new String[] {"compile", PROGRAM, "--preset", "pro", "-o",
                        tmp.resolve("w").toString()}, "--preset pro is not a preset of basic.vector_add"),

                // runtime_cfg
                row("runtime_cfg unknown key", 2, cfg("ring_hep=1MiB"), "unknown run config key 'ring_hep'; valid keys: "
                        + "platform, device_id, aicpu_thread_num"),
                row("runtime_cfg entry without a value", 2, cfg("ring_heap"), "Value for option '--runtime-cfg' (KEY=VALUE) "
                        + "should be in KEY=VALUE format but was ring_heap"),
                row("runtime_cfg malformed size", 2, cfg("ring_heap=lots"), "ring_heap=lots: size 'lots' is not a byte "
                        + "count; expected digits with an optional unit KiB, MiB, GiB or TiB"),
                row("runtime_cfg fractional size", 2, cfg("ring_heap=1.5MiB"), "size '1.5MiB' is not a byte count"),
                row("runtime_cfg malformed integer", 2, cfg("aicpu_thread_num=four"),
                        "aicpu_thread_num must be an integer: aicpu_thread_num=four"),
                row("runtime_cfg malformed boolean", 2, cfg("enable_dep_gen=maybe"),
                        "enable_dep_gen must be true/false (or 1/0): enable_dep_gen=maybe"),
                row("runtime_cfg boolean for a level", 2, cfg("enable_pmu=true"),
                        "enable_pmu must be an integer: enable_pmu=true"),
                row("runtime_cfg two values", 2, cfg("ring_heap=1MiB,2MiB"), "ring_heap takes one value or exactly 4 "
                        + "comma-separated values (one per ring, 0 = default): ring_heap=1MiB,2MiB has 2 values"),
                row("runtime_cfg five values", 2, cfg("ring_task_window=16,16,16,16,16"),
                        "ring_task_window takes one value or exactly 4", "has 5 values"),
                row("runtime_cfg task window not a power of two", 2, cfg("ring_task_window=1000"),
                        "ring_task_window for ring 0 must be a power of two in [4, 1073741824]", "ring_task_window[0]="
                                + "1000 (try 1024)"),
                row("runtime_cfg task window per ring not a power of two", 2, cfg("ring_task_window=0,0,96,0"),
                        "ring_task_window for ring 2 must be a power of two", "ring_task_window[2]=96 (try 128)"),
                row("runtime_cfg task window under the minimum", 2, cfg("ring_task_window=2"),
                        "ring_task_window[0]=2 (try 4)"),
                row("runtime_cfg heap under the minimum", 2, cfg("ring_heap=512"), "ring_heap for ring 0 must be at "
                        + "least 1024 bytes (0 = default 256MiB): ring_heap[0]=512 (try 1024 or more"),
                row("runtime_cfg dep pool under the minimum", 2, cfg("ring_dep_pool=0,3,0,0"),
                        "ring_dep_pool for ring 1 must be in [4, 2147483647]", "ring_dep_pool[1]=3 (try 4)"),
                row("runtime_cfg zero", 2, cfg("ring_heap=0"), "ring_heap must be positive: ring_heap=0 (omit ring_heap "
                        + "to keep the defaults"),
                row("runtime_cfg negative", 2, cfg("ring_heap=1MiB,-1,0,0"), "value 1: size '-1' is not a byte count"),
                row("runtime_cfg task window over the limit", 2, cfg("ring_task_window=4294967296"),
                        "ring_task_window[0]=4294967296 (try 1073741824)"),
                row("runtime_cfg task window over the simulator's limit", 2, cfg("ring_task_window=1073741824"),
                        "ring_task_window for ring 0 exceeds the simulator's limit of 4194304 preallocated slots: "
                                + "ring_task_window[0]=1073741824 (try 4194304 or less)"),
                row("runtime_cfg dep pool over the limit", 2, cfg("ring_dep_pool=2147483648"),
                        "ring_dep_pool[0]=2147483648 (try 2147483647)"),
                row("runtime_cfg dep pool over the simulator's limit", 2, cfg("ring_dep_pool=0,0,0,33554432"),
                        "ring_dep_pool for ring 3 exceeds the simulator's limit of 16777216 preallocated entries"),
                row("runtime_cfg heap sum over 64 bits", 2, cfg("ring_heap=4194304TiB"),
                        "ring_heap sum over the four rings overflows 64 bits"),
                row("runtime_cfg size over 64 bits", 2, cfg("ring_heap=99999999999TiB"),
                        "size '99999999999TiB' does not fit in 64 bits"),
                row("runtime_cfg too few threads", 2, cfg("aicpu_thread_num=1"), "aicpu_thread_num must be 0 (platform "
                        + "default) or >= 2 (one orchestrator plus at least one scheduler): aicpu_thread_num=1 (try 2)"),
                row("runtime_cfg too many threads", 2, cfg("aicpu_thread_num=65"),
                        "aicpu_thread_num must be <= 64 in the simulator: aicpu_thread_num=65"),
                row("runtime_cfg level out of range", 2, cfg("enable_chip_swimlane=9"),
                        "enable_chip_swimlane must be in [0, 4]: enable_chip_swimlane=9 (try 4)"),
                row("runtime_cfg os_env malformed", 2, cfg("os_env=FOO"),
                        "os_env takes NAME=value pairs separated by commas: os_env=FOO has 'FOO'"),
                row("runtime_cfg os_env unknown name", 2, cfg("os_env=FOO_TIMEOUT=1"),
                        "os_env FOO_TIMEOUT is not read by the simulated chip; accepted names: "
                                + "SIMPLER_SCHEDULER_TIMEOUT_MS, PTO2_TENSOR_DATA_TIMEOUT_MS (ring sizing is "
                                + "ring_task_window, ring_heap, ring_dep_pool)"),
                row("runtime_cfg os_env retired ring sizing", 2, cfg("os_env=PTO2_RING_HEAP=1"),
                        "os_env PTO2_RING_HEAP is retired and would not size any ring: set ring sizes with "
                                + "ring_task_window, ring_heap or ring_dep_pool (e.g. ring_heap=512MiB)"),
                row("runtime_cfg platform disagreeing with --platform", 2, cfg("platform=a5sim"),
                        "runtime_cfg platform=a5sim disagrees with the run's --platform a2a3sim"),
                row("runtime_cfg DFX without an output dir", 2, cfg("enable_dep_gen=1"),
                        "--runtime-cfg enable_dep_gen=1 writes files: give --output-dir DIR"),
                row("exec runtime_cfg unknown key", 2, tmp -> exec(workDir, inputs, tmp, "--runtime-cfg",
                        "ring_windows=4"), "jpto exec: runtime_cfg: unknown run config key 'ring_windows'"),

                // chip: device and platform
                row("run negative device", 2, run("-d", "-1"), "device must be >= 0: device=-1 (try 0)"),
                row("exec negative device", 2, tmp -> exec(workDir, inputs, tmp, "-d", "-3"),
                        "device_id must be >= 0: device_id=-3 (try 0)"),
                row("run hardware platform a2a3", 2, run("-p", "a2a3"),
                        "platform a2a3 is hardware: no device runtime in this build; use a2a3sim"),
                row("run hardware platform a5", 2, run("-p", "a5"),
                        "platform a5 is hardware: no device runtime in this build; use a5sim"),
                row("exec hardware platform", 2, tmp -> exec(workDir, inputs, tmp, "-p", "a5"),
                        "platform a5 is hardware: no device runtime in this build; use a5sim"),
                row("unknown platform", 2, run("-p", "a9sim"),
                        "Invalid value for option '--platform': unknown platform 'a9sim'; valid: a2a3sim, a5sim, a2a3, a5"),
                row("run DFX flag without an output dir", 2, run("--enable-dep-gen"),
                        "--enable-dep-gen writes files: give --output-dir DIR"),
                row("run negative bench rounds", 2, run("--bench", "-1"), "--bench must be >= 0 rounds: --bench -1"),
                new Row("runtime_cfg heap this host cannot map", new Case(cfg("ring_heap=4194304TiB,0,0,0"), 2,
                        true, List.of("ring_heap for ring 0 cannot be reserved on this host", "ring_heap[0]="
                                + (4194304L << 40) + " (use a smaller ring_heap"))));
        return rows.stream().map(Row::arguments);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void isRefusedWithAClearMessage(Case c, @TempDir Path tmp) throws IOException {
        ByteArrayOutputStream outBuf = new ByteArrayOutputStream();
        ByteArrayOutputStream errBuf = new ByteArrayOutputStream();
        String[] argv = c.setup().argv(tmp);
        int code = Main.run(new PrintStream(outBuf, true, StandardCharsets.UTF_8),
                new PrintStream(errBuf, true, StandardCharsets.UTF_8), argv);
        String out = outBuf.toString(StandardCharsets.UTF_8);
        String err = errBuf.toString(StandardCharsets.UTF_8);
        assertThat(code).as("exit code; stderr: %s", err).isEqualTo(c.exit());
        // one line naming the command (a work dir that does not verify lists its errors on the lines below)
        assertThat(err).as("the error names the command").startsWith("jpto " + argv[0] + ": ")
                .doesNotContain("\tat ", "internal error", "Exception");
        for (String fragment : c.messages()) {
            assertThat(err).contains(fragment);
        }
        assertThat(out).as("nothing passed on a silent default").doesNotContain("[RUN] PASS", "[RUN] wrote");
        if (!c.goldenMayRun()) {
            assertThat(out).as("refused before the golden").doesNotContain("[RUN] compute golden");
        }
        try (Stream<Path> left = Files.exists(tmp.resolve("out")) && Files.isDirectory(tmp.resolve("out"))
                ? Files.list(tmp.resolve("out")) : Stream.empty()) {
            assertThat(left.toList()).as("no outputs written").isEmpty();
        }
    }
}
