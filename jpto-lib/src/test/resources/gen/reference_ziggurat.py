#!/usr/bin/env python3
"""Independent Python implementation of dev.jpto.lib.gen.Ziggurat (Marsaglia-Tsang 2000, 128 layers, layer from
the low 7 bits and value from the high 32 bits of one SplitMix64 nextLong).

Prints the sum of the first 100000 normals of stream(42, "z") and a few leading values, which ZigguratTest pins
(within a few ulps: Python's libm need not be fdlibm, so the table entries may differ in the last bit).
Run: python3 reference_ziggurat.py
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference_streams import stream  # noqa: E402  (prints its own reference lines first)

R = 3.442619855899
V = 9.91256303526217e-3
M1 = 2147483648.0
K = [0] * 128
W = [0.0] * 128
F = [0.0] * 128
dn = R
tn = dn
q = V / math.exp(-0.5 * dn * dn)
K[0] = int((dn / q) * M1)
W[0] = q / M1
W[127] = dn / M1
F[0] = 1.0
F[127] = math.exp(-0.5 * dn * dn)
for i in range(126, 0, -1):
    dn = math.sqrt(-2 * math.log(V / dn + math.exp(-0.5 * dn * dn)))
    K[i + 1] = int((dn / tn) * M1)
    tn = dn
    F[i] = math.exp(-0.5 * dn * dn)
    W[i] = dn / M1


def draw(s):
    b = s.next_long()
    i = b & 127
    h = b >> 32
    if h >= 1 << 31:
        h -= 1 << 32
    return i, h


def normal(s):
    i, h = draw(s)
    while True:
        if abs(h) < K[i]:
            return h * W[i]
        x = h * W[i]
        if i == 0:
            while True:
                x = -math.log(s.next_double_open_closed()) / R
                y = -math.log(s.next_double_open_closed())
                if not (y + y < x * x):
                    break
            return R + x if h > 0 else -R - x
        if F[i] + s.next_double() * (F[i - 1] - F[i]) < math.exp(-0.5 * x * x):
            return x
        i, h = draw(s)


s = stream(42, "z")
vals = [normal(s) for _ in range(100000)]
print("ziggurat seed 42 'z' first:", [repr(v) for v in vals[:6]])
print("ziggurat seed 42 'z' sum of 100000:", repr(math.fsum(vals)), "sum of squares:",
      repr(math.fsum(v * v for v in vals)))
