"""NKI's softmax tutorial, written with tern's Python kernel API.

y = softmax(x) along rows, fp32: per tile of P rows, the row maximum (negated, on the Vector
Engine), exp(x - max) with the row sums accumulated on the Scalar Engine, the sums'
reciprocal, and the rows scaled by it.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/softmax.py [--config tiny] [--backend golden|rtl|cross]
"""

import argparse
import sys

import numpy as np

import tern


def build(cfg, rows, d):
    k = tern.Kernel(cfg, "softmax")
    x_in = k.input("x", rows, d, "fp32")
    y_out = k.output("y", rows, d, "fp32")
    data, stats = k.sbuf_pool("data", 3), k.sbuf_pool("stats", 2)

    def tile(r0, n):
        x = data.tile(n, d, "fp32", "x")
        k.dma_copy(k.all(x), tern.window(x_in, r0, 0, n, d))
        negmax = stats.tile(n, 1, "fp32", "negmax")
        k.tensor_reduce(k.all(negmax), k.all(x), "max", negate=True)
        e = data.tile(n, d, "fp32", "e")
        total = stats.tile(n, 1, "fp32", "sum")
        k.activation(k.all(e), k.all(x), func="exp", bias_vec=k.all(negmax),
                     reduce=tern.Reduce.reset_reduce, acc_out=k.all(total))
        rsum = stats.tile(n, 1, "fp32", "rsum")
        k.activation(k.all(rsum), k.all(total), func="reciprocal")
        k.tensor_scalar(k.all(x), k.all(e), alu0="multiply", s0_vec=k.all(rsum))
        k.dma_copy(tern.window(y_out, r0, 0, n, d), k.all(x))

    # Whole tiles of P rows in a loop, the rest as one more tile.
    k.tile_loop(0, rows, cfg.partitions, tile)
    return k.finish()


def check(x, y):
    """exp and reciprocal within 2 ulp, the sum of d positive terms within d ulp, the product
    half an ulp: |y - exact| <= (d + 8) * 2^-24 * exact (docs/kernels.md, softmax)."""
    x64 = x.astype(np.float64)
    e = np.exp(x64 - x64.max(axis=1, keepdims=True))
    exact = e / e.sum(axis=1, keepdims=True)
    bound = (x.shape[1] + 8) * 2.0**-24 * exact + 1e-38
    return int(np.count_nonzero(np.abs(y.astype(np.float64) - exact) > bound))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", default="tiny")
    ap.add_argument("--backend", default="golden", choices=tern.BACKENDS)
    ap.add_argument("--rows", type=int, default=None, help="default: 2.5 tiles of partitions")
    ap.add_argument("--d", type=int, default=96)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    cfg = tern.config(args.config)
    rows = args.rows or cfg.partitions * 5 // 2
    print(f"softmax {rows}x{args.d} on {cfg.name}, {args.backend}, seed {args.seed}")
    x = np.random.default_rng(args.seed).uniform(-4, 4, (rows, args.d)).astype(np.float32)
    run = tern.run(build(cfg, rows, args.d), {"x": x}, cfg, backend=args.backend)
    wrong = check(x, run.outputs["y"])
    print(f"{run.cycles} cycles, {wrong} of {x.size} elements outside the bound: "
          f"{'PASS' if wrong == 0 else 'FAIL'}")
    return 0 if wrong == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
