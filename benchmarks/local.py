"""Benchmark of the local-consistency projection (`local`, nbs/19_local). Ratios are measured within one run (shared machine).

1. Accuracy: RMSE and max error (over every cell of every table), mean over seeds, of gaussian, gaussian with each table
   projected on its simplex (the command line's --postprocess simplex), factorization, projection (where the universe or
   its junction tree fits; otherwise the reason it refused) and local, at eps=1, delta=1e-9, all 2-way marginals, on
   the default dataset and on adult and NLTCS from --data (skipped when missing); local/factorization is local with
   base='factorization', local/gaussian with base='gaussian', and local/no-threshold is local/gaussian without
   `sparse_threshold`; local itself is the default, base='auto', whose choice (`choose_base`, from public inputs) and
   spread are printed above each table; its body (base='auto' and body='auto': the marginal polytope when the universe
   has at most 2^18 cells, the local relaxation otherwise) is in the note column, and local/relaxation is the default
   with body='local' (the relaxation on every universe); local/no-shrink is the default with shrink=None (no
   shrinkage toward each table's sub-margins, which shrink='auto' applies on the relaxation body). Same seed, same noise: local/gaussian's noisy answers are gaussian's
   (local/factorization's are factorization's), so gaussian / simplex / local/gaussian differ by post-processing only.
   NLTCS also with all 3-way marginals, where L is larger than M; adult also on its 7 attributes of the peers table
   (sub7), and a sparse synthetic table (an attribute of 300 values of which the records use four, beside three
   binary ones, as in nbs/19_local).
2. Speed: local_projection against cvxpy (Clarabel at its default tolerances and at TIGHT = 1e-12) on the noisy tables
   of a medium case (all 2-way marginals of adult's first --cvxpy-attrs attributes), objective gap and time ratio.

Usage: python benchmarks/local.py [--data ../shared/data] [--seeds 3] [--cvxpy-attrs 7] [--out benchmarks/results_local.md]
"""
import argparse
import datetime
import math
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

from dpnotes.cli_output import postprocess
from dpnotes.data import Dataset, default_dataset
from dpnotes.ingest import read_csv
from dpnotes.data import Domain
from dpnotes.local import choose_base, factorization_spread, local_projection
from dpnotes.local_solvers import TIGHT, cvxpy_local_projection
from dpnotes.measurements import Measurement
from dpnotes.privacy import Budget
from dpnotes import MECHANISMS
from dpnotes.workloads import Marginals, max_error, rmse

BUDGET = Budget.approx(1.0, 1e-9)  # eps=1, delta=1e-9 throughout
NAMES = ['gaussian', 'simplex', 'factorization', 'projection', 'local', 'local/no-shrink', 'local/relaxation',
         'local/gaussian', 'local/no-threshold', 'local/factorization']


def load(data_dir, name):
    "adult or nltcs from the shared data folder, or None when the files are missing."
    csv, dom = data_dir / name / f'{name}.csv', data_dir / name / f'{name}-domain.json'
    return read_csv(csv, dom) if csv.exists() and dom.exists() else None


def run(name, data, wl, budget, seed):
    "(answers, seconds, note) of one mechanism; note is the refusal's first line when it refuses."
    t0 = time.perf_counter()
    try:
        if name == 'simplex':
            rel = MECHANISMS['gaussian'](data, wl, budget, rng=np.random.default_rng(seed))
            return postprocess('simplex', wl, rel.answers), time.perf_counter() - t0, ''
        opts = {'local/factorization': {'base': 'factorization'}, 'local/gaussian': {'base': 'gaussian'},
                'local/no-threshold': {'base': 'gaussian', 'threshold': None},
                'local/relaxation': {'body': 'local'}, 'local/no-shrink': {'shrink': None}}.get(name, {})
        rel = MECHANISMS[name.split('/')[0]](data, wl, budget, rng=np.random.default_rng(seed), **opts)
        note = '' if not name.startswith('local') else (f"{rel.info['body']}, {rel.info['iterations']} it, "
                                                        f"residual {rel.info['residual']:.0e}"
                                                        + (", shrunk" if rel.info.get('shrink') else ''))
        return rel.answers, time.perf_counter() - t0, note
    except (ValueError, MemoryError, TypeError) as e:
        return None, time.perf_counter() - t0, str(e).splitlines()[0][:100].replace('|', '\\|')


