"""tern: build kernels with the kernel API and run them on the golden model, the RTL or both.

    import numpy as np, tern
    cfg = tern.config("tiny")
    k = tern.Kernel(cfg, "double")
    x = k.input("x", 8, 64, "fp32"); y = k.output("y", 8, 64, "fp32")
    t = k.sbuf_pool("io", 2).tile(8, 64, "fp32", "t")
    k.dma_copy(k.all(t), tern.window(x, 0, 0, 8, 64))
    k.tensor_scalar(k.all(t), k.all(t), alu0="multiply", imm0=2.0)
    k.dma_copy(tern.window(y, 0, 0, 8, 64), k.all(t))
    run = tern.run(k.finish(), {"x": np.ones((8, 64), np.float32)}, cfg, backend="golden")
    run.outputs["y"]  # float32, 2.0 everywhere

Inputs are NumPy arrays of the tensor's shape: float32 or float16 for the float dtypes
(converted to bf16, fp8, ... by tern's own numerics, round to nearest even), the integer
dtype's own type for int8, uint8, int32, or bit patterns as tern.patterns(p, dtype) makes
them. Outputs come back as float32 (every float dtype widens exactly) or the integer type.
docs/programming-guide.md, "Python", has the whole API.
"""

import os
import re
import subprocess
import tempfile
from dataclasses import dataclass, field

from ._tern import (Accumulate, Config, Engine, Error, HbmTensor, HbmView, Imm, Index, Kernel,
                    Pool, ProgramImage, Reduce, ReduceOp, Tile, TripCount, View, decode, encode,
                    load_program, patterns, window)
from . import _tern

__all__ = ["Accumulate", "Config", "Engine", "Error", "HbmTensor", "HbmView", "Imm", "Index",
           "Kernel", "Pool", "ProgramImage", "Reduce", "ReduceOp", "Run", "Tile", "TripCount",
           "View", "config", "decode", "encode", "load_program", "patterns", "run", "window"]

BACKENDS = ("golden", "rtl", "cross")


@dataclass
class Run:
    """A run's outputs (name -> NumPy array) and cycles: estimated on golden, simulated on
    rtl and cross; `report` is tern-rtl's printout for the RTL backends."""
    outputs: dict
    cycles: int
    backend: str
    report: str = field(default="", repr=False)


def config(name):
    """A config: tiny, small, trn2 or fpga (the package's configs), or a config file's path."""
    from ._build import TERN_CONFIGS
    return _tern.config(name, TERN_CONFIGS)


def _rtl_runner():
    path = os.environ.get("TERN_RTL")
    if not path:
        from ._build import TERN_RTL as path
    if not os.access(path, os.X_OK):
        raise Error(f"the RTL backends run in tern-rtl, and {path} is not there "
                    "(make build builds it; TERN_RTL names another)")
    return path


def _run_rtl(image, inputs, cfg, backend, check, hbm_latency):
    with tempfile.TemporaryDirectory(prefix="tern-") as tmp:
        program = os.path.join(tmp, "program.tbin")
        image.save(program)
        names = [t[0] for t in image.tensors]
        paths = {name: os.path.join(tmp, f"t{i}.npy") for i, name in enumerate(names)}
        _tern._write_inputs(image, inputs, {n: paths[n] for n in inputs})
        ins = ",".join(f"{n}={paths[n]}" for n, kind, *_ in image.tensors if kind == "input")
        outs = [n for n, kind, *_ in image.tensors if kind == "output"]
        cmd = [_rtl_runner(), program, "--backend", backend, "--config", cfg.path,
               "--check", check, "--outputs", ",".join(f"{n}={paths[n]}" for n in outs)]
        if ins:
            cmd += ["--inputs", ins]
        if hbm_latency is not None:
            cmd += ["--hbm-latency", str(int(hbm_latency))]
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            why = done.stderr.strip() or done.stdout.strip()
            raise Error(f"{image.name} on {backend}: {why}")
        cycles = re.search(r"^simulated cycles: (\d+)$", done.stdout, re.M)
        if not cycles:
            raise Error(f"{image.name} on {backend}: tern-rtl printed no cycle count:\n{done.stdout}")
        outputs = {n: _tern._read_output(image, n, paths[n]) for n in outs}
        return Run(outputs, int(cycles.group(1)), backend, done.stdout)


def run(program, inputs, cfg, backend="golden", check="end", hbm_latency=None):
    """Runs `program` (a ProgramImage, as Kernel.finish() or load_program() gives it) with
    `inputs` (tensor name -> NumPy array) on the config `cfg` and a backend: golden (the golden
    model), rtl (the verilated core in the SystemC platform) or cross (both, compared at depth
    `check`: end, transfer or lockstep). Raises tern.Error for a bad input, a fault or a
    mismatch."""
    if backend not in BACKENDS:
        raise Error(f"backend '{backend}': the backends are {', '.join(BACKENDS)}")
    if not isinstance(program, ProgramImage):
        raise TypeError("run: program is a tern.ProgramImage (Kernel.finish(), tern.load_program())")
    if not isinstance(cfg, Config):
        raise TypeError("run: cfg is a tern.Config (tern.config('tiny'))")
    if backend == "golden":
        outputs, cycles = _tern._run_golden(cfg, program, dict(inputs), hbm_latency)
        return Run(outputs, cycles, backend)
    return _run_rtl(program, dict(inputs), cfg, backend, check, hbm_latency)
