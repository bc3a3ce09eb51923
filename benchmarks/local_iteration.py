"""Seconds per dual iteration of the local projection on adult's all 3-way marginals (364 tables, 20.9
million cells), and its peak memory: `evaluate_duals` (one x(lambda) and residual) and `_ascent` for a few
iterations, at a fixed lambda, on the true tables plus seeded Gaussian noise (sigma 1e-4; a timing input, not
a release). Run it once per version of the package (PYTHONPATH) in the same session and compare the ratios; it
also times one numpy pass that reads the tables (`y.sum()`) and one that reads and writes them (`x[:] = y`),
the floor an iteration is measured against.

Usage: python benchmarks/local_iteration.py [--data ../shared/data] [--evals 5] [--iters 10]
"""
import argparse
import resource
import time
from pathlib import Path

import numpy as np

from dpnotes.ingest import read_csv
from dpnotes.local_solvers import _ascent, evaluate_duals, local_structure
from dpnotes.workloads import Marginals


def best(f, k):
    "Fastest of k timed calls of f (seconds)."
    out = []
    for _ in range(k):
        t = time.perf_counter()
        f()
        out.append(time.perf_counter() - t)
    return min(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--data', type=Path, default=Path(__file__).resolve().parents[2] / 'shared' / 'data')
    ap.add_argument('--evals', type=int, default=5)
    ap.add_argument('--iters', type=int, default=10)
    args = ap.parse_args()
    data = read_csv(args.data / 'adult' / 'adult.csv', args.data / 'adult' / 'adult-domain.json')
    wl = Marginals.all_kway(data.domain, 3)
    t = time.perf_counter()
    S = local_structure(data.domain, wl.cliques)
    t_struct = time.perf_counter() - t
    y = wl.answer(data) + np.random.default_rng(0).normal(0, 1e-4, wl.shape[0])
    nc = len(wl.cliques)
    w, a = np.ones(nc), 2 / S.scales
    steps = np.repeat(a, np.diff(S.arrays[3]))
    x, r, taus = np.empty_like(y), np.empty(S.n_duals), np.full(nc, -np.inf)
    lam = np.random.default_rng(1).normal(0, 1e-5, S.n_duals)
    evaluate_duals(lam, y, w, S.arrays, a, x, r, taus)  # compile / load, and warm the shifts
    t_eval = best(lambda: evaluate_duals(lam, y, w, S.arrays, a, x, r, taus), args.evals)
    lam0, mu0, taus0 = np.zeros(S.n_duals), np.zeros(S.n_duals), np.full(nc, -np.inf)
    _ascent(y, w, S.arrays, a, steps, 1e-9, 0, 1, lam0.copy(), mu0.copy(), taus0.copy(), np.zeros(nc), 1.0)  # compile
    t_asc = best(lambda: _ascent(y, w, S.arrays, a, steps, 1e-9, 0, args.iters, lam0.copy(), mu0.copy(),
                                 taus0.copy(), np.zeros(nc), 1.0), 2) / args.iters
    t_read = best(lambda: y.sum(), args.evals)
    t_rw = best(lambda: np.copyto(x, y), args.evals)
    struct_mb = sum(v.nbytes for v in S.arrays) / 2**20
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"cells {y.size}, duals {S.n_duals}, structure arrays {struct_mb:.1f} MiB "
          f"(built in {t_struct:.2f} s)")
    print(f"evaluate {t_eval:.3f} s, ascent {t_asc:.3f} s/iteration, numpy read {t_read:.3f} s, "
          f"read+write {t_rw:.3f} s: an iteration = {t_asc / t_read:.1f} reads; peak RSS {peak:.0f} MiB")


if __name__ == '__main__':
    main()
