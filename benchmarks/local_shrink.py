"""`local`'s shrinkage on adult's marginals: the noisy tables projected as they are (with the sparse threshold),
shrunk toward their sub-margins' targets at one SURE level per table (capped at 1.5 sigma), and at one level per
group of cells (`grouped_shrink`, capped at 1.5 sigma and at its default 3 sigma), all from the same Gaussian
measurement.

Add/remove neighbours with the public bound max_records=10**6 (the peers table's relation), delta=1e-9. For each
seed the Gaussian tables are measured once; each estimator reads them (post-processing), is projected onto the
local polytope with `local`'s default iteration limit, and is scored by RMSE and max error over all cells against
the true fractions. Also printed: the sum of the clipped inverse-variance mean of the largest sub-margin, which
shows what dividing by that sum would do to it (the simplex projection keeps the used entries' mass instead).

Usage: python benchmarks/local_shrink.py [--data ../shared/data] [--degree 3] [--eps 1.0] [--seeds 0]
"""
import argparse
import time
import warnings
from pathlib import Path

import numpy as np

from dpnotes.ingest import read_csv
from dpnotes.measurements import Measurement
from dpnotes.privacy import Budget
from dpnotes.projection_solvers import ConvergenceWarning
from dpnotes import MECHANISMS
from dpnotes.workloads import Marginals, max_error, rmse
import dpnotes.local as L


def project(W, tables, sigma):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', ConvergenceWarning)
        ms = [Measurement(c, t, sigma) for c, t in zip(W.cliques, tables)]
        return L.local_projection(ms, W.domain, max_iter=L.auto_iterations(W.shape[0]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--data', type=Path, default=Path(__file__).resolve().parents[2] / 'shared' / 'data')
    ap.add_argument('--degree', type=int, default=3)
    ap.add_argument('--eps', type=float, default=1.0)
    ap.add_argument('--seeds', type=int, nargs='+', default=[0])
    args = ap.parse_args()
    csv, dom = args.data / 'adult' / 'adult.csv', args.data / 'adult' / 'adult-domain.json'
    if not (csv.exists() and dom.exists()):
        raise SystemExit(f"adult not found under {args.data}")
    data = read_csv(csv, dom)
    W = Marginals.all_kway(data.domain, args.degree)
    truth, budget = W.answer(data), Budget.approx(args.eps, 1e-9)
    print(f"adult all {args.degree}-way: {len(W.cliques)} tables, {W.shape[0]} cells, eps={args.eps}, delta=1e-9, "
          f"add/remove, max_iter={L.auto_iterations(W.shape[0])}")
    print(f"{'seed':>4s} {'estimator':34s} {'seconds':>8s} {'iters':>6s} {'RMSE':>9s} {'max err':>8s}")
    for seed in args.seeds:
        g = MECHANISMS['gaussian'](data, W, budget, rng=np.random.default_rng(seed), neighbours='add-remove',
                                   max_records=10**6)
        ys, s = W.blocks(g.answers), g.sigma
        if seed == args.seeds[0]:
            L.sub_margins(W, ys, s)  # warm-up of the simplex projection's kernel
            t = time.perf_counter()
            mg = L.sub_margins(W, ys, s)
            big = max(mg, key=lambda k: mg[k][0].size)
            acc, tot = 0.0, 0.0  # the clipped mean of the largest sub-margin, recomputed here
            for c, y in zip(W.cliques, ys):
                if set(big) <= set(c):
                    T = y.reshape([data.domain[a] for a in c])
                    rest = tuple(i for i, a in enumerate(c) if a not in big)
                    w = 1.0 / np.prod([T.shape[i] for i in rest])
                    acc, tot = acc + w * T.sum(axis=rest), tot + w
            print(f"     largest sub-margin {big} ({mg[big][0].size} cells): clipped mean sums to "
                  f"{np.clip(acc / tot, 0, None).sum():.2f}; sub-margins in {time.perf_counter() - t:.1f} s")
        t = time.perf_counter()
        targets = L.margin_targets(W, ys, s)
        secs_t = time.perf_counter() - t
        rows = [('gaussian', g.answers, 0.0, None)]
        for name, make in [
            ('threshold 3, no shrinkage', lambda: L.sparse_threshold(ys, s, 3.0)),
            ('margins, one level per table', lambda: L.sure_shrink(ys, targets, s)[0]),
            ('margins, grouped, cap 1.5', lambda: L.grouped_shrink(ys, targets, s, cap=1.5)[0]),
            ('margins, grouped, cap 3 (default)', lambda: L.grouped_shrink(ys, targets, s)[0]),
        ]:
            t = time.perf_counter()
            tabs = make()
            res = project(W, tabs, s)
            extra = secs_t if name.startswith('margins') else 0.0
            rows.append((name, res.answers, time.perf_counter() - t + extra, res.iterations))
        for name, a, secs, it in rows:
            print(f"{seed:4d} {name:34s} {secs:8.1f} {it if it is not None else '':>6} {rmse(a, truth):9.3e} "
                  f"{max_error(a, truth):8.4f}", flush=True)


if __name__ == '__main__':
    main()
