"""NKI's tiled matmul tutorial, written with tern's Python kernel API.

c[M, N] = a_t[K, M]^T @ b[K, N], bf16 operands, fp32 result: for every (m, n) tile the K
tiles' products accumulate in one PSUM tile (the first matmul of a tile overwrites, the rest
accumulate), which is copied to SBUF and stored. The tiles are the array's: K and M by the
PE array's rows and columns, N by a PSUM bank.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/matmul.py [--config tiny] [--backend golden|rtl|cross]
"""

import argparse
import sys

import numpy as np

import tern


def build(cfg, M, K, N):
    TK, TM, TN = cfg.pe_rows, cfg.pe_cols, min(N, cfg.moving_max_n)
    if M % TM or K % TK or N % TN:
        raise ValueError(f"matmul {M}x{K}x{N}: M, K, N must be multiples of {TM}, {TK}, {TN}")
    k = tern.Kernel(cfg, "matmul")
    a_t = k.input("a_t", K, M, "bf16")
    b = k.input("b", K, N, "bf16")
    c = k.output("c", M, N, "fp32")
    operands, results = k.sbuf_pool("operands", 4), k.sbuf_pool("results", 2)
    psum = k.psum_pool("psum", 2)

    def n_tile(m, n):
        acc = psum.tile(TM, TN, "fp32", "acc")
        for kk in range(K // TK):
            lhs_t = operands.tile(TK, TM, "bf16", "lhs_t")
            rhs = operands.tile(TK, TN, "bf16", "rhs")
            k.dma_copy(k.all(lhs_t), tern.window(a_t, kk * TK, m * TM, TK, TM))
            k.dma_copy(k.all(rhs), tern.window(b, kk * TK, n * TN, TK, TN))
            k.matmul(k.all(acc), k.all(lhs_t), k.all(rhs), accumulate=kk > 0)
        res = results.tile(TM, TN, "fp32", "res")
        k.tensor_copy(k.all(res), k.all(acc))
        k.dma_copy(tern.window(c, m * TM, n * TN, TM, TN), k.all(res))

    k.loop(M // TM, lambda m: k.loop(N // TN, lambda n: n_tile(m, n)))
    return k.finish()


def check(a_t, b, c):
    """bf16 products are exact in fp32, and each of the K - 1 adds rounds once, so
    |c - exact| <= gamma_K * sum_k |a_t[k, m] b[k, n]|, gamma_K = K u / (1 - K u), u = 2^-24
    (docs/kernels.md, gemm). The elements outside it are counted."""
    a64 = tern.decode(tern.encode(a_t, "bf16"), "bf16").astype(np.float64)
    b64 = tern.decode(tern.encode(b, "bf16"), "bf16").astype(np.float64)
    exact, scale = a64.T @ b64, np.abs(a64.T) @ np.abs(b64)
    ku = a_t.shape[0] * 2.0**-24
    bound = ku / (1 - ku) * scale + 1e-38
    return int(np.count_nonzero(np.abs(c.astype(np.float64) - exact) > bound))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", default="tiny")
    ap.add_argument("--backend", default="golden", choices=tern.BACKENDS)
    ap.add_argument("--shape", default=None, help="M,K,N (default: 2, 2 and 2 tiles)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    cfg = tern.config(args.config)
    M, K, N = (map(int, args.shape.split(",")) if args.shape
               else (2 * cfg.pe_cols, 2 * cfg.pe_rows, 2 * min(64, cfg.moving_max_n)))
    print(f"matmul {M}x{K}x{N} on {cfg.name}, {args.backend}, seed {args.seed}")
    rng = np.random.default_rng(args.seed)
    a_t = rng.uniform(-1, 1, (K, M)).astype(np.float32)
    b = rng.uniform(-1, 1, (K, N)).astype(np.float32)
    run = tern.run(build(cfg, M, K, N), {"a_t": a_t, "b": b}, cfg, backend=args.backend)
    wrong = check(a_t, b, run.outputs["c"])
    print(f"{run.cycles} cycles, {wrong} of {M * N} elements outside the bound: "
          f"{'PASS' if wrong == 0 else 'FAIL'}")
    return 0 if wrong == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
