"""`local`'s split of the budget on adult's all 3-way marginals: the adaptive model's share of the zCDP budget
(`dpnotes.local.CONFIG.model_share`, 0.3) against the tables' share, measured.

For each share f in --shares and each seed, `local` (its defaults: Gaussian tables shrunk toward the model's
marginals, the model topped up with the pairs the tables say it misses on TOPUP_SHARE of the budget, then projected
onto the local relaxation) is run with the model on f rho and the tables on the rest but the top-up's,
and `adaptive` alone on f rho (what the shrinkage's target is worth by itself) and on the whole rho. Add/remove
neighbours with the public bound max_records=10^6, (eps, 1e-9)-DP, RMSE and max error over all 20.9 million cells
against the true fractions. The share is `local_mechanism`'s option `model_share`; every other argument is the
mechanism's default. `adaptive` on the share alone gets what `local`'s model gets: the record count n_hat drawn
from the same part of the whole budget (`total_share`), then f of the rest. A share f needs
f + TOPUP_SHARE < 1 (0.9 was measured before the top-up: benchmarks/RESULTS.md).

Usage: python benchmarks/local_share.py [--data ../shared/data] [--eps 0.5] [--shares 0.3 0.6 0.8] [--seeds 0 1 2]
"""
import argparse
import time
import warnings
from pathlib import Path

import numpy as np

from dpnotes.ingest import read_csv
from dpnotes.privacy import Budget
from dpnotes.projection_solvers import ConvergenceWarning
from dpnotes.releases import split_total
from dpnotes import MECHANISMS
from dpnotes.workloads import Marginals, max_error, rmse
import dpnotes.local as local

KW = dict(neighbours='add-remove', max_records=10**6)


def run(name, data, wl, budget, seed, truth, **kw):
    "(RMSE, max error, seconds) of one release."
    t = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', ConvergenceWarning)
        rel = MECHANISMS[name](data, wl, budget, rng=np.random.default_rng(seed), **KW, **kw)
    return rmse(rel.answers, truth), max_error(rel.answers, truth), time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--data', type=Path, default=Path(__file__).resolve().parents[2] / 'shared' / 'data')
    ap.add_argument('--eps', type=float, default=0.5)
    ap.add_argument('--shares', type=float, nargs='+', default=[0.3, 0.6, 0.8])
    ap.add_argument('--seeds', type=int, nargs='+', default=[0, 1, 2])
    args = ap.parse_args()
    csv, dom = args.data / 'adult' / 'adult.csv', args.data / 'adult' / 'adult-domain.json'
    if not (csv.exists() and dom.exists()):
        raise SystemExit(f"adult not found under {args.data}")
    data = read_csv(csv, dom)
    wl, budget = Marginals.all_kway(data.domain, 3), Budget.approx(args.eps, 1e-9)
    truth, (count, rest) = wl.answer(data), split_total(budget)
    print(f"adult all 3-way: {len(wl.cliques)} tables, {wl.shape[0]} cells, eps={args.eps}, delta=1e-9, add/remove")
    print(f"{'share':>5s} {'release':28s} {'mean RMSE':>10s} {'max err':>8s} {'seconds':>8s}  per seed (RMSE)")

    def show(f, label, res):
        r = np.array(res)
        seeds = ' '.join(f"{x:.3e}" for x in r[:, 0])
        print(f"{f:5.2f} {label:28s} {r[:, 0].mean():10.3e} {r[:, 1].mean():8.4f} {r[:, 2].mean():8.1f}  {seeds}",
              flush=True)

    show(1.0, 'adaptive, whole budget', [run('adaptive', data, wl, budget, s, truth) for s in args.seeds])
    for f in args.shares:
        show(f, 'local', [run('local', data, wl, budget, s, truth, model_share=f) for s in args.seeds])
        part = count + local.split_rho(Budget.zcdp(rest), f)[0].to_rho()  # the count's part and the model's
        alone = [run('adaptive', data, wl, Budget.zcdp(part), s, truth, total_share=count / part) for s in args.seeds]
        show(f, 'adaptive on the share alone', alone)


if __name__ == '__main__':
    main()
