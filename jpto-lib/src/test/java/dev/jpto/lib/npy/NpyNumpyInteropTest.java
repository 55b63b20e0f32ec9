package dev.jpto.lib.npy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jpto.isa.DType;
import dev.jpto.isa.Tensor;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files jpto writes load in numpy with identical values: numpy recomputes every element from the same formula
 * and compares exactly. Skipped (not failed) when python3 with numpy is not installed.
 */
class NpyNumpyInteropTest {
    @TempDir
    Path dir;

    /** The same formulas as {@link #SCRIPT}; every float value is exact in fp16 and bf16. */
    static double value(DType dtype, long i) {
        return switch (dtype) {
            case FP32, FP16, BF16 -> (i - 7) * 0.8125;
            case INT8 -> (i * 37) % 251 - 125;
            case UINT8 -> (i * 37) % 256;
            case INT16 -> (i * 4099) % 65_521 - 32_760;
            case INT32 -> (i * 2_654_435_761L) % 4_294_967_291L - 2_147_483_645L;
            case INT64 -> 0; // set through storeLong: beyond double precision
            case BOOL -> i % 3 == 0 ? 1 : 0;
        };
    }

    static long int64Value(long i) {
        return (i - 3) * 300_000_000_000_000_001L;
    }

    private static final String SCRIPT = """
            import sys, numpy as np
            d = sys.argv[1]
            formulas = {
                'fp32': ('<f4', lambda i: (i - 7) * 0.8125),
                'fp16': ('<f2', lambda i: (i - 7) * 0.8125),
                'bf16': ('<f4', lambda i: (i - 7) * 0.8125),
                'int8': ('|i1', lambda i: (i * 37) % 251 - 125),
                'uint8': ('|u1', lambda i: (i * 37) % 256),
                'int16': ('<i2', lambda i: (i * 4099) % 65521 - 32760),
                'int32': ('<i4', lambda i: (i * 2654435761) % 4294967291 - 2147483645),
                'int64': ('<i8', lambda i: (i - 3) * 300000000000000001),
                'bool': ('|b1', lambda i: i % 3 == 0),
            }
            bad = 0
            for name, (descr, f) in formulas.items():
                a = np.load(f'{d}/{name}.npy', allow_pickle=False)
                expected = np.array([f(i) for i in range(24)], dtype=descr).reshape(2, 3, 4)
                if a.dtype.str != descr or a.shape != (2, 3, 4) or not np.array_equal(a, expected):
                    print(f'MISMATCH {name}: dtype={a.dtype.str} shape={a.shape} values={a.ravel().tolist()}')
                    bad += 1
                else:
                    print(f'ok {name}')
            s = np.load(f'{d}/scalar.npy')
            print('ok scalar' if s.shape == () and s.dtype.str == '<f4' and s == -1.5 else f'MISMATCH scalar {s!r}')
            bad += 0 if s.shape == () and s == -1.5 else 1
            t = np.load(f'{d}/transposed.npy')
            want = np.arange(12, dtype='<i4').reshape(3, 4).T
            print('ok transposed' if np.array_equal(t, want) else f'MISMATCH transposed {t!r}')
            bad += 0 if np.array_equal(t, want) else 1
            e = np.load(f'{d}/empty.npy')
            print('ok empty' if e.shape == (0, 5) else f'MISMATCH empty {e.shape}')
            bad += 0 if e.shape == (0, 5) else 1
            sys.exit(1 if bad else 0)
            """;

    @Test
    void numpyLoadsWhatJptoWrites() throws IOException, InterruptedException {
        assumeTrue(numpyAvailable(), "python3 with numpy is not installed; skipping the numpy interop check");
        try (Arena arena = Arena.ofConfined()) {
            for (DType dtype : DType.values()) {
                Tensor t = Tensor.allocate(arena, dtype, 2, 3, 4);
                for (long i = 0; i < 24; i++) {
                    if (dtype == DType.INT64) {
                        dtype.storeLong(t.buffer(), t.byteOffsetOfFlat(i), int64Value(i));
                    } else {
                        t.setDouble(i, value(dtype, i));
                    }
                }
                Npy.write(dir.resolve(dtype.text() + ".npy"), t);
            }
            Tensor scalar = Tensor.allocate(arena, DType.FP32);
            scalar.setDouble(0, -1.5);
            Npy.write(dir.resolve("scalar.npy"), scalar);
            Tensor m = Tensor.allocate(arena, DType.INT32, 3, 4);
            for (long i = 0; i < 12; i++) {
                m.setDouble(i, i);
            }
            Npy.write(dir.resolve("transposed.npy"),
                    Tensor.of(m.buffer(), DType.INT32, new long[] {4, 3}, new long[] {1, 4}, 0));
            Npy.write(dir.resolve("empty.npy"), Tensor.allocate(arena, DType.FP32, 0, 5));
        }
        Process p = new ProcessBuilder("python3", "-c", SCRIPT, dir.toString()).redirectErrorStream(true).start();
        String out;
        try (var in = p.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("python3 finished").isTrue();
        assertThat(out).doesNotContain("MISMATCH").contains("ok bf16", "ok int64", "ok bool", "ok transposed");
        assertThat(p.exitValue()).as(out).isZero();
    }

    static boolean numpyAvailable() {
        try {
            Process p = new ProcessBuilder("python3", "-c", "import numpy").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return false;
            }
            return p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
