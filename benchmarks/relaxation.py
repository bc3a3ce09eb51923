"""Benchmark of the relaxed projection (DNT, lecture 004). Measured within one run on a shared, noisy machine.

1. Thm 4.5 sweep: all parities of degree <= 2 on d binary attributes (correlated records), n from 10 to 2560,
   rho=0.5, several noise draws: parity MSE of the relaxation vs sigma^2 (Gaussian) vs Thm 4.5's bound.
2. Marginals on real binary data (NLTCS, 16 attributes) if present: all 2- and 3-way marginals at eps 0.1 and 1,
   relaxation vs the Gaussian mechanism on the marginal cells and vs the marginals rebuilt from the noisy parities.
   `--example` prints one release: all 3-way marginals at eps=1 (no assertions).
3. One 3-way case (k=3, small d): the odd split u in [d+1]^2, v in [d+1].

Usage: python benchmarks/relaxation.py [--dims 4 6 8 10] [--seeds 5] [--data ../shared/data] [--out benchmarks/results_relaxation.md]
       [--nltcs-only] [--example]
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


def nltcs(data_dir, seeds, lines, ks=(2, 3), epsilons=(0.1, 1.0)):
    path = data_dir / 'nltcs' / 'nltcs.csv'
    if not path.exists():
        lines += ["## NLTCS: data not found, skipped", ""]; return
    data = Dataset.from_csv(path, data_dir / 'nltcs' / 'nltcs-domain.json')
    lines += [f"## NLTCS: n={data.n}, d={len(data.domain)}, delta=1e-9, {seeds} seeds (noise seeds 0..{seeds - 1})", "",
              "Default options (fully corrective Frank-Wolfe, warm-started MixingOracle, tol=0.1). RMSE over the marginal "
              "cells, the same `rmse` for every column; the Gaussian mechanism answers the cells directly (replace-one, same budget).", "",
              "| k | cells | parities | epsilon | relaxation RMSE | noisy parities -> marginals RMSE | Gaussian mechanism RMSE | FW steps | converged | s / release |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    for k in ks:
        wl = Marginals.all_kway(data.domain, k); truth = wl.answer(data)
        for eps in epsilons:
            b = Budget.approx(eps, 1e-9); r, p, g, t, it, ok = [], [], [], [], [], []
            for s in range(seeds):
                rel = relaxation_mechanism(data, wl, b, rng=np.random.default_rng(s))
                r.append(rmse(rel.answers, truth)); t.append(rel.seconds); it.append(rel.info['iterations'])
                ok.append(rel.info['converged'])
                p.append(rmse(marginals_from_parities(rel.info['noisy_parities'], rel.info['sets'], wl), truth))
                g.append(rmse(gaussian_mechanism(data, wl, b, rng=np.random.default_rng(s)).answers, truth))
            lines.append(f"| {k} | {wl.shape[0]} | {len(rel.info['sets'])} | {eps} | {np.mean(r):.5f} | {np.mean(p):.5f} | "
                         f"{np.mean(g):.5f} | {min(it)}-{max(it)} | {sum(ok)}/{seeds} | {np.mean(t):.1f} (max {max(t):.1f}) |")
            print(lines[-1], flush=True)
    lines.append("")


def example(data_dir):
    "NLTCS, all 3-way marginals, epsilon=1, delta=1e-9: one release, printed (no assertions)."
    path = data_dir / 'nltcs' / 'nltcs.csv'
    if not path.exists():
        print("NLTCS not found: example skipped"); return
    data = Dataset.from_csv(path, data_dir / 'nltcs' / 'nltcs-domain.json')
    wl, b = Marginals.all_kway(data.domain, 3), Budget.approx(1.0, 1e-9)
    rel = relaxation_mechanism(data, wl, b, rng=np.random.default_rng(0))
    gau = gaussian_mechanism(data, wl, b, rng=np.random.default_rng(0))
    truth = wl.answer(data)
    print(f"NLTCS all 3-way marginals ({wl.shape[0]} cells, {len(rel.info['sets'])} parities), eps=1, delta=1e-9:")
    print(f"  relaxation: RMSE {rmse(rel.answers, truth):.5f}, {rel.info['iterations']} Frank-Wolfe steps, "
          f"certified gap {rel.info['gap']:.3g} <= target {rel.info['target']:.3g}, {rel.seconds:.1f} s")
    print(f"  Gaussian mechanism: RMSE {rmse(gau.answers, truth):.5f}")


if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    ap.add_argument('--dims', type=int, nargs='+', default=[4, 6, 8, 10])
    ap.add_argument('--seeds', type=int, default=5)
    ap.add_argument('--data', type=Path, default=Path('../shared/data'))
    ap.add_argument('--out', type=Path, default=None)
    ap.add_argument('--nltcs-only', action='store_true', help='only the NLTCS table (2- and 3-way, eps 0.1 and 1)')
    ap.add_argument('--example', action='store_true', help='only the printed NLTCS 3-way eps=1 example')
    a = ap.parse_args()
    if a.example:
        example(a.data); raise SystemExit
    lines = ["# Relaxed projection (benchmarks/relaxation.py)", "", f"default oracle (warm-started MixingOracle), fully corrective Frank-Wolfe; {time.strftime('%Y-%m-%d')}", ""]
    if not a.nltcs_only:
        sweep(a.dims, a.seeds, lines)
        sweep([3, 4], max(2, a.seeds // 2), lines, k=3, ns=(10, 160, 2560))
    nltcs(a.data, a.seeds if a.nltcs_only else max(1, a.seeds // 2), lines)
    text = "\n".join(lines) + "\n"
    if a.out: a.out.write_text(text)
    print(text)
