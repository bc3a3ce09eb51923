"""Benchmark of the SDP oracle of lecture 004 (dpnotes.sdp): max <M, X> over {X PSD, diag X = 1}.

M has the relaxation's shape, M = [[0, C/2], [C^T/2, 0]] with C a (n/2 x n/2) standard Gaussian matrix
(`bilinear_max(C)`), plus one PSD instance M = B B^T / n. In the same run: our mixing method (tol 1e-4 on the
certified relative gap) vs cvxpy + SCS (default settings) for n in --cvxpy-n, and ours alone for --n.
Reported: seconds, value, certified upper bound, certified relative gap, (SCS value - ours) / |upper|,
and the speed ratio. The SCS value is not certified; our `upper` is.

BLAS runs single-threaded (OPENBLAS_NUM_THREADS=1 unless set): on the shared 2-core machine threaded
OpenBLAS stalled (a 1024 Cholesky took 0.12 s threaded vs 0.016 s single-threaded under load). The setting
applies to both solvers in the run.

Usage: python benchmarks/sdp.py [--cvxpy-n 128 256 512] [--n 1024 2048 4096] [--tol 1e-4] [--out benchmarks/results_sdp.md]
"""
import argparse, os, sys, time

os.environ.setdefault('OPENBLAS_NUM_THREADS', '1')
import numpy as np
import cvxpy as cp
from dpnotes.sdp import bilinear_max, bilinear_matrix, sdp_max


def scs(M):
    X = cp.Variable(M.shape, PSD=True)
    prob = cp.Problem(cp.Maximize(cp.trace(M @ X)), [cp.diag(X) == 1])
    t = time.perf_counter()
    prob.solve(solver='SCS')
    return prob.value, time.perf_counter() - t, prob.status


def row(kind, n, res, ref=None):
    rel = res.gap / abs(res.upper)
    s = f"| {kind} | {n} | {res.seconds:.3f} | {res.iterations} | {res.value:.6f} | {res.upper:.6f} | {rel:.1e} |"
    if ref is None:
        return s + " - | - | - | - |", rel
    val, sec, status = ref
    return s + f" {sec:.2f} | {val:.6f} ({status}) | {(val - res.value) / abs(res.upper):+.1e} | {sec / res.seconds:.0f}x |", rel


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--cvxpy-n', type=int, nargs='*', default=[128, 256, 512])
    ap.add_argument('--n', type=int, nargs='*', default=[1024, 2048, 4096])
    ap.add_argument('--tol', type=float, default=1e-4)
    ap.add_argument('--out')
    a = ap.parse_args()
    bilinear_max(np.ones((2, 2)), rng=np.random.default_rng(0))  # compile the kernels outside the timings
    sdp_max(np.eye(3), rng=np.random.default_rng(0))
    lines = ["# SDP oracle: mixing method vs cvxpy + SCS", "",
             f"Command: `python {' '.join(sys.argv)}`", "",
             f"tol = {a.tol} on the certified relative gap; seed = n; SCS with cvxpy's default settings; "
             f"OPENBLAS_NUM_THREADS={os.environ['OPENBLAS_NUM_THREADS']}.", "",
             "| instance | n | ours (s) | sweeps | value | certified upper | certified rel. gap | SCS (s) | SCS value (status) "
             "| (SCS - ours) / upper | speed-up |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    print("\n".join(lines), flush=True)
    for n in a.cvxpy_n + a.n:
        rng = np.random.default_rng(n)
        C = rng.standard_normal((n // 2, n // 2))
        res = bilinear_max(C, tol=a.tol, rng=rng)
        line, _ = row('bilinear Gaussian', n, res, scs(bilinear_matrix(C)) if n in a.cvxpy_n else None)
        lines.append(line)
        print(line, flush=True)
    for n in a.cvxpy_n[-1:] + a.n[-1:]:
        rng = np.random.default_rng(n + 1)
        B = rng.standard_normal((n, n))
        M = B @ B.T / n
        res = sdp_max(M, tol=a.tol, rng=rng)
        line, _ = row('PSD B B^T / n', n, res, scs(M) if n in a.cvxpy_n else None)
        lines.append(line)
        print(line, flush=True)
    if a.out:
        open(a.out, 'w').write("\n".join(lines) + "\n")


if __name__ == '__main__':
    main()
