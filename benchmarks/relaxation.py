"""Benchmark of the relaxed projection (DNT, lecture 004). Measured within one run on a shared, noisy machine.

1. Thm 4.5 sweep: all parities of degree <= 2 on d binary attributes (correlated records), n from 10 to 2560,
   rho=0.5, several noise draws: parity MSE of the relaxation vs sigma^2 (Gaussian) vs Thm 4.5's bound.
2. Marginals on real binary data (NLTCS, 16 attributes) if present: all 2- and 3-way marginals at eps 0.1 and 1,
   relaxation vs the Gaussian mechanism on the marginal cells and vs the marginals rebuilt from the noisy parities.
   `--example` prints one release: all 3-way marginals at eps=1 (no assertions).
3. One 3-way case (k=3, small d): the odd split u in [d+1]^2, v in [d+1].
4. `--compare`: relaxation vs projection vs mwem-hlm vs factorization vs gaussian (registered mechanisms, default
   options, same budget, replace-one neighbours for all, `rmse`/`max_error` of dpnotes.workloads, seconds per release)
   on NLTCS 2-/3-way, binarised ADULT 2-/3-way (`binarise_median`), synthetic d=64 2-way (`correlated`, n=20000;
   mechanisms that refuse are recorded with their reason), and an RMSE-against-n sweep on NLTCS 2-way
   (subsamples without replacement), plotted to benchmarks/relaxation_vs_n.png.
5. `--scale`: one relaxation release on synthetic data (`correlated`, n=20000) against d: total seconds, the time
   spent inside the SDP oracle (a timing wrapper around `MixingOracle`), Frank-Wolfe steps, SDP sizes.

Usage: python benchmarks/relaxation.py [--dims 4 6 8 10] [--seeds 5] [--data ../shared/data] [--out benchmarks/results_relaxation.md]
       [--nltcs-only] [--example]
       [--compare [--eps 1] [--delta 1e-9] [--ns 500 2000 8000 0] [--adult-k 2 3] [--plot benchmarks/relaxation_vs_n.png]]
       [--scale [--scale-dims 16 32 64 128] [--scale-k3-dims 16 32] [--scale-limit 300]]
"""
import argparse, math, time
from itertools import combinations
from pathlib import Path
import numpy as np
from dpnotes.privacy import Budget
from dpnotes.data import Dataset, Domain
from dpnotes.workloads import Marginals, rmse
from dpnotes.histograms import gaussian_mechanism
from dpnotes.ingest import read_csv
from dpnotes.relaxation import (TupleMap, parity_answers, relaxed_parities, width_bound, relaxation_mechanism,
                                marginals_from_parities, MixingOracle)
from dpnotes import MECHANISMS


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
    data = read_csv(path, data_dir / 'nltcs' / 'nltcs-domain.json')
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
    data = read_csv(path, data_dir / 'nltcs' / 'nltcs-domain.json')
    wl, b = Marginals.all_kway(data.domain, 3), Budget.approx(1.0, 1e-9)
    rel = relaxation_mechanism(data, wl, b, rng=np.random.default_rng(0))
    gau = gaussian_mechanism(data, wl, b, rng=np.random.default_rng(0))
    truth = wl.answer(data)
    print(f"NLTCS all 3-way marginals ({wl.shape[0]} cells, {len(rel.info['sets'])} parities), eps=1, delta=1e-9:")
    print(f"  relaxation: RMSE {rmse(rel.answers, truth):.5f}, {rel.info['iterations']} Frank-Wolfe steps, "
          f"certified gap {rel.info['gap']:.3g} <= target {rel.info['target']:.3g}, {rel.seconds:.1f} s")
    print(f"  Gaussian mechanism: RMSE {rmse(gau.answers, truth):.5f}")


MECHS = ('relaxation', 'projection', 'mwem-hlm', 'factorization', 'gaussian')


def binarise_median(data):
    """ADULT -> binary: attribute a becomes 1 bit, [code > median code] (for a 2-valued attribute: the code itself).

    The medians are read from the data and are not charged to the privacy budget (a benchmark convenience:
    a deployment would fix public thresholds instead)."""
    rec, bits = data.records, []
    for j, size in enumerate(data.domain.shape):
        med = np.median(rec[:, j])
        bits.append(rec[:, j] if size == 2 else (rec[:, j] > med) | ((med == rec[:, j].max()) & (rec[:, j] >= med)))
    return Dataset(np.column_stack(bits).astype(np.int64), Domain(data.domain.attrs, (2,) * len(data.domain)))


