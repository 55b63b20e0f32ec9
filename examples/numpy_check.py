#!/usr/bin/env python3
"""An independent check of the examples: recompute each one's outputs with numpy and compare with jpto's.

    ./jpto run examples/LayerNorm.java --output-dir out --save-tensors
    python3 examples/numpy_check.py layer_norm out [--preset tiny]

DIR is a `jpto run --output-dir DIR --save-tensors` directory: the inputs are read from DIR/inputs/*.npy and
jpto's results from DIR/outputs/*.npy (bf16 tensors are saved as float32, holding the exact bf16 values). The
reference is computed here in float64 from the inputs, written from the math and not from the Java golden.
Exit 0 when every output matches within the stated tolerance, 1 when one does not, 2 on bad usage or input.
"""
import argparse
import math
import pathlib
import sys

import numpy as np

# What the arrays cannot tell: per example and preset, the output dtype, the activation, the first position.
PRESETS = {
    "relu_dense": {"tiny": {}, "demo": {}},
    "layer_norm": {"tiny": {"bf16": False}, "demo": {"bf16": True}},
    "rope": {"tiny": {"bf16": False, "start": 5}, "demo": {"bf16": True, "start": 1000}},
    "gemm_epilogue": {"tiny": {"act": "gelu"}, "tiny_silu": {"act": "silu"}, "demo": {"act": "silu"}},
    "multi_projection": {"tiny": {}, "demo": {}},
    "topk": {"tiny": {}, "demo": {}},
    "paged_attention": {"tiny": {}, "demo": {}},
    "mixed_matmul": {"tiny": {}, "demo": {}},
}

# fp32 results: a few fp32 roundings per element, far inside 1e-4 relative (1e-5 for the short RoPE formula).
# bf16 results: the fp32 value rounded to bf16, at most half a bf16 ulp (2^-8 relative) from it; 2^-7 leaves room
# for the fp32 part, and the 1e-5 floor for outputs near zero.
FP32_TOL = (1e-4, 1e-5)
BF16_TOL = (2.0 ** -7, 1e-5)


class BadInput(Exception):
    """A missing or malformed file in DIR."""


def load(directory, kind, name):
    path = directory / kind / (name + ".npy")
    if not path.is_file():
        raise BadInput(f"{path}: missing (was the run made with --output-dir {directory} --save-tensors?)")
    try:
        return np.load(path, allow_pickle=False)
    except ValueError as e:
        raise BadInput(f"{path}: not a readable .npy file: {e}") from e


def compare(name, actual, expected, rtol, atol):
    """numpy's allclose rule, reported: returns True when every element is within atol + rtol*|expected|."""
    if actual.shape != expected.shape:
        print(f"{name}: MISMATCH shape {list(actual.shape)}, expected {list(expected.shape)}")
        return False
    diff = np.abs(actual.astype(np.float64) - expected)
    bad = diff > atol + rtol * np.abs(expected)
    worst = float(diff.max()) if diff.size else 0.0
    if bad.any():
        first = tuple(int(i) for i in np.argwhere(bad)[0])
        print(f"{name}: MISMATCH {int(bad.sum())}/{diff.size} elements outside atol={atol} + rtol={rtol}*|expected|,"
              f" first at {list(first)}: jpto {float(actual[first])}, numpy {float(expected[first])}")
        return False
    print(f"{name}: OK {diff.size} elements within atol={atol} + rtol={rtol}*|expected| (max_abs={worst:.3g})")
    return True


def relu_dense(d, preset):
    x = load(d, "inputs", "x").astype(np.float64)
    w = load(d, "inputs", "w").astype(np.float64)
    b = load(d, "inputs", "b").astype(np.float64)
    return compare("y", load(d, "outputs", "y"), np.maximum(x @ w + b, 0), 1e-4, 1e-4)


def mixed_matmul(d, preset):
    """The same math as relu_dense, computed by one mixed task (cube lane matmul, vector lanes bias + ReLU)."""
    return relu_dense(d, preset)