def accuracy(label, data, seeds, lines, budget=BUDGET, k=2, names=NAMES):
    "One table: every mechanism's mean RMSE, max error and seconds over the seeds."
    wl = Marginals.all_kway(data.domain, k)
    truth = wl.answer(data)
    lines += [(f"## {label}: n={data.n}, {len(data.domain)} attributes, |X|={math.prod(data.domain.shape):.3g}, "
              f"all {k}-way marginals ({len(wl.cliques)} tables, {wl.shape[0]} cells), eps=1, delta=1e-9, {seeds} seeds"), "",
              "| mechanism | RMSE (mean ± sd) | max error (mean ± sd) | mean over tables of the table's max error | seconds (mean) | note |",
              "|---|---|---|---|---|---|"]
    lines[-3:-3] = [f"base='auto' chooses **{choose_base(wl)}**: factorization_spread = {factorization_spread(wl):.3f} "
                    "(the factorization base when at most 2)", ""]
    stats = {}
    for name in names:
        r, m, t, s, note = [], [], [], [], ''
        for seed in range(seeds):
            a, sec, note = run(name, data, wl, budget, seed)
            if a is None:
                break
            r.append(rmse(a, truth)); m.append(max_error(a, truth)); s.append(sec)
            t.append(np.mean([np.abs(x - y).max() for x, y in zip(wl.blocks(a), wl.blocks(truth))]))
        if not r:
            lines.append(f"| {name} | refused | | | {np.mean(s) if s else sec:.2f} | {note} |"); continue
        stats[name] = (np.mean(r), np.mean(m), np.mean(t))
        lines.append(f"| {name} | {np.mean(r):.6f} ± {np.std(r):.6f} | {np.mean(m):.5f} ± {np.std(m):.5f} | "
                     f"{np.mean(t):.5f} | {np.mean(s):.2f} | {note} |")
        print(lines[-1], flush=True)
    (rg, mg, tg), (rl, ml, tl) = stats['gaussian'], stats['local']  # local: base='auto'
    best = [min(stats, key=lambda k: stats[k][i]) for i in range(3)]
    lines += ["", (f"local / gaussian: RMSE {rl / rg:.2f}x, max error {ml / mg:.2f}x, mean table max error {tl / tg:.2f}x; "
              f"best RMSE: {best[0]}, best max error: {best[1]}, best mean table max error: {best[2]}"), ""]
    return stats


def speed(data, attrs, lines, budget=BUDGET):
    "local_projection against cvxpy on the noisy tables of all 2-way marginals of the first `attrs` attributes."
    sub = data.project(data.domain.attrs[:attrs])
    wl = Marginals.all_kway(sub.domain, 2)
    rel = MECHANISMS['gaussian'](sub, wl, budget, rng=np.random.default_rng(0))
    ms = [Measurement(c, b, rel.sigma) for c, b in zip(wl.cliques, wl.blocks(rel.answers))]
    local_projection(ms, sub.domain)  # compiled outside the timing
    ours = local_projection(ms, sub.domain)
    lines += [(f"## Speed: all 2-way marginals of adult's first {attrs} attributes ({len(wl.cliques)} tables, "
              f"{wl.shape[0]} cells), noisy Gaussian tables at eps=1"), "",
              "| solver | seconds | objective | (objective - ours) / ours | max residual | time / ours |", "|---|---|---|---|---|---|",
              f"| local_projection (tol 1e-9) | {ours.seconds:.3f} | {ours.objective:.10g} | 0 | {ours.residual:.1e} | 1 |"]
    for tag, settings in [('default tolerances', {'tol_gap_abs': 1e-8, 'tol_gap_rel': 1e-8, 'tol_feas': 1e-8}),
                          ('TIGHT, 1e-12', TIGHT)]:
        ref = cvxpy_local_projection(ms, sub.domain, **settings)
        lines.append(f"| cvxpy Clarabel, {tag} | {ref.seconds:.3f} | {ref.objective:.10g} | "
                     f"{(ref.objective - ours.objective) / ours.objective:.1e} | {ref.residual:.1e} | "
                     f"{ref.seconds / ours.seconds:.0f}x |")
        print(lines[-1], flush=True)
    lines.append("")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--data', type=Path, default=Path(__file__).resolve().parents[2] / 'shared' / 'data')
    ap.add_argument('--seeds', type=int, default=3)
    ap.add_argument('--cvxpy-attrs', type=int, default=7)
    ap.add_argument('--out', type=Path, default=None)
    args = ap.parse_args()
    lines = ["# Local-consistency projection benchmark", "",
             f"Command: `python {' '.join(sys.argv)}`  ", (f"Date: {datetime.date.today()} UTC, {platform.machine()}, "
             f"{os.cpu_count()} cores shared, load {os.getloadavg()[0]:.1f} at start"), ""]
    warm = default_dataset(200)  # compile the kernels (cached on disk) outside every timing
    MECHANISMS['local'](warm, Marginals.all_kway(warm.domain, 2), BUDGET, rng=np.random.default_rng(99))
    accuracy('default_dataset (synthetic, 5000 records)', default_dataset(), args.seeds, lines)
    rs = np.random.default_rng(7)  # the sparse example of nbs/19_local
    recs = np.column_stack([rs.choice(4, 5000, p=[0.4, 0.3, 0.2, 0.1]), rs.integers(0, 2, (5000, 3))])
    sparse = Dataset(recs, Domain.from_dict({'w': 300, 'b1': 2, 'b2': 2, 'b3': 2}))
    accuracy('sparse (synthetic, 5000 records, an attribute of 300 values of which four are used)', sparse, args.seeds,
             lines)
    for name in ('adult', 'nltcs'):
        data = load(args.data, name)
        if data is None:
            lines += [f"## {name}: skipped, no data under {args.data / name}", ""]
            continue
        accuracy(name, data, args.seeds, lines)
        if name == 'adult':
            speed(data, args.cvxpy_attrs, lines)
            sub7 = ['workclass', 'marital-status', 'relationship', 'race', 'sex', 'income>50K', 'education-num']
            accuracy('adult, 7 attributes (sub7 of the peers table)', data.project(sub7), args.seeds, lines)
        if name == 'nltcs':  # 3-way: the relaxation is no longer tight
            accuracy(name, data, args.seeds, lines, k=3,
                     names=['gaussian', 'factorization', 'projection', 'local', 'local/relaxation', 'local/gaussian',
                            'local/factorization', 'local/no-shrink'])
    lines.append(f"Load at the end: {os.getloadavg()[0]:.1f}.")
    text = '\n'.join(lines) + '\n'
    print(text)
    if args.out:
        args.out.write_text(text)


if __name__ == '__main__':
    main()