def run_all(data, wl, b, seeds, mechs=MECHS):
    "Each mechanism, `seeds` noise seeds: {name: (mean RMSE, mean max error, mean s)} or {name: 'refused: why'}."
    from dpnotes.workloads import max_error
    truth, out = wl.answer(data), {}
    for name in mechs:
        r, mx, t = [], [], []
        try:
            for s in range(seeds):
                t0 = time.perf_counter()
                rel = MECHANISMS[name](data, wl, b, rng=np.random.default_rng(s))
                t.append(time.perf_counter() - t0); r.append(rmse(rel.answers, truth)); mx.append(max_error(rel.answers, truth))
            out[name] = (np.mean(r), np.mean(mx), np.mean(t))
        except ValueError as e:
            out[name] = "refused: " + str(e).split(' for domain')[0].split('; project')[0].replace('|', '\\|')
        print(name, out[name], flush=True)
    return out


def compare_rows(title, data, wl, b, seeds, lines):
    lines += [f"### {title}: n={data.n}, d={len(data.domain)}, {wl.shape[0]} cells, {seeds} seeds", "",
              "| mechanism | RMSE | max error | s / release |", "|---|---|---|---|"]
    res = run_all(data, wl, b, seeds)
    for name, v in res.items():
        lines.append(f"| {name} | {v} | | |" if isinstance(v, str) else f"| {name} | {v[0]:.5f} | {v[1]:.5f} | {v[2]:.2f} |")
    lines.append("")
    return res


def compare(data_dir, seeds, lines, eps=1.0, delta=1e-9, ns=(500, 2000, 8000, 0), adult_k=(2, 3), plot=None):
    import dpnotes.projection, dpnotes.mwem, dpnotes.factorization  # noqa: F401 (register the mechanisms)
    b = Budget.approx(eps, delta)
    lines += [f"## Comparison at eps={eps}, delta={delta} (`--compare`, {time.strftime('%Y-%m-%d')})", "",
              "Registered mechanisms, default options, replace-one neighbours, n public; noise seeds 0..{}; RMSE and max "
              "error over the marginal cells (`dpnotes.workloads.rmse`, `max_error`); seconds of one release (wall "
              "clock, shared 2-core machine).".format(seeds - 1), ""]
    nl = read_csv(data_dir / 'nltcs' / 'nltcs.csv', data_dir / 'nltcs' / 'nltcs-domain.json')
    MECHANISMS['relaxation'](nl, Marginals.all_kway(nl.domain, 2), b, rng=np.random.default_rng(0))  # jit warm-up
    for k in (2, 3):
        compare_rows(f"NLTCS all {k}-way", nl, Marginals.all_kway(nl.domain, k), b, seeds, lines)
    ad = binarise_median(read_csv(data_dir / 'adult' / 'adult.csv', data_dir / 'adult' / 'adult-domain.json'))
    for k in adult_k:
        compare_rows(f"ADULT binarised (median split), all {k}-way", ad, Marginals.all_kway(ad.domain, k), b, seeds, lines)
    d = 64
    syn = Dataset(correlated(d, 20000, np.random.default_rng(64)), Domain(tuple(f"a{i}" for i in range(d)), (2,) * d))
    compare_rows("Synthetic (`correlated`) all 2-way", syn, Marginals.all_kway(syn.domain, 2), b, seeds, lines)
    sweep_n(nl, b, seeds, ns, lines, plot)


def sweep_n(data, b, seeds, ns, lines, plot):
    "RMSE against n on NLTCS 2-way: subsamples of size n (without replacement, sampling seed n), 0 = all rows."
    wl, rows = Marginals.all_kway(data.domain, 2), {}
    lines += [f"### NLTCS all 2-way, RMSE against n (subsamples without replacement; {seeds} seeds)", "",
              "| n | " + " | ".join(MECHS) + " |", "|---|" + "---|" * len(MECHS)]
    for n in ns:
        n = n or data.n
        idx = np.random.default_rng(n).choice(data.n, size=n, replace=False)
        rows[n] = run_all(Dataset(data.records[idx], data.domain), wl, b, seeds)
        lines.append(f"| {n} | " + " | ".join(f"{rows[n][m][0]:.5f} ({rows[n][m][2]:.1f} s)" for m in MECHS) + " |")
    lines.append("")
    if plot:
        import matplotlib; matplotlib.use('Agg'); import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(6, 4))
        for m in MECHS:
            ax.loglog(list(rows), [rows[n][m][0] for n in rows], marker='o', label=m)
        ax.set(xlabel='n (NLTCS subsample)', ylabel='RMSE, all 2-way marginals', title=f'eps={b.epsilon}, delta={b.delta}')
        ax.legend(); fig.tight_layout(); fig.savefig(plot, dpi=120)


