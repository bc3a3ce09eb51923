"""Benchmark of dpnotes.factorization: error constants of identity / workload / tree / optimal strategies,
certified lower bounds, achieved/lower ratios and seconds, plus cvxpy agreement on small cases.

Run: python benchmarks/factorization.py [--out benchmarks/results_factorization.md] [--quick]
Timings are reported in seconds and as multiples of one N x N symmetric eigendecomposition measured in the same run
(the machine is shared, so absolute seconds are noisy)."""
import argparse, math, sys, time, platform
import numpy as np, scipy.linalg as sla
from dpnotes.workloads import Prefix, AllRange, Marginals
from dpnotes.data import Domain
from dpnotes.strategy_solvers import (TreeStrategy, marginal_strategy, optimal_strategy, strategy_error, svd_bound,
                                     workload_gram, cvxpy_optimal)

def eig_seconds(N):
    A = np.random.default_rng(0).standard_normal((N, N)); A = A + A.T
    t = time.perf_counter(); sla.eigh(A, driver='evd'); return time.perf_counter() - t

def one_dim(kind, N, rows):
    W = {'prefix': Prefix, 'allrange': AllRange}[kind](N); G = workload_gram(W)
    ref = eig_seconds(N)
    res = optimal_strategy(W, tol=1e-3)
    errs = {'identity': float(np.trace(G)), 'workload': float(np.max(np.diag(G)) * N),
            'tree': strategy_error(W, TreeStrategy(N)), 'optimal': res.upper}
    rows.append(dict(name=f'{kind}-{N}', N=N, **errs, lower=res.lower, svd=svd_bound(W), ratio=res.ratio,
                     iters=res.iterations, seconds=res.seconds, eig=ref))

def marginals(k, d, rows):
    dom = Domain(tuple(f'x{i}' for i in range(d)), (2,) * d); W = Marginals.all_kway(dom, k)
    t = time.perf_counter(); res = optimal_strategy(W); sec = time.perf_counter() - t
    errs = {m: strategy_error(W, marginal_strategy(W, m)) for m in ('identity', 'workload')}
    rows.append(dict(name=f'{k}-way {{0,1}}^{d}', N=2 ** d, **errs, tree=float('nan'), optimal=res.upper,
                     lower=res.lower, svd=svd_bound(W), ratio=res.ratio, iters=res.iterations, seconds=sec, eig=float('nan')))

def main():
    ap = argparse.ArgumentParser(); ap.add_argument('--out', default=None); ap.add_argument('--quick', action='store_true')
    a = ap.parse_args()
    Ns = [256, 1024] if a.quick else [256, 1024, 4096]
    rows, lines = [], []
    def say(s=''): print(s, flush=True); lines.append(s)
    for kind in ('prefix', 'allrange'):
        for N in Ns: one_dim(kind, N, rows); print(rows[-1], flush=True)
    for d in (8, 10, 16):
        for k in (2, 3): marginals(k, d, rows)
    say(f"Command: `python benchmarks/factorization.py{' --quick' if a.quick else ''}{' --out ' + a.out if a.out else ''}`  ")
    say(f"Machine: {platform.machine()}, python {platform.python_version()}, numpy {np.__version__}; shared, 2 cores.")
    say()
    say('Error constants ||M||_{1->2}^2 ||W M^+||_F^2 (total squared error at unit noise multiplier); ratios are to the certified lower bound.')
    say()
    say('| workload | N | identity/lower | workload/lower | tree/lower | optimal/lower | lower bound | SVD bound/lower | iters | seconds | seconds / one eigh |')
    say('|---|---|---|---|---|---|---|---|---|---|---|')
    for r in rows:
        lo = r['lower']; tr = '—' if math.isnan(r['tree']) else f"{r['tree']/lo:.3f}"
        eu = '—' if math.isnan(r['eig']) else f"{r['seconds']/r['eig']:.1f}"
        say(f"| {r['name']} | {r['N']} | {r['identity']/lo:.3f} | {r['workload']/lo:.3f} | {tr} | {r['optimal']/lo:.5f} | "
            f"{lo:.6g} | {r['svd']/lo:.4f} | {r['iters']} | {r['seconds']:.2f} | {eu} |")
    say()
    say('cvxpy (CLARABEL, matrix_frac) vs the fast solver (tol 1e-6):')
    say()
    say('| workload | cvxpy value | fast upper | fast lower | rel. diff | cvxpy s | fast s |')
    say('|---|---|---|---|---|---|---|')
    for W in [Prefix(16), AllRange(16), Prefix(32), AllRange(32)]:
        t = time.perf_counter(); ref, _ = cvxpy_optimal(W); tc = time.perf_counter() - t
        f = optimal_strategy(W, tol=1e-6, max_iter=5000)
        say(f"| {type(W).__name__.lower()}-{W.shape[1]} | {ref:.8g} | {f.upper:.8g} | {f.lower:.8g} | {abs(ref/f.upper-1):.1e} | {tc:.2f} | {f.seconds:.3f} |")
    say()
    say('HDMM (McKenna et al. 2018): `pip download --no-deps hdmm` finds no distribution on this offline machine, so it was not measured.')
    if a.out: open(a.out, 'w').write('\n'.join(lines) + '\n')

if __name__ == '__main__': main()
