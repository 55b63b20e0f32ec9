#!/usr/bin/env python3
"""Independent Python implementation of jpto's documented generator algorithms (dev.jpto.lib.gen).

Prints the reference values GeneratorsTest pins, so a change in the Java code (or a platform difference)
that alters generated data is caught.  Run: python3 reference_streams.py
"""
import math

M = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15


def mix64(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
    return z ^ (z >> 31)


def fnv1a64(name):
    h = 0xCBF29CE484222325
    for b in name.encode("utf-8"):
        h = ((h ^ b) * 0x100000001B3) & M
    return h


class SplitMix64:
    def __init__(self, state):
        self.state = state & M

    def next_long(self):
        self.state = (self.state + GAMMA) & M
        return mix64(self.state)

    def next_double(self):           # [0, 1)
        return (self.next_long() >> 11) * 2.0**-53

    def next_double_open_closed(self):  # (0, 1]
        return ((self.next_long() >> 11) + 1) * 2.0**-53

    def next_bounded(self, bound):   # Lemire's multiply-shift with rejection, bound as unsigned 64-bit
        x = self.next_long()
        m = x * bound
        low = m & M
        if low < bound:
            t = ((1 << 64) - bound) % bound
            while low < t:
                x = self.next_long()
                m = x * bound
                low = m & M
        return m >> 64


def stream(seed, name):
    return SplitMix64(mix64((seed & M) ^ mix64(fnv1a64(name))))


def signed(v):
    return v - (1 << 64) if v >= 1 << 63 else v


print("splitmix64(0) first:", [hex(x) for x in [SplitMix64(0).next_long()]])
print("fnv1a64('q')=", hex(fnv1a64("q")), "fnv1a64('')=", hex(fnv1a64("")))
s = stream(42, "q")
print("stream(42,'q') longs:", [signed(s.next_long()) for _ in range(3)])
s = stream(42, "x")
print("uniform(-1,2) seed 42 'x':", [repr(-1 + 3 * s.next_double()) for _ in range(4)])
s = stream(7, "w")
vals = []
for _ in range(2):
    u1 = s.next_double_open_closed()
    u2 = s.next_double()
    r = math.sqrt(-2.0 * math.log(u1))
    vals += [0.5 + 2.0 * r * math.cos(2 * math.pi * u2), 0.5 + 2.0 * r * math.sin(2 * math.pi * u2)]
print("normal(0.5,2) seed 7 'w':", [repr(v) for v in vals])
s = stream(3, "ids")
print("integers[-5,1000) seed 3 'ids':", [-5 + s.next_bounded(1005) for _ in range(6)])
