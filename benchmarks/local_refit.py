"""`local`'s top-up refit (`dpnotes.local.CONFIG.refit_iters`): how many mirror-descent steps the model needs when
the pairs the tables say it misses are refitted into it, measured by the answers it leads to.

With shrink='model' (the default), the adaptive model is refitted to its own measurements and the top-up's pairs
(warm-started at its potentials) and its marginals become the shrinkage's targets. For each data set, seed and
step count in --iters, `local` runs with every other argument at its default, on the same seeded noise (only the
refit's step limit differs), add/remove neighbours with the public bound max_records=10^6, (eps, 1e-9)-DP. Printed:
RMSE and max error over all cells of the all-k-way workload (--way, 3 by default) against the true fractions,
the refit's seconds and final loss, and the release's seconds. adult is the set the value was chosen on; adult_hd
(coarser bins, 455 tables) and NLTCS (16 binary attributes, 560 tables) were not used to choose it.

Usage: python benchmarks/local_refit.py [--data ../shared/data] [--eps 1] [--iters 50 200] [--seeds 0 1 2]
       [--datasets adult adult_hd nltcs] [--way 3]
"""
import argparse
import dataclasses
import time
import warnings
from pathlib import Path

import numpy as np

from dpnotes.ingest import read_csv
from dpnotes.privacy import Budget
from dpnotes import MECHANISMS
from dpnotes.workloads import Marginals, max_error, rmse
import dpnotes.local as local

FILES = {'adult': ('adult', 'adult'), 'adult_hd': ('adult_hd', 'adult'), 'nltcs': ('nltcs', 'nltcs')}
REFITS = []  # (seconds, steps, loss) of each top-up refit, appended by the wrapper below
_estimate = local.estimate


def _timed_estimate(*args, **kw):
    "`local`'s model estimator, timed (the top-up's refit is the only call from `local`'s own module)."
    t = time.perf_counter()
    model = _estimate(*args, **kw)
    REFITS.append((time.perf_counter() - t, model.iterations, model.loss))
    return model


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--data', type=Path, default=Path(__file__).resolve().parents[2] / 'shared' / 'data')
    ap.add_argument('--eps', type=float, default=1.0)
    ap.add_argument('--iters', type=int, nargs='+', default=[50, 200])
    ap.add_argument('--seeds', type=int, nargs='+', default=[0, 1, 2])
    ap.add_argument('--datasets', nargs='+', default=list(FILES), choices=list(FILES))
    ap.add_argument('--way', type=int, default=3)
    args = ap.parse_args()
    local.estimate = _timed_estimate
    default = local.CONFIG
    print(f"{'data':8s} {'seed':>4s} {'iters':>5s} {'RMSE':>9s} {'max err':>8s} {'refit s':>7s} {'steps':>5s} "
          f"{'loss':>9s} {'pairs':>5s} {'release s':>9s}")
    summary = {}
    for name in args.datasets:
        folder, stem = FILES[name]
        csv, dom = args.data / folder / f"{stem}.csv", args.data / folder / f"{stem}-domain.json"
        if not (csv.exists() and dom.exists()):
            raise SystemExit(f"{name} not found under {args.data}")
        data = read_csv(csv, dom)
        wl, budget = Marginals.all_kway(data.domain, args.way), Budget.approx(args.eps, 1e-9)
        truth = wl.answer(data)
        for seed in args.seeds:
            for k in args.iters:
                local.CONFIG, REFITS[:] = dataclasses.replace(default, refit_iters=k), []
                t = time.perf_counter()
                with warnings.catch_warnings():
                    warnings.simplefilter('ignore')
                    rel = MECHANISMS['local'](data, wl, budget, rng=np.random.default_rng(seed),
                                              neighbours='add-remove', max_records=10**6)
                secs = time.perf_counter() - t
                e, m = rmse(rel.answers, truth), max_error(rel.answers, truth)
                rs, steps, loss = REFITS[-1] if REFITS else (0.0, 0, float('nan'))
                summary.setdefault((name, k), []).append((e, m, rs))
                print(f"{name:8s} {seed:4d} {k:5d} {e:9.3e} {m:8.5f} {rs:7.2f} {steps:5d} {loss:9.4g} "
                      f"{len(rel.info.get('topup_pairs', [])):5d} {secs:9.1f}", flush=True)
    local.CONFIG = default
    print("\nmean over seeds")
    for (name, k), rows in summary.items():
        r = np.array(rows)
        refit = r[r[:, 2] > 0, 2]  # the runs that refitted
        took = f"refit {refit.mean():.2f} s in {len(refit)} runs" if len(refit) else "no refit"
        print(f"{name:8s} iters={k:<4d} RMSE {r[:, 0].mean():.3e}  max err {r[:, 1].mean():.5f}  {took}")


if __name__ == '__main__':
    main()
