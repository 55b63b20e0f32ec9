"""Layer norm as a hand-made work dir, checked by jpto exec against a numpy golden.

    python3 layernorm.py OUT_DIR          writes OUT_DIR/workdir, OUT_DIR/inputs, OUT_DIR/golden
    jpto exec OUT_DIR/workdir --inputs OUT_DIR/inputs --outputs OUT_DIR/outputs --golden OUT_DIR/golden \\
        --compare y='allclose(1e-4, 1e-5)'

y = (x - mean(x)) / sqrt(var(x) + eps) * gamma + beta per row; fp32; one vector task per block of 16 rows.
"""
import sys

import numpy as np

from jpto_workdir import Kernel, Program, save

ROWS, COLS, BLOCK, EPS = 128, 256, 16, 1e-5


def kernel():
    k = Kernel("layer_norm_rows")
    x = k.tensor("x", "fp32", 2, "read")
    gamma = k.tensor("gamma", "fp32", 2, "read")
    beta = k.tensor("beta", "fp32", 2, "read")
    y = k.tensor("y", "fp32", 2, "write")
    t, d, g, b, r = (k.tile("t", "fp32", BLOCK, COLS), k.tile("d", "fp32", BLOCK, COLS), k.tile("g", "fp32", 1, COLS),
                     k.tile("b", "fp32", 1, COLS), k.tile("r", "fp32", BLOCK, 1))
    k.op("load", t, f"{x}[0, 0]", BLOCK, COLS)
    k.op("load", g, f"{gamma}[0, 0]", 1, COLS)
    k.op("load", b, f"{beta}[0, 0]", 1, COLS)
    k.op("sum_rows", r, t)                 # r = sum(x)
    k.op("muls", r, r, 1.0 / COLS)         # r = mean
    k.op("sub_rb", t, t, r)                # t = x - mean
    k.op("mul", d, t, t)                   # d = (x - mean)^2
    k.op("sum_rows", r, d)
    k.op("muls", r, r, 1.0 / COLS)         # r = var
    k.op("adds", r, r, EPS)
    k.op("rsqrt", r, r)                    # r = 1/sqrt(var + eps)
    k.op("mul_rb", t, t, r)
    k.op("mul_cb", t, t, g)
    k.op("add_cb", t, t, b)
    k.op("store", t, f"{y}[0, 0]")
    return k


def program():
    p = Program("layer_norm")
    x = p.input("x", "fp32", [ROWS, COLS])
    gamma = p.input("gamma", "fp32", [1, COLS])
    beta = p.input("beta", "fp32", [1, COLS])
    y = p.output("y", "fp32", [ROWS, COLS])
    k = kernel()
    with p.loop("i", 0, ROWS // BLOCK) as i:
        p.submit(k, "aiv", p.arg_input(p.slice(x, [f"{BLOCK}*{i}", 0], [BLOCK, COLS])), p.arg_input(gamma),
                 p.arg_input(beta), p.arg_output_existing(p.slice(y, [f"{BLOCK}*{i}", 0], [BLOCK, COLS])))
    return p


def main(out):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((ROWS, COLS), dtype=np.float32) * 3 + 1
    gamma = rng.uniform(0.5, 1.5, (1, COLS)).astype(np.float32)
    beta = rng.uniform(-0.5, 0.5, (1, COLS)).astype(np.float32)
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=1, keepdims=True)
    var = ((x64 - mean) ** 2).mean(axis=1, keepdims=True)
    y = ((x64 - mean) / np.sqrt(var + EPS) * gamma + beta).astype(np.float32)
    program().write(f"{out}/workdir")
    save(f"{out}/inputs", x=x, gamma=gamma, beta=beta)
    save(f"{out}/golden", y=y)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python3 layernorm.py OUT_DIR")
    main(sys.argv[1])
