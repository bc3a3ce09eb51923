"""Benchmark of boosting for queries (DRV with the relaxed projection as base; lecture 004 section 5).

Max error (the quantity boosting is about), RMSE and seconds per release of `boosting` against its base
`relaxation`, `mwem-hlm`, `projection` and `gaussian` (registered mechanisms, default options, same budget,
replace-one neighbours, n public), at eps=1, delta=1e-9, noise seeds 0..SEEDS-1, on
1. NLTCS all 2-way marginals (data-guarded: ../shared/data/nltcs/nltcs.csv + nltcs-domain.json),
2. ADULT median-binarised all 2-way marginals (data-guarded; the medians are read from the data and not charged:
   a benchmark convenience, as in benchmarks/relaxation.py),
3. synthetic d=64 all 2-way marginals (`correlated`, n=20000; projection and mwem-hlm refuse 2^64 cells),
plus boosting with a few rounds settings on NLTCS (T = 1, 3, 5, 9).

Usage: python benchmarks/boosting.py [--seeds 3] [--data ../shared/data] [--out benchmarks/results_boosting.md]
"""
import argparse, time
from pathlib import Path
import numpy as np
from dpnotes.privacy import Budget
from dpnotes.data import Dataset, Domain
from dpnotes.workloads import Marginals, rmse, max_error
from dpnotes.releases import MECHANISMS
import dpnotes.boosting, dpnotes.relaxation, dpnotes.projection, dpnotes.mwem, dpnotes.histograms  # noqa: F401

MECHS = ('boosting', 'relaxation', 'mwem-hlm', 'projection', 'gaussian')


def correlated(d, n, rng):
    z = rng.random((n, 1)) < 0.5
    return (rng.random((n, d)) < np.where(z, 0.85, 0.2)).astype(np.int64)


def binarise_median(data):
    "Each attribute -> [code > median code] (2-valued attributes kept); medians read from the data, not charged."
    rec, bits = data.records, []
    for j, size in enumerate(data.domain.shape):
        med = np.median(rec[:, j])
        bits.append(rec[:, j] if size == 2 else (rec[:, j] > med) | ((med == rec[:, j].max()) & (rec[:, j] >= med)))
    return Dataset(np.column_stack(bits).astype(np.int64), Domain(data.domain.attrs, (2,) * len(data.domain)))


def run(name, data, wl, b, seeds, **opts):
    truth, r, mx, t = wl.answer(data), [], [], []
    for s in range(seeds):
        t0 = time.perf_counter()
        rel = MECHANISMS[name](data, wl, b, rng=np.random.default_rng(s), **opts)
        t.append(time.perf_counter() - t0); r.append(rmse(rel.answers, truth)); mx.append(max_error(rel.answers, truth))
    return np.mean(mx), np.max(mx), np.mean(r), np.mean(t), np.max(t)


def table(title, data, wl, b, seeds, lines):
    lines += [f"### {title}: n={data.n}, d={len(data.domain)}, {wl.shape[0]} cells, {seeds} seeds", "",
              "| mechanism | max error (mean) | max error (worst seed) | RMSE | s / release (mean, max) |",
              "|---|---|---|---|---|"]
    for name in MECHS:
        try:
            mx, mxw, r, t, tw = run(name, data, wl, b, seeds)
            lines.append(f"| {name} | {mx:.5f} | {mxw:.5f} | {r:.5f} | {t:.2f}, {tw:.2f} |")
        except ValueError as e:
            lines.append(f"| {name} | refused: {str(e).split(' for domain')[0][:90].replace('|', chr(92) + '|')} | | | |")
        print(lines[-1], flush=True)
    lines.append("")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--seeds', type=int, default=3)
    ap.add_argument('--data', type=Path, default=Path(__file__).resolve().parents[1].parent / 'shared' / 'data')
    ap.add_argument('--out', type=Path, default=Path(__file__).resolve().parent / 'results_boosting.md')
    a = ap.parse_args()
    b = Budget.approx(1.0, 1e-9)
    lines = ["# Boosting for queries: results", "", f"`python benchmarks/boosting.py --seeds {a.seeds}`, "
             f"{time.strftime('%Y-%m-%d')}, eps=1, delta=1e-9 (rho={b.to_rho():.5f}), replace-one neighbours, "
             "n public; errors over the marginal cells; wall-clock seconds on a shared 2-core machine.", ""]
    nl_csv = a.data / 'nltcs' / 'nltcs.csv'
    if nl_csv.exists():
        nl = Dataset.from_csv(nl_csv, a.data / 'nltcs' / 'nltcs-domain.json')
        wl = Marginals.all_kway(nl.domain, 2)
        MECHANISMS['boosting'](nl, wl, b, rng=np.random.default_rng(0), rounds=1)  # jit warm-up
        table("NLTCS all 2-way", nl, wl, b, a.seeds, lines)
        lines += ["### NLTCS all 2-way: boosting rounds (other options default)", "",
                  "| rounds T | max error (mean) | max error (worst seed) | RMSE | s / release (mean, max) |",
                  "|---|---|---|---|---|"]
        for T in (1, 3, 5, 9):
            mx, mxw, r, t, tw = run('boosting', nl, wl, b, a.seeds, rounds=T)
            lines.append(f"| {T} | {mx:.5f} | {mxw:.5f} | {r:.5f} | {t:.2f}, {tw:.2f} |"); print(lines[-1], flush=True)
        lines.append("")
    else:
        lines += ["NLTCS: data not found, skipped", ""]
    ad_csv = a.data / 'adult' / 'adult.csv'
    if ad_csv.exists():
        ad = binarise_median(Dataset.from_csv(ad_csv, a.data / 'adult' / 'adult-domain.json'))
        table("ADULT median-binarised all 2-way", ad, Marginals.all_kway(ad.domain, 2), b, a.seeds, lines)
    else:
        lines += ["ADULT: data not found, skipped", ""]
    d = 64
    syn = Dataset(correlated(d, 20000, np.random.default_rng(64)), Domain(tuple(f"a{i}" for i in range(d)), (2,) * d))
    table("Synthetic (`correlated`) d=64 all 2-way", syn, Marginals.all_kway(syn.domain, 2), b, a.seeds, lines)
    a.out.write_text("\n".join(lines) + "\n")
    print("wrote", a.out)


if __name__ == '__main__':
    main()