class TimedOracle(MixingOracle):
    "A `MixingOracle` that records the seconds and SDP size of each call."

    def __init__(self, **kw):
        super().__init__(**kw); self.seconds, self.sizes = 0.0, set()

    def _solve(self, solver, A, n):  # every call, by M (`__call__`) or by C (`bilinear`), passes here
        t0 = time.perf_counter(); res = super()._solve(solver, A, n)
        self.seconds += time.perf_counter() - t0; self.sizes.add(n)
        return res


def scale(lines, dims=(16, 32, 64, 128), k3_dims=(16, 32), limit=300.0, n=20000, eps=1.0, delta=1e-9):
    "One relaxation release per (d, k) on `correlated` data; stop a k once a release exceeds `limit` seconds."
    b = Budget.approx(eps, delta)
    lines += [f"## Scale: one relaxation release against d (`--scale`, n={n}, eps={eps}, delta={delta}, noise seed 0, "
              f"{time.strftime('%Y-%m-%d')})", "",
              "| d | k | parities | SDP size | FW steps | converged | total s | oracle s | oracle share | RMSE | Gaussian RMSE |",
              "|---|---|---|---|---|---|---|---|---|---|---|"]
    for k, ds in ((2, dims), (3, k3_dims)):
        for d in ds:
            data = Dataset(correlated(d, n, np.random.default_rng(d)), Domain(tuple(f"a{i}" for i in range(d)), (2,) * d))
            wl = Marginals.all_kway(data.domain, k); orc = TimedOracle()
            try:
                rel = relaxation_mechanism(data, wl, b, rng=np.random.default_rng(0), oracle=orc)
            except ValueError as e:
                lines.append(f"| {d} | {k} | refused: {e} | | | | | | | | |"); print(lines[-1], flush=True); continue
            truth = wl.answer(data); g = rmse(gaussian_mechanism(data, wl, b, rng=np.random.default_rng(0)).answers, truth)
            lines.append(f"| {d} | {k} | {len(rel.info['sets'])} | {'/'.join(map(str, sorted(orc.sizes)))} | "
                         f"{rel.info['iterations']} | {rel.info['converged']} | {rel.seconds:.1f} | {orc.seconds:.1f} | "
                         f"{orc.seconds / rel.seconds:.0%} | {rmse(rel.answers, truth):.5f} | {g:.5f} |")
            print(lines[-1], flush=True)
            if rel.seconds > limit:
                lines.append(f"| larger d at k={k} | skipped for time: d={d} took {rel.seconds:.0f} s > {limit:.0f} s | | | | | | | | | |")
                break
    lines.append("")


if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    ap.add_argument('--dims', type=int, nargs='+', default=[4, 6, 8, 10])
    ap.add_argument('--seeds', type=int, default=5)
    ap.add_argument('--data', type=Path, default=Path('../shared/data'))
    ap.add_argument('--out', type=Path, default=None)
    ap.add_argument('--nltcs-only', action='store_true', help='only the NLTCS table (2- and 3-way, eps 0.1 and 1)')
    ap.add_argument('--example', action='store_true', help='only the printed NLTCS 3-way eps=1 example')
    ap.add_argument('--compare', action='store_true', help='five mechanisms on NLTCS, ADULT (binarised), synthetic d=64')
    ap.add_argument('--eps', type=float, default=1.0)
    ap.add_argument('--delta', type=float, default=1e-9)
    ap.add_argument('--ns', type=int, nargs='+', default=[500, 2000, 8000, 0], help='NLTCS subsample sizes (0 = all)')
    ap.add_argument('--adult-k', type=int, nargs='+', default=[2, 3])
    ap.add_argument('--plot', type=Path, default=Path('benchmarks/relaxation_vs_n.png'))
    ap.add_argument('--scale', action='store_true', help='relaxation release time against d (synthetic, n=20000)')
    ap.add_argument('--scale-dims', type=int, nargs='+', default=[16, 32, 64, 128])
    ap.add_argument('--scale-k3-dims', type=int, nargs='+', default=[16, 32])
    ap.add_argument('--scale-limit', type=float, default=300.0, help='skip larger d once a release takes longer (s)')
    a = ap.parse_args()
    if a.compare or a.scale:
        lines = []
        if a.scale:
            scale(lines, a.scale_dims, a.scale_k3_dims, a.scale_limit, eps=a.eps, delta=a.delta)
        if a.compare:
            compare(a.data, a.seeds, lines, a.eps, a.delta, a.ns, a.adult_k, a.plot)
        text = "\n".join(lines) + "\n"
        if a.out: a.out.write_text(a.out.read_text() + "\n" + text if a.out.exists() else text)
        print(text); raise SystemExit
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
