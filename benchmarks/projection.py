"""Benchmark of the projection mechanism (issue 5). Ratios are measured within one run (shared, noisy machine).

1. NLTCS, all 3-way marginals: Gaussian vs projection, RMSE / max error / seconds, 5 seeds, eps in {0.5, 1}, delta=1e-9.
2. Our default solver vs cvxpy (Clarabel) on 3-way marginals over d binary attributes: objective and time.
3. The three solvers (active set, FISTA, Frank-Wolfe) on one instance; active set vs FISTA on larger ones (--fista-dims).
4. Scaling: seconds per projection for |X| = 2^12 .. 2^20 (all 3-way marginals on d binary attributes).

Usage: python benchmarks/projection.py [--data ../shared/data] [--cvxpy-dims 12 13] [--max-dim 20] [--fista-dims 14 16 18] [--out benchmarks/results_projection.md]
"""
import argparse, functools, math, sys, time, warnings
from itertools import combinations
from pathlib import Path
import numpy as np
from dpnotes.privacy import Budget
from dpnotes.ingest import read_csv
from dpnotes.workloads import Marginals, rmse, max_error
from dpnotes.histograms import gaussian_mechanism
from dpnotes.projection import projection_mechanism
from dpnotes.projection_solvers import ConvergenceWarning, cvxpy_projection, project
from dpnotes.projection_operators import MarginalOperator


def latent_class_histogram(d, n, rng):
    "Empirical histogram of n records from a 3-class latent model on d binary attributes."
    z = rng.integers(0, 3, n); probs = rng.random((3, d))
    X = (rng.random((n, d)) < probs[z]).astype(np.int64)
    return np.bincount(np.ravel_multi_index(X.T, (2,) * d), minlength=2**d) / n


def noisy_instance(d, rng, n=20000, eps=1.0, delta=1e-9):
    "All 3-way marginals on d binary attributes and Gaussian answers with the mechanism's sigma."
    op = MarginalOperator((2,) * d, list(combinations(range(d), 3)))
    h = latent_class_histogram(d, n, rng)
    sigma = Budget.approx(eps, delta).gaussian_sigma(math.sqrt(2 * len(op.cliques)) / n)
    return op, op.matvec(h) + sigma * rng.normal(size=op.shape[0])


def nltcs(data_dir, lines, seeds=5):
    data = read_csv(data_dir / 'nltcs' / 'nltcs.csv', data_dir / 'nltcs' / 'nltcs-domain.json')
    wl = Marginals.all_kway(data.domain, 3); truth = wl.answer(data)
    projection_mechanism(data, wl, Budget.approx(1.0, 1e-9), rng=np.random.default_rng(0))  # compile the kernels outside the timings
    lines += [f"## NLTCS: n={data.n}, |X|={wl.shape[1]}, all 3-way marginals (k={wl.shape[0]}), delta=1e-9, {seeds} seeds", "",
              "| epsilon | mechanism | RMSE (mean ± sd) | max error (mean ± sd) | seconds (mean / max) | solver gap (max) |",
              "|---|---|---|---|---|---|"]
    ok = True
    for eps in [0.5, 1.0]:
        budget = Budget.approx(eps, 1e-9); stats = {}
        for name, mech in [('gaussian', gaussian_mechanism), ('projection', projection_mechanism)]:
            r, m, s, g = [], [], [], []
            for seed in range(seeds):
                rel = mech(data, wl, budget, rng=np.random.default_rng(seed))
                r.append(rmse(rel.answers, truth)); m.append(max_error(rel.answers, truth)); s.append(rel.seconds)
                g.append(rel.info.get('gap', float('nan')))
            stats[name] = (np.array(r), np.array(m), np.array(s))
            lines.append(f"| {eps} | {name} | {np.mean(r):.5f} ± {np.std(r):.5f} | {np.mean(m):.5f} ± {np.std(m):.5f} | "
                         f"{np.mean(s):.2f} / {np.max(s):.2f} | {np.nanmax(g) if name == 'projection' else float('nan'):.1e} |")
        (rg, mg, _), (rp, mp, sp) = stats['gaussian'], stats['projection']
        win = bool(np.all(rp < rg) and np.all(mp < mg) and np.all(sp < 10))
        ok &= win
        lines.append(f"| {eps} | ratio gaussian/projection | {np.mean(rg) / np.mean(rp):.2f}x | {np.mean(mg) / np.mean(mp):.2f}x | "
                     f"every seed: projection better on both, < 10 s: {win} | |")
    lines.append("")
    return ok


