"""Benchmark of the SDP oracle of lecture 004 (dpnotes.sdp): max <M, X> over {X PSD, diag X = 1}.

M has the relaxation's shape, M = [[0, C/2], [C^T/2, 0]] with C a (n/2 x n/2) standard Gaussian matrix
(`bilinear_max(C)`), plus one PSD instance M = B B^T / n. In the same run: our mixing method (tol 1e-4 on the
certified relative gap) vs cvxpy + SCS (default settings) for n in --cvxpy-n, and ours alone for --n.
Reported: seconds, value, certified upper bound, certified relative gap, (SCS value - ours) / |upper|,
and the speed ratio. The SCS value is not certified; our `upper` is.

BLAS runs single-threaded (OPENBLAS_NUM_THREADS=1 unless set): on the shared 2-core machine threaded
OpenBLAS stalled (a 1024 Cholesky took 0.12 s threaded vs 0.016 s single-threaded under load). The setting
applies to both solvers in the run.

With --sweeps (alone: --sweeps-only) it also times one sweep of the lecture's bilinear shape two ways, the
two matrix products of `bilinear_max` against the coordinate loop of `sdp_max` on the same M (p = q = 2048,
rank r = 92 as the solver picks it), and the two products of a 256 x 256 sweep with BLAS held to one thread
against BLAS free to use its threads (on a shared machine the threaded products can stall). Each time is the
median of --repeats runs; the table gives the ratios the 96_sdp appendix quotes.

Usage: python benchmarks/sdp.py [--cvxpy-n 128 256 512] [--n 1024 2048 4096] [--tol 1e-4] [--out benchmarks/results_sdp.md]
       python benchmarks/sdp.py --sweeps-only --out-sweeps benchmarks/results_sdp_sweeps.md
"""
import argparse, os, sys, time

if '--sweeps-only' not in sys.argv:  # the sweep timings compare BLAS with and without its threads
    os.environ.setdefault('OPENBLAS_NUM_THREADS', '1')
import numpy as np
from dpnotes.sdp import bilinear_max, bilinear_matrix, sdp_max


def scs(M):
    import cvxpy as cp

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


def _median_time(f, repeats):
    ts = []
    for _ in range(repeats):
        t = time.perf_counter()
        f()
        ts.append(time.perf_counter() - t)
    return float(np.median(ts))


def sweeps(repeats=5):
    "Lines of the sweep table: seconds of one sweep each way, and their ratio."
    from threadpoolctl import threadpool_limits
    from dpnotes.sdp import _KERNELS, _half

    _sweep = _KERNELS.jit('_sweep')  # the compiled coordinate loop (a Kernels group)

    rows = ["| what | n | r | this way (s) | other way (s) | ratio |", "|---|---|---|---|---|---|"]
    p, r = 2048, 92  # r = ceil(sqrt(2n)) + 1 for n = 2p
    rng = np.random.default_rng(0)
    C = rng.standard_normal((p, p))
    U, V = [(lambda A: A / np.linalg.norm(A, axis=1, keepdims=True))(rng.standard_normal((p, r))) for _ in '01']
    M, X = bilinear_matrix(C), np.vstack([U, V])
    _sweep(M[:4, :4].copy(), X[:4].copy(), M[:4, :4] @ X[:4])  # compile outside the timing
    with threadpool_limits(1, 'blas'):
        two = _median_time(lambda: (_half(C, V, U), _half(C.T, U, V)), repeats)
        G = M @ X
        loop = _median_time(lambda: _sweep(M, X, G), repeats)
    rows.append(f"| bilinear sweep: two products (one BLAS thread) vs coordinate loop | {2 * p} | {r} "
                f"| {two:.4f} | {loop:.4f} | {loop / two:.1f}x |")
    C2 = rng.standard_normal((256, 256))
    U2, V2 = rng.standard_normal((256, 24)), rng.standard_normal((256, 24))
    with threadpool_limits(1, 'blas'):
        one = _median_time(lambda: (_half(C2, V2, U2), _half(C2.T, U2, V2)), 20 * repeats)
    many = _median_time(lambda: (_half(C2, V2, U2), _half(C2.T, U2, V2)), 20 * repeats)
    rows.append(f"| 256 x 256 sweep: one BLAS thread vs threaded BLAS | 512 | 24 | {one:.5f} | {many:.5f} "
                f"| {many / one:.1f}x |")
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--cvxpy-n', type=int, nargs='*', default=[128, 256, 512])
    ap.add_argument('--n', type=int, nargs='*', default=[1024, 2048, 4096])
    ap.add_argument('--tol', type=float, default=1e-4)
    ap.add_argument('--out')
    ap.add_argument('--sweeps', action='store_true', help='also time one sweep two ways (see above)')
    ap.add_argument('--sweeps-only', action='store_true')
    ap.add_argument('--out-sweeps')
    ap.add_argument('--repeats', type=int, default=5)
    a = ap.parse_args()
    if a.sweeps or a.sweeps_only:
        head = ["# One sweep of the mixing method, timed two ways", "",
                f"Command: `python {' '.join(sys.argv)}`", "",
                f"Median of {a.repeats} runs (x20 for the small one); BLAS threads available: "
                f"{os.environ.get('OPENBLAS_NUM_THREADS', 'all')} by default, 1 inside the limited runs.", ""]
        out = head + sweeps(a.repeats)
        print("\n".join(out), flush=True)
        if a.out_sweeps:
            open(a.out_sweeps, 'w').write("\n".join(out) + "\n")
        if a.sweeps_only:
            return
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