def layer_norm(d, preset):
    x = load(d, "inputs", "x").astype(np.float64)
    gamma = load(d, "inputs", "gamma").astype(np.float64)
    beta = load(d, "inputs", "beta").astype(np.float64)
    mean = x.mean(axis=1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
    y = (x - mean) / np.sqrt(var + 1e-5) * gamma + beta
    return compare("y", load(d, "outputs", "y"), y, *(BF16_TOL if preset["bf16"] else FP32_TOL))


def rope(d, preset):
    q = load(d, "inputs", "q").astype(np.float64)
    cos = load(d, "inputs", "cos").astype(np.float64)
    sin = load(d, "inputs", "sin").astype(np.float64)
    seq, dim = cos.shape
    half = dim // 2
    # the tables themselves: angle (start + s)·10000^(−2i/d), the second half repeating the first
    theta = 10000.0 ** (-2.0 * (np.arange(dim) % half) / dim)
    angle = (preset["start"] + np.arange(seq))[:, None] * theta[None, :]
    ok = compare("cos table", cos.astype(np.float32), np.cos(angle), 0, 2.0 ** -24)
    ok = compare("sin table", sin.astype(np.float32), np.sin(angle), 0, 2.0 ** -24) and ok
    lo, hi = q[..., :half], q[..., half:]
    y = np.concatenate([lo * cos[:, :half] - hi * sin[:, :half], hi * cos[:, half:] + lo * sin[:, half:]], axis=-1)
    rtol, atol = BF16_TOL if preset["bf16"] else (1e-5, 1e-6)
    return compare("q_rot", load(d, "outputs", "q_rot"), y, rtol, atol) and ok


def gemm_epilogue(d, preset):
    a = load(d, "inputs", "a").astype(np.float64)
    b = load(d, "inputs", "b").astype(np.float64)
    bias = load(d, "inputs", "bias").astype(np.float64)
    z = a @ b + bias
    if preset["act"] == "gelu":
        c = 0.5 * z * (1 + np.tanh(math.sqrt(2 / math.pi) * (z + 0.044715 * z ** 3)))
    else:
        c = z / (1 + np.exp(-z))
    return compare("c", load(d, "outputs", "c"), c, 1e-4, 1e-4)


def multi_projection(d, preset):
    x = load(d, "inputs", "x").astype(np.float64)
    ok = True
    for name in ("q", "k", "v"):
        w = load(d, "inputs", "w" + name).astype(np.float64)
        ok = compare(name, load(d, "outputs", name), x @ w, 1e-4, 1e-5) and ok
    return ok


def topk(d, preset):
    scores = load(d, "inputs", "scores")
    values = load(d, "outputs", "values")
    indices = load(d, "outputs", "indices")
    k = values.shape[1]
    # the values are exactly the k largest scores, in descending order
    ok = compare("values", values, -np.sort(-scores.astype(np.float64), axis=1)[:, :k], 0, 0)
    # any tie-break is legal: each index must be a distinct column whose score is the value beside it
    rows = np.arange(scores.shape[0])[:, None]
    in_range = (indices >= 0) & (indices < scores.shape[1])
    picked = scores[rows, np.clip(indices, 0, scores.shape[1] - 1)]
    distinct = np.array([len(set(r)) == k for r in indices.tolist()])
    bad = ~in_range | (picked != values) | ~distinct[:, None]
    if bad.any():
        first = [int(i) for i in np.argwhere(bad)[0]]
        print(f"indices: MISMATCH {int(bad.sum())}/{bad.size} positions out of range, repeated or not pointing at"
              f" their value, first at {first}")
        return False
    print(f"indices: OK {bad.size} positions are distinct columns holding their values")
    return ok


def paged_attention(d, preset):
    q = load(d, "inputs", "q").astype(np.float64)
    k_cache = load(d, "inputs", "k_cache").astype(np.float64)
    v_cache = load(d, "inputs", "v_cache").astype(np.float64)
    table = load(d, "inputs", "block_table")
    lens = load(d, "inputs", "context_lens")
    block_size, head_dim = k_cache.shape[1], k_cache.shape[2]
    out = np.zeros(q.shape)
    for b, n in enumerate(lens.tolist()):
        blocks = table[b, : (n + block_size - 1) // block_size]
        keys = k_cache[blocks].reshape(-1, head_dim)[:n]
        vals = v_cache[blocks].reshape(-1, head_dim)[:n]
        s = q[b] @ keys.T / math.sqrt(head_dim)
        p = np.exp(s - s.max(axis=1, keepdims=True))
        out[b] = (p / p.sum(axis=1, keepdims=True)) @ vals
    return compare("out", load(d, "outputs", "out"), out, 1e-4, 1e-5)


CHECKS = {f.__name__: f for f in (relu_dense, layer_norm, rope, gemm_epilogue, multi_projection, topk,
                                  paged_attention, mixed_matmul)}


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("name", help="one of: " + ", ".join(CHECKS))
    parser.add_argument("dir", type=pathlib.Path, help="a jpto run --output-dir DIR --save-tensors directory")
    parser.add_argument("--preset", default="tiny", help="the preset the run used (default: tiny)")
    args = parser.parse_args(argv)
    if args.name not in CHECKS:
        print(f"numpy_check: NAME '{args.name}' is not an example; use one of: {', '.join(CHECKS)}", file=sys.stderr)
        return 2
    if args.preset not in PRESETS[args.name]:
        print(f"numpy_check: --preset '{args.preset}' is not a preset of {args.name}; use one of: "
              f"{', '.join(PRESETS[args.name])}", file=sys.stderr)
        return 2
    try:
        return 0 if CHECKS[args.name](args.dir, PRESETS[args.name][args.preset]) else 1
    except BadInput as e:
        print(f"numpy_check: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