def versus_cvxpy(dims, lines):
    lines += ["## Default solver (active_set) vs cvxpy (Clarabel), all 3-way marginals on d binary attributes, n=20000, eps=1", "",
              "| d | \\|X\\| | k | ours (s) | cvxpy (s) | speed-up | objective ours | objective cvxpy | (ours - cvxpy)/cvxpy | our gap |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    ok = True
    for d in dims:
        op, y = noisy_instance(d, np.random.default_rng(d))
        project(op, y)  # compile
        ours = min((project(op, y) for _ in range(3)), key=lambda r: r.seconds)
        ref = cvxpy_projection(op, y)
        rel = (ours.objective - ref.objective) / ref.objective; speed = ref.seconds / ours.seconds
        ok &= abs(rel) <= 1e-6 and speed >= 50 and ours.converged
        lines.append(f"| {d} | {op.shape[1]} | {op.shape[0]} | {ours.seconds:.3f} | {ref.seconds:.2f} | {speed:.0f}x | "
                     f"{ours.objective:.10f} | {ref.objective:.10f} | {rel:.1e} | {ours.gap:.1e} |")
    lines.append("")
    return ok


def solvers(d, lines):
    "The three solvers of the issue on one instance: time and relative gap reached (first-order ones capped)."
    op, y = noisy_instance(d, np.random.default_rng(d))
    lines += [f"## The solvers on one instance: all 3-way marginals on d={d} binary attributes (|X|={2**d}), tol=1e-6", "",
              "| solver | max_iter | seconds | iterations | relative gap | converged |", "|---|---|---|---|---|---|"]
    for name, it in [('active_set', None), ('accelerated', 5000), ('frank_wolfe', 20000)]:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', ConvergenceWarning)
            project(op, y, solver=name, max_iter=2)      # compile the solver's kernels outside the timing
            res = project(op, y, solver=name, max_iter=it)
        lines.append(f"| {name} | {it or 'default'} | {res.seconds:.2f} | {res.iterations} | {res.gap / res.objective:.1e} | {res.converged} |")
    lines.append("")


@functools.lru_cache(maxsize=None)
def default_solve(d):
    "The scaling instance on d binary attributes and its default (active-set) projection, shared by two tables."
    op, y = noisy_instance(d, np.random.default_rng(100 + d))
    return op, y, project(op, y)


def versus_fista(dims, lines):
    "Default solver vs FISTA (accelerated, its default 5000 iterations) on larger instances of the same family."
    lines += ["## Active set vs FISTA (accelerated, max_iter=5000), all 3-way marginals on d binary attributes, tol=1e-6", "",
              "| d | \\|X\\| | active_set (s) | relative gap | FISTA (s) | iterations | relative gap | FISTA converged | FISTA / active_set |",
              "|---|---|---|---|---|---|---|---|---|"]
    for d in dims:
        op, y, a = default_solve(d)
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', ConvergenceWarning)
            project(op, y, solver='accelerated', max_iter=2)   # compile
            f = project(op, y, solver='accelerated')
        lines.append(f"| {d} | {op.shape[1]} | {a.seconds:.2f} | {a.gap / a.objective:.1e} | {f.seconds:.2f} | {f.iterations} | "
                     f"{f.gap / f.objective:.1e} | {f.converged} | {f.seconds / a.seconds:.1f}x |")
    lines.append("")


def scaling(max_dim, lines):
    lines += ["## Scaling: one projection (solver='auto' = active_set, tol=1e-6), all 3-way marginals on d binary attributes", "",
              "| d | \\|X\\| | k | rank(W) | seconds | rounds | support | relative gap | converged |", "|---|---|---|---|---|---|---|---|---|"]
    ok = True
    for d in range(12, max_dim + 1):
        if d == 12: project(*noisy_instance(d, np.random.default_rng(100 + d)))  # compile
        op, y, res = default_solve(d)
        ok &= res.converged
        lines.append(f"| {d} | {op.shape[1]} | {op.shape[0]} | {op.rank()} | {res.seconds:.2f} | {res.iterations} | "
                     f"{int((res.solution > 0).sum())} | {res.gap / res.objective:.1e} | {res.converged} |")
    lines.append("")
    return ok


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--data', default=str(Path(__file__).resolve().parents[2] / 'shared' / 'data'))
    ap.add_argument('--cvxpy-dims', type=int, nargs='*', default=[12, 13])
    ap.add_argument('--max-dim', type=int, default=20)
    ap.add_argument('--fista-dims', type=int, nargs='*', default=[14, 16, 18])
    ap.add_argument('--seeds', type=int, default=5)
    ap.add_argument('--out', default=None)
    a = ap.parse_args(argv)
    lines = [f"# Projection mechanism benchmark", "", f"Command: `python benchmarks/projection.py {' '.join(argv if argv is not None else sys.argv[1:])}`", ""]
    t0 = time.perf_counter(); checks = {}
    data_dir = Path(a.data)
    if (data_dir / 'nltcs' / 'nltcs.csv').exists(): checks['NLTCS: projection beats gaussian, < 10 s'] = nltcs(data_dir, lines, a.seeds)
    else: lines += [f"NLTCS skipped: no data at {data_dir}", ""]
    if a.cvxpy_dims: checks['vs cvxpy: 1e-6 relative objective, >= 50x'] = versus_cvxpy(a.cvxpy_dims, lines)
    solvers(12, lines)
    if a.fista_dims: versus_fista(a.fista_dims, lines)
    if a.max_dim >= 12: checks['scaling: every solve converged'] = scaling(a.max_dim, lines)
    lines += ["## Checks", ""] + [f"- {k}: {'PASS' if v else 'FAIL'}" for k, v in checks.items()]
    lines += ["", f"Total time {time.perf_counter() - t0:.0f} s."]
    text = "\n".join(lines) + "\n"; print(text)
    if a.out: Path(a.out).write_text(text)
    return 0 if all(checks.values()) else 1


if __name__ == '__main__':
    sys.exit(main())
