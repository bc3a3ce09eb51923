"""`local` on adult's all 3-way marginals (364 tables, 20.9 million cells): how far the relaxation's dual ascent gets
in a given number of iterations, and what its answers are worth there.

The Gaussian tables are measured once per seed (replace-one neighbours, n public, eps=1, delta=1e-9); `local` with
base='gaussian', shrink=None and max_iter in --iters is run on them (same seed, same noise: only the iteration limit
differs). For each: seconds, the certificate (max consistency residual, duality gap), and RMSE and max error over all
cells against the true fractions, beside the Gaussian answers and each table projected on its simplex (the command
line's --postprocess simplex). An unconverged projection is still post-processing of the noisy tables: private, only
less accurate than the projection itself.

Usage: python benchmarks/local_adult3.py [--data ../shared/data] [--iters 10 50 200] [--seeds 1]
"""
import argparse
import time
import warnings
from pathlib import Path

import numpy as np

from dpnotes.cli_output import postprocess
from dpnotes.ingest import read_csv
from dpnotes.privacy import Budget
from dpnotes.projection_solvers import ConvergenceWarning
from dpnotes import MECHANISMS
from dpnotes.workloads import Marginals, max_error, rmse
import dpnotes.local  # registers 'local'


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--data', type=Path, default=Path(__file__).resolve().parents[2] / 'shared' / 'data')
    ap.add_argument('--iters', type=int, nargs='+', default=[10, 50, 200])
    ap.add_argument('--seeds', type=int, default=1)
    args = ap.parse_args()
    csv, dom = args.data / 'adult' / 'adult.csv', args.data / 'adult' / 'adult-domain.json'
    if not (csv.exists() and dom.exists()):
        raise SystemExit(f"adult not found under {args.data}")
    data = read_csv(csv, dom)
    wl, budget = Marginals.all_kway(data.domain, 3), Budget.approx(1.0, 1e-9)
    truth = wl.answer(data)
    print(f"adult all 3-way: {len(wl.cliques)} tables, {wl.shape[0]} cells, n={data.n}, eps=1, delta=1e-9, replace-one")
    print(f"{'seed':>4s} {'estimator':28s} {'seconds':>8s} {'residual':>9s} {'gap':>9s} {'RMSE':>9s} {'max err':>8s}")
    for seed in range(args.seeds):
        t = time.perf_counter()
        g = MECHANISMS['gaussian'](data, wl, budget, rng=np.random.default_rng(seed))
        secs = time.perf_counter() - t
        rows = [('gaussian', secs, None, None, g.answers)]
        t = time.perf_counter()
        simplex = postprocess('simplex', wl, g.answers)
        rows.append(('gaussian, simplex per table', time.perf_counter() - t + secs, None, None, simplex))
        for k in args.iters:
            t = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter('ignore', ConvergenceWarning)
                rel = MECHANISMS['local'](data, wl, budget, rng=np.random.default_rng(seed), base='gaussian',
                                          shrink=None, max_iter=k)
            rows.append((f"local, max_iter={k}", time.perf_counter() - t, rel.info.get('residual'),
                         rel.info.get('gap'), rel.answers))
        for name, secs, res, gap, ans in rows:
            cert = f"{res:9.2e} {gap:9.2e}" if res is not None else f"{'':9s} {'':9s}"
            print(f"{seed:4d} {name:28s} {secs:8.1f} {cert} {rmse(ans, truth):9.2e} {max_error(ans, truth):8.4f}",
                  flush=True)


if __name__ == '__main__':
    main()
