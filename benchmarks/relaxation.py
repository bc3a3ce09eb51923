"""Benchmark of the relaxed projection (DNT, lecture 004). Measured within one run on a shared, noisy machine.

1. Thm 4.5 sweep: all parities of degree <= 2 on d binary attributes (correlated records), n from 10 to 2560,
   rho=0.5, several noise draws: parity MSE of the relaxation vs sigma^2 (Gaussian) vs Thm 4.5's bound.
2. Marginals on real binary data (NLTCS, 16 attributes) if present: all 2-way marginals, relaxation vs the
   Gaussian mechanism on the marginal cells and vs the marginals rebuilt from the noisy parities.
3. One 3-way case (k=3, small d): the odd split u in [d+1]^2, v in [d+1].

Usage: python benchmarks/relaxation.py [--dims 4 6 8 10] [--seeds 5] [--data ../shared/data] [--out benchmarks/results_relaxation.md]
"""
import argparse, math, time
from itertools import combinations
from pathlib import Path
import numpy as np
from dpnotes.privacy import Budget
from dpnotes.histograms import Dataset, Domain, Marginals, rmse, gaussian_mechanism
from dpnotes.relaxation import (TupleMap, parity_answers, relaxed_parities, width_bound, relaxation_mechanism,
                                marginals_from_parities)


def correlated(d, n, rng):
    z = rng.random((n, 1)) < 0.5
    return (rng.random((n, d)) < np.where(z, 0.85, 0.2)).astype(np.int64)


def sweep(dims, seeds, lines, k=2, ns=(10, 40, 160, 640, 2560), rho=0.5):
    lines += [f"## Thm 4.5: parities of degree <= {k}, rho={rho}, {seeds} draws", "",
              "| d | n | m | sigma | MSE relaxation | sigma^2 (Gaussian) | Thm 4.5 bound | FW steps (max) | s / release |",
              "|---|---|---|---|---|---|---|---|---|"]
    for d in dims:
        sets = [T for j in range(1, k + 1) for T in combinations(range(d), j)]
        tm, m = TupleMap(d, k, sets), len(sets)
        for n in ns:
            rec = correlated(d, n, np.random.default_rng(10 * d + n)); y = parity_answers(rec, sets)
            mse, gaps, its, secs = [], [], [], []
            for s in range(seeds):
                res, plan, noisy, _, _ = relaxed_parities(rec, sets, rho, rng=np.random.default_rng(s))
                mse.append(np.mean((res.answers - y) ** 2)); gaps.append(res.gap); its.append(res.iterations); secs.append(res.seconds)
            sig = plan.scale; bound = (sig * width_bound(tm) + max(gaps)) / m
            lines.append(f"| {d} | {n} | {m} | {sig:.4f} | {np.mean(mse):.3e} | {sig**2:.3e} | {bound:.3e} | {max(its)} | {np.mean(secs):.2f} |")
            print(lines[-1], flush=True)
    lines.append("")


def nltcs(data_dir, seeds, lines):
    path = data_dir / 'nltcs' / 'nltcs.csv'
    if not path.exists():
        lines += ["## NLTCS: data not found, skipped", ""]; return
    data = Dataset.from_csv(path, data_dir / 'nltcs' / 'nltcs-domain.json')
    wl = Marginals.all_kway(data.domain, 2); truth = wl.answer(data)
    lines += [f"## NLTCS: n={data.n}, d={len(data.domain)}, all 2-way marginals ({wl.shape[0]} cells)", "",
              "| epsilon | relaxation RMSE | noisy parities -> marginals RMSE | Gaussian on cells RMSE | s / release |", "|---|---|---|---|---|"]
    for eps in (0.1, 1.0):
        b = Budget.approx(eps, 1e-9); r, p, g, t = [], [], [], []
        for s in range(seeds):
            rel = relaxation_mechanism(data, wl, b, rng=np.random.default_rng(s))
            r.append(rmse(rel.answers, truth)); t.append(rel.seconds)
            p.append(rmse(marginals_from_parities(rel.info['noisy_parities'], rel.info['sets'], wl), truth))
            g.append(rmse(gaussian_mechanism(data, wl, b, rng=np.random.default_rng(s)).answers, truth))
        lines.append(f"| {eps} | {np.mean(r):.5f} | {np.mean(p):.5f} | {np.mean(g):.5f} | {np.mean(t):.1f} |")
        print(lines[-1], flush=True)
    lines.append("")


if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    ap.add_argument('--dims', type=int, nargs='+', default=[4, 6, 8, 10])
    ap.add_argument('--seeds', type=int, default=5)
    ap.add_argument('--data', type=Path, default=Path('../shared/data'))
    ap.add_argument('--out', type=Path, default=None)
    a = ap.parse_args()
    lines = ["# Relaxed projection (benchmarks/relaxation.py)", "", f"cvxpy (Clarabel) elliptope oracle; {time.strftime('%Y-%m-%d')}", ""]
    sweep(a.dims, a.seeds, lines)
    sweep([3, 4], max(2, a.seeds // 2), lines, k=3, ns=(10, 160, 2560))
    nltcs(a.data, max(1, a.seeds // 2), lines)
    text = "\n".join(lines) + "\n"
    if a.out: a.out.write_text(text)
    print(text)
