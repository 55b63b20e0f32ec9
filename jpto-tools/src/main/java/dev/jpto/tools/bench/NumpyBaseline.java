package dev.jpto.tools.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The {@code --baseline numpy} figure of {@code jpto bench matmul}: numpy's {@code float32} matmul of the same
 * {@code size³} shape, timed in a python subprocess by CPU time of its thread (as jpto's figure is).
 *
 * <p>OpenBLAS picks its kernel from the CPU unless the environment forces one: {@code OPENBLAS_CORETYPE} (and
 * {@code OPENBLAS_L2_SIZE}) are removed so it uses its AVX-512 kernel where the CPU has one, and 1 thread is
 * requested from every BLAS library numpy may be built with, so both sides use one core. The subprocess's
 * output goes to a temporary file, so the wait is bounded by {@link #timeout} even if python hangs.
 */
public final class NumpyBaseline {
    /** Marks the one line of the script's output this class reads. */
    static final String TAG = "jpto-numpy";

    /** Measures {@code a @ b} for float32 size × size; its argv: size, warm-ups, runs. */
    static final String SCRIPT = """
            import sys, time
            try:
                import numpy as np
            except ImportError as e:
                print("%1$s missing " + str(e))
                sys.exit(0)
            n, warmups, runs = (int(x) for x in sys.argv[1:4])
            rng = np.random.default_rng(42)
            a = rng.random((n, n), dtype=np.float32) * 2 - 1
            b = rng.random((n, n), dtype=np.float32) * 2 - 1
            c = np.empty((n, n), dtype=np.float32)
            for _ in range(warmups):
                np.matmul(a, b, out=c)
            cpu, wall = [], []
            for _ in range(runs):
                t0, w0 = time.thread_time(), time.perf_counter()
                np.matmul(a, b, out=c)
                cpu.append(time.thread_time() - t0)
                wall.append(time.perf_counter() - w0)
            core = "unknown"
            try:
                import ctypes
                for path in {l.split()[-1] for l in open("/proc/self/maps") if "openblas" in l.lower()}:
                    lib = ctypes.CDLL(path)
                    for name in ("scipy_openblas_get_corename64_", "openblas_get_corename64_",
                                 "openblas_get_corename"):
                        f = getattr(lib, name, None)
                        if f is not None:
                            f.restype = ctypes.c_char_p
                            core = "OpenBLAS-" + f().decode()
            except Exception:
                pass
            wall.sort()
            print("%1$s numpy=%%s core=%%s best_cpu=%%.9f best_wall=%%.9f median_wall=%%.9f"
                  %% (np.__version__, core, min(cpu), wall[0], wall[len(wall) // 2]))
            """.formatted(TAG);

    /** What the baseline run gave. */
    public sealed interface Outcome permits Measured, Unavailable {
    }

    /**
     * numpy's timings of one {@code size³} matmul: best CPU seconds of its thread, best and median wall clock.
     *
     * @param core the BLAS kernel OpenBLAS chose ({@code OpenBLAS-SkylakeX}), or {@code unknown}
     */
    public record Measured(String numpyVersion, String core, int size, double bestCpuSeconds, double bestSeconds,
                           double medianSeconds) implements Outcome {
        /** GFLOP/s of the best run by CPU time, as jpto's figure. */
        public double gflops() {
            return 2.0 * size * size * size / bestCpuSeconds / 1e9;
        }
    }

    /** Why there is no numpy figure (python3 or numpy missing, the run failed or timed out). */
    public record Unavailable(String reason) implements Outcome {
    }

    private final List<String> python;
    private final Duration timeout;

    /**
     * @param python  the interpreter's command (e.g. {@code python3}), found on the PATH
     * @param timeout the longest the subprocess may run; it is killed after that
     */
    public NumpyBaseline(String python, Duration timeout) {
        this.python = List.of(python);
        this.timeout = timeout;
    }

    /** A timeout for {@code runs + warmups} products of size³ at a pessimistic 1 GFLOP/s, plus a minute to start. */
    public static Duration timeoutFor(int size, int warmups, int runs) {
        double seconds = 2.0 * size * size * size * (warmups + runs) / 1e9;
        return Duration.ofSeconds(60 + (long) Math.ceil(seconds));
    }

    /** Runs numpy on {@code size³}; never throws for a missing or failing python, it says why instead. */
    public Outcome run(int size, int warmups, int runs) {
        Path log = null;
        Process p = null;
        try {
            log = Files.createTempFile("jpto-numpy-", ".txt");
            ProcessBuilder pb = new ProcessBuilder(python.getFirst(), "-c", SCRIPT, Integer.toString(size),
                    Integer.toString(warmups), Integer.toString(runs));
            Map<String, String> env = pb.environment();
            env.remove("OPENBLAS_CORETYPE");
            env.remove("OPENBLAS_L2_SIZE");
            for (String threads : List.of("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")) {
                env.put(threads, "1");
            }
            pb.redirectErrorStream(true).redirectOutput(log.toFile());
            try {
                p = pb.start();
                p.getOutputStream().close(); // it reads nothing
            } catch (IOException e) {
                return new Unavailable(python.getFirst() + " could not be started (" + e.getMessage()
                        + "); install python3 with numpy or pass --python");
            }
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                return new Unavailable("numpy did not finish within " + timeout.toSeconds() + " s; killed");
            }
            String output = Files.readString(log, StandardCharsets.UTF_8);
            return parse(output, p.exitValue(), size);
        } catch (IOException e) {
            return new Unavailable("numpy's output could not be read: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Unavailable("interrupted while numpy ran");
        } finally {
            if (p != null) {
                p.destroyForcibly();
            }
            if (log != null) {
                try {
                    Files.deleteIfExists(log);
                } catch (IOException ignored) {
                    // a leftover temp file is harmless; the figures are already read
                }
            }
        }
    }

    /** Reads the script's output: its {@link #TAG} line, or why it has none. */
    static Outcome parse(String output, int exitCode, int size) {
        String line = output.lines().filter(l -> l.startsWith(TAG + " ")).reduce((x, y) -> y).orElse(null);
        if (line == null) {
            String last = output.lines().filter(l -> !l.isBlank()).reduce((x, y) -> y).orElse("no output");
            return new Unavailable("python exited with " + exitCode + " and no figures: " + last.strip());
        }
        String missing = TAG + " missing ";
        if (line.startsWith(missing)) {
            return new Unavailable("numpy is not installed for this python (" + line.substring(missing.length()).strip()
                    + ")");
        }
        Map<String, String> fields = new HashMap<>();
        for (String field : line.substring(TAG.length()).trim().split(" ")) {
            int eq = field.indexOf('=');
            if (eq > 0) {
                fields.put(field.substring(0, eq), field.substring(eq + 1));
            }
        }
        try {
            double cpu = Double.parseDouble(fields.get("best_cpu"));
            double wall = Double.parseDouble(fields.get("best_wall"));
            double median = Double.parseDouble(fields.get("median_wall"));
            if (!(cpu > 0) || !(wall > 0) || !(median > 0)) {
                return new Unavailable("numpy's timings are not positive: " + line);
            }
            return new Measured(fields.getOrDefault("numpy", "?"), fields.getOrDefault("core", "unknown"), size,
                    cpu, wall, median);
        } catch (NumberFormatException | NullPointerException e) {
            return new Unavailable("numpy's output line is not understood: " + line);
        }
    }

    /** The report lines for {@code jpto bench matmul}: numpy's figure and jpto's ratio to it. */
    public static List<String> lines(Outcome outcome, String dtype, double jptoRate, String unit) {
        return switch (outcome) {
            case Unavailable u -> List.of("  numpy   no baseline: " + u.reason());
            case Measured m -> List.of(
                    String.format(Locale.ROOT, "  numpy   %8.2f GFLOP/s  numpy %s float32 matmul %dx%dx%d (%s, 1 thread)"
                            + "%s, best by CPU time: %.2f ms; wall clock best %.2f ms, median %.2f ms",
                            m.gflops(), m.numpyVersion(), m.size(), m.size(), m.size(), m.core(),
                            dtype.equals("fp32") ? "" : ": numpy has no " + dtype + " matmul kernel, so its fp32 one",
                            m.bestCpuSeconds() * 1e3, m.bestSeconds() * 1e3, m.medianSeconds() * 1e3),
                    String.format(Locale.ROOT, "  vs numpy %s  jpto vector %s / numpy GFLOP/s, by CPU time, same run",
                            Ratios.text(jptoRate / m.gflops()), unit));
        };
    }
}
