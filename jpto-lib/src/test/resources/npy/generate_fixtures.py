#!/usr/bin/env python3
"""Writes the .npy fixtures that jpto's NpyReadTest reads (run from this directory).

Every file is produced by numpy itself (np.save or np.lib.format.write_array), so the
Java reader is tested against the real format, not against its own writer.  Values are
chosen by formula so the Java test can recompute them independently:

    value(i) = VALUES[dtype](i) for the flat C-order index i (see the table below).

Re-run with: python3 generate_fixtures.py   (numpy 2.x; the files are committed)
"""
import numpy as np

# Flat-index formulas; the Java test holds the same table.
def f_float(i):
    return (i - 5) * 0.375          # exact in f2, f4, f8


def f_f8(i):
    return (i - 5) * 0.1            # not exact in f4: exercises f8 -> f4 rounding


def f_int(i):
    return (i * 37) % 251 - 125     # fits i1


def f_u1(i):
    return (i * 37) % 256


def f_bool(i):
    return i % 3 == 0


def f_i8(i):
    return (i - 3) * 3_000_000_000_000_000_007  # beyond 2^53: must be copied exactly, not via double


def arr(fn, dtype, shape):
    n = int(np.prod(shape, dtype=np.int64))
    return np.array([fn(i) for i in range(n)], dtype=dtype).reshape(shape)


def save(name, a):
    np.save(name, a)


SHAPE3 = (2, 3, 4)

save("f4_3d.npy", arr(f_float, "<f4", SHAPE3))
save("f2_3d.npy", arr(f_float, "<f2", SHAPE3))
save("f8_3d.npy", arr(f_f8, "<f8", SHAPE3))
save("i1_3d.npy", arr(f_int, "i1", SHAPE3))
save("i2_3d.npy", arr(f_int, "<i2", SHAPE3))
save("i4_3d.npy", arr(f_int, "<i4", SHAPE3))
save("i8_1d.npy", arr(f_i8, "<i8", (7,)))
save("u1_3d.npy", arr(f_u1, "u1", SHAPE3))
save("b1_3d.npy", arr(f_bool, "?", SHAPE3))

save("f4_0d.npy", np.array(2.5, dtype="<f4"))
save("f4_1d.npy", arr(f_float, "<f4", (11,)))
save("f4_empty.npy", np.zeros((0, 3), dtype="<f4"))
# A bf16-looking value: f4 that is not exactly representable in bf16 (tie and non-tie cases).
save("f4_bf16_round.npy", np.array([1.0 + 2.0**-8, 1.0 + 3 * 2.0**-8, 1.0 + 2.0**-8 + 2.0**-20, -3.0],
                                   dtype="<f4"))

with open("f4_v2.npy", "wb") as fp:
    np.lib.format.write_array(fp, arr(f_float, "<f4", (3, 5)), version=(2, 0))

save("f4_bigendian.npy", arr(f_float, ">f4", (2, 2)))
save("f4_fortran.npy", np.asfortranarray(arr(f_float, "<f4", (2, 3))))
save("c8_unsupported.npy", np.zeros((2,), dtype="<c8"))
