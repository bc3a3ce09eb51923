"""The local projection's dual ascent with and without skipping rows (`local_solvers.sparse_duals`): a row
whose bound (its largest value when last formed, raised by how far its duals moved since) is at or below the
candidates' threshold is not formed.

For each data set and seed, `local` runs with its defaults (add/remove neighbours, max_records=10^6,
(eps, 1e-9)-DP, seeded noise) up to its projection, and the tables it would project are taken there. On them
the ascent runs for `CONFIG.work_limit // cells` iterations (as in a release) two ways, in the same process,
alternating which goes first: as `run_ascent` runs it (the rows' bounds kept from one iteration to the next),
and as a reference that sets every bound to +inf before each evaluation (every row formed: the work before
rows were skipped). Both must reach the same duals bit for bit (checked). Printed: seconds of each (best of
--reps), their ratio, and the share of rows formed per evaluation with the bounds kept. adult 3-way is where
it was written; adult_hd 3-way and adult 2-way are tables it was not written for.

Usage: python benchmarks/local_sparse.py [--data ../shared/data] [--seeds 0 1] [--reps 2]
       [--cases adult:3 adult_hd:3 adult:2]
"""
import argparse
import time
import warnings
from pathlib import Path

import numpy as np

import dpnotes.local as local
import dpnotes.local_solvers as ls
from dpnotes import MECHANISMS
from dpnotes.ingest import read_csv
from dpnotes.privacy import Budget
from dpnotes.workloads import Marginals

FILES = {'adult': ('adult', 'adult'), 'adult_hd': ('adult_hd', 'adult')}
CHUNK = 50  # `run_ascent`'s default chunk of iterations
TOL = 1e-9  # `local`'s tolerance (its default)


class _Taken(Exception):
    "Raised by the wrapper below once it has the projection's input: the release stops there."


def case_data(folder: Path, case: str):
    "(data, workload) of a case 'name:k': the data set's records and all its k-way marginals."
    name, way = case.split(':')
    sub, stem = FILES[name]
    csv, dom = folder / sub / f"{stem}.csv", folder / sub / f"{stem}-domain.json"
    if not (csv.exists() and dom.exists()):
        raise SystemExit(f"{name} not found under {folder}")
    data = read_csv(csv, dom)
    return data, Marginals.all_kway(data.domain, int(way))


def projection_input(data, wl, seed, eps):
    "The (measurements, domain) `local` passes to `local_projection` on this seed's noise."
    taken = []

    def take(ms, domain, **kw):
        taken.append((ms, domain))
        raise _Taken

    real, local.local_projection = local.local_projection, take
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            MECHANISMS['local'](data, wl, Budget.approx(eps, 1e-9), rng=np.random.default_rng(seed),
                                neighbours='add-remove', max_records=10**6)
    except _Taken:
        pass
    finally:
        local.local_projection = real
    if not taken:
        raise SystemExit("local did not reach its projection (a body other than 'local' was chosen)")
    return taken[0]


def problem(ms, domain):
    "The ascent's arrays, as `local_projection` builds them."
    cliques, tables, sigma = ls.as_tables(ms, domain)
    S, y = ls.local_structure(domain, cliques), ls.joined(tables)
    w = (sigma.min() / sigma) ** 2
    a = 2 * w[S.arrays[1]] / S.scales
    return S, y, w, a, np.repeat(a, np.diff(S.arrays[3]))


def kept(S, y, w, a, steps, iters):
    "`run_ascent` itself: (seconds, duals)."
    lam = np.zeros(S.n_duals)
    t = time.perf_counter()
    ls.run_ascent(y, w, S.arrays, a, steps, TOL, iters, lam)
    return time.perf_counter() - t, lam


def reset(S, y, w, a, steps, iters, shares=None):
    """`_ascent`'s loop with every row's bound set to +inf before each evaluation (`shares`: a list to append
    the share of rows formed to, run with the bounds kept instead): (seconds, duals)."""
    lam = np.zeros(S.n_duals)
    mu, taus, t_mom = lam.copy(), np.full(len(w), -np.inf), 1.0
    x, r, prev = np.empty_like(y), np.empty_like(lam), np.empty_like(lam)
    G, rows, dtau = ls._groups(S.arrays), ls._row_offsets(S.arrays)[-1], np.zeros(len(w))
    t = time.perf_counter()
    for it in range(1, iters + 1):
        if (it - 1) % CHUNK == 0:  # a new run of `_ascent` in `run_ascent`: new bounds
            Z = ls.sparse_state(y, S.arrays, lam)
        for point in (mu, lam) if it % 10 == 0 else (mu,):
            if shares is None:
                Z[3][:] = np.inf
            out = ls.sparse_duals(point, y, w, S.arrays, a, x, r, taus, dtau, Z, G)
            if shares is not None:
                shares.append(out[2] / rows)
            if point is mu:
                t_mom = ls._nesterov(lam, prev, mu, r, steps, t_mom)
        if it % 10 == 0:  # `_ascent`'s test of convergence, at lam
            if np.max(np.abs(r)) <= TOL / 2 and abs(ls._dot(lam, r)) <= TOL * max(out[0], 1.0):
                break
    ls.evaluate_duals(lam, y, w, S.arrays, a, x, r, taus)  # x at the end, as `run_ascent` returns it
    return time.perf_counter() - t, lam


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--data', type=Path, default=Path(__file__).resolve().parents[2] / 'shared' / 'data')
    ap.add_argument('--seeds', type=int, nargs='+', default=[0, 1])
    ap.add_argument('--reps', type=int, default=2)
    ap.add_argument('--eps', type=float, default=1.0)
    ap.add_argument('--cases', nargs='+', default=['adult:3', 'adult_hd:3', 'adult:2'])
    args = ap.parse_args()
    print(f"{'case':11s} {'seed':>4s} {'cells':>10s} {'iters':>5s} {'kept s':>7s} {'reset s':>7s} "
          f"{'ratio':>6s} {'rows formed':>11s}")
    ratios = []
    for case in args.cases:
        data, wl = case_data(args.data, case)
        iters = local.auto_iterations(wl.shape[0])
        for seed in args.seeds:
            S, y, w, a, steps = problem(*projection_input(data, wl, seed, args.eps))
            kept(S, y, w, a, steps, 2), reset(S, y, w, a, steps, 2)  # compiled before timing
            tk, tr = [], []
            for rep in range(args.reps):  # alternated: a slow minute of the machine hits both
                for f, out in ((kept, tk), (reset, tr))[:: 1 if rep % 2 == 0 else -1]:
                    out.append(f(S, y, w, a, steps, iters))
            if not all(np.array_equal(tk[0][1], v[1]) for v in tk + tr):
                raise SystemExit(f"{case} seed {seed}: the two ascents reached different duals")
            shares = []
            reset(S, y, w, a, steps, iters, shares)
            k, rr = min(v[0] for v in tk), min(v[0] for v in tr)
            ratios.append(rr / k)
            print(f"{case:11s} {seed:4d} {y.size:10,d} {iters:5d} {k:7.2f} {rr:7.2f} {rr / k:6.2f} "
                  f"{np.mean(shares[1:]):11.2f}", flush=True)
    print(f"\nreset / kept: {min(ratios):.2f}-{max(ratios):.2f}x over {len(ratios)} runs "
          "(the same duals, bit for bit)")


if __name__ == '__main__':
    main()
