"""Write jpto work dirs from Python (numpy only).

A work dir is plain data: manifest.json, orchestration.json and one kernel text file per kernel (see
docs/workdir-format.md and docs/isa-reference.md in the jpto repository). This module builds the three with
small helpers and writes them; `jpto exec WORKDIR --inputs IN --outputs OUT --golden GOLDEN` runs the result.

    k = Kernel("scale_rows")
    x = k.tensor("x", "fp32", 2, "read"); y = k.tensor("y", "fp32", 2, "write")
    t = k.tile("t", "fp32", 16, 256)
    k.op("load", t, f"{x}[0, 0]", 16, 256); k.op("muls", t, t, 2.0); k.op("store", t, f"{y}[0, 0]")
    p = Program("scale"); xs = p.input("x", "fp32", [64, 256]); ys = p.output("y", "fp32", [64, 256])
    with p.loop("i", 0, 4) as i:
        p.submit(k, "aiv", p.arg_input(p.slice(xs, [f"16*{i}", 0], [16, 256])),
                 p.arg_output_existing(p.slice(ys, [f"16*{i}", 0], [16, 256])))
    p.write("/tmp/scale")
"""
import contextlib
import json
import os
import re

import numpy as np

IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
DTYPES = ("fp32", "fp16", "bf16", "int8", "uint8", "int16", "int32", "int64", "bool")


def _identifier(name, what):
    if not IDENTIFIER.match(name):
        raise ValueError(f"{what} '{name}' is not an identifier [A-Za-z_][A-Za-z0-9_]*")
    return name


def _dtype(dtype):
    if dtype not in DTYPES:
        raise ValueError(f"dtype '{dtype}' is not one of {', '.join(DTYPES)}")
    return dtype


class Kernel:
    """One kernel in the kernel text format: declarations, then one op per line (loops indent their body)."""

    def __init__(self, name):
        self.name = _identifier(name, "kernel name")
        self._decls = []
        self._ops = []
        self._indent = ""

    def tensor(self, name, dtype, rank, access):
        if access not in ("read", "write", "read_write"):
            raise ValueError(f"tensor '{name}': access must be read, write or read_write, got '{access}'")
        self._decls.append(f"tensor {_identifier(name, 'tensor')}: {_dtype(dtype)} rank {int(rank)} {access}")
        return name

    def scalar(self, name):
        self._decls.append(f"scalar {_identifier(name, 'scalar')}")
        return name

    def tile(self, name, dtype, rows, cols):
        self._decls.append(f"tile {_identifier(name, 'tile')}: {_dtype(dtype)}[{int(rows)}x{int(cols)}]")
        return name

    def op(self, mnemonic, *operands):
        """One op line, e.g. op("add", dst, a, b); operands are names, numbers or 'T[IDX, ...]' strings."""
        text = ", ".join(repr(float(o)) if isinstance(o, float) else str(o) for o in operands)
        self._ops.append(f"{self._indent}{mnemonic} {text}")

    @contextlib.contextmanager
    def loop(self, var, start, end, step=1):
        """A loop over the ops added inside the with-block; declares var as a loop variable."""
        self._decls.append(f"var {_identifier(var, 'loop variable')}")
        self._ops.append(f"{self._indent}loop {var} from {start} to {end} step {int(step)}:")
        self._indent += "  "
        try:
            yield var
        finally:
            self._indent = self._indent[:-2]

    def text(self):
        return "\n".join([f"kernel {self.name}", *self._decls, "", *self._ops]) + "\n"


class Program:
    """The manifest and the orchestration of one chip program."""

    def __init__(self, name):
        self.name = _identifier(name, "program name")
        self.inputs, self.outputs, self.kernels = [], [], {}
        self._body = [[]]

    def _decl(self, name, dtype, shape):
        return {"name": _identifier(name, "tensor"), "dtype": _dtype(dtype), "shape": [int(s) for s in shape]}

    def input(self, name, dtype, shape):
        self.inputs.append(self._decl(name, dtype, shape))
        return name

    def output(self, name, dtype, shape):
        self.outputs.append(self._decl(name, dtype, shape))
        return name

    # tensors and arguments
    @staticmethod
    def slice(tensor, starts, extents):
        return {"slice": tensor, "starts": [str(s) for s in starts], "extents": [int(e) for e in extents]}

    @staticmethod
    def arg_input(t):
        return {"input": t}

    @staticmethod
    def arg_output(t):
        return {"output": t}

    @staticmethod
    def arg_output_existing(t):
        return {"output_existing": t}

    @staticmethod
    def arg_inout(t):
        return {"inout": t}

    @staticmethod
    def arg_index(expr):
        return {"index": str(expr)}

    @staticmethod
    def arg_float(value):
        return {"float": float(value)}

    # statements
    def alloc(self, name, dtype, shape):
        self._body[-1].append({"alloc": _identifier(name, "intermediate"), "dtype": _dtype(dtype),
                               "shape": [int(s) for s in shape]})
        return name

    def submit(self, kernel, core, *args):
        if core not in ("aic", "aiv"):
            raise ValueError(f"core must be aic (cube) or aiv (vector), got '{core}'")
        self.kernels[kernel.name] = kernel
        self._body[-1].append({"submit": kernel.name, "core": core, "args": list(args)})

    @contextlib.contextmanager
    def loop(self, var, start, end, step=1):
        self._body.append([])
        try:
            yield _identifier(var, "loop variable")
        finally:
            body = self._body.pop()
            self._body[-1].append({"for": var, "start": str(start), "end": str(end), "step": int(step),
                                   "body": body})

    @contextlib.contextmanager
    def scope(self):
        self._body.append([])
        try:
            yield
        finally:
            body = self._body.pop()
            self._body[-1].append({"scope": body})

    def write(self, workdir):
        """Writes manifest.json, orchestration.json and kernels/NAME.pto under workdir (created if missing)."""
        os.makedirs(os.path.join(workdir, "kernels"), exist_ok=True)
        for k in self.kernels.values():
            with open(os.path.join(workdir, "kernels", k.name + ".pto"), "w", encoding="utf-8") as f:
                f.write(k.text())
        with open(os.path.join(workdir, "orchestration.json"), "w", encoding="utf-8") as f:
            json.dump({"program": self.name, "body": self._body[0]}, f, indent=1)
        manifest = {"format": "jpto-workdir", "format_version": 1, "program": self.name, "inputs": self.inputs,
                    "outputs": self.outputs,
                    "kernels": [{"name": n, "file": f"kernels/{n}.pto"} for n in self.kernels],
                    "orchestration": "orchestration.json"}
        with open(os.path.join(workdir, "manifest.json"), "w", encoding="utf-8") as f:
            json.dump(manifest, f, indent=1)


def save(directory, **arrays):
    """Writes each array as directory/NAME.npy (the layout jpto exec reads and writes)."""
    os.makedirs(directory, exist_ok=True)
    for name, a in arrays.items():
        np.save(os.path.join(directory, _identifier(name, "tensor") + ".npy"), a)
