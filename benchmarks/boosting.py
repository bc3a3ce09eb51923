"""Benchmark of boosting for queries (DRV with the relaxed projection as base; lecture 004 section 5).

Max error (the quantity boosting is about), RMSE and seconds per release of `boosting` against its base
`relaxation`, `mwem-hlm`, `projection` and `gaussian` (registered mechanisms, default options, same budget,
replace-one neighbours, n public), at eps=1, delta=1e-9, noise seeds 0..SEEDS-1, on
1. NLTCS all 2-way marginals (data-guarded: ../shared/data/nltcs/nltcs.csv + nltcs-domain.json),
2. ADULT median-binarised all 2-way marginals (data-guarded; the medians are read from the data and not
   charged: a benchmark convenience, as in benchmarks/relaxation.py),
3. synthetic d=64 all 2-way marginals (`correlated`, n=20000; projection and mwem-hlm refuse 2^64 cells),
plus boosting with a few rounds settings on NLTCS (T = 1, 3, 5, 9), and (`--jl`) Lemma 5.4 on the synopsis of
one weighted relaxation (all 2-way parities, `correlated`, n=20000, d = 16, 64): the JL dimension and bits the
lemma asks for against the factors' own dimension, and the measured answer shift where compression applies.

Usage: python benchmarks/boosting.py [--seeds 3] [--data ../shared/data]
           [--out benchmarks/results_boosting.md]
       python benchmarks/boosting.py --jl   (prints its table; append it to the results by hand)
"""

import argparse, time
from pathlib import Path
import numpy as np
from dpnotes.privacy import Budget
from dpnotes.data import Dataset, Domain
from dpnotes.ingest import read_csv
from dpnotes.workloads import Marginals, rmse, max_error
from dpnotes import MECHANISMS
import dpnotes.boosting, dpnotes.relaxation, dpnotes.projection  # noqa: F401 (register the mechanisms)
import dpnotes.mwem, dpnotes.histograms  # noqa: F401

MECHS = ('boosting', 'relaxation', 'mwem-hlm', 'projection', 'gaussian')


def correlated(d, n, rng):
    z = rng.random((n, 1)) < 0.5
    return (rng.random((n, d)) < np.where(z, 0.85, 0.2)).astype(np.int64)


def binarise_median(data):
    "Each attribute -> [code > median code] (2-valued kept); medians read from the data, not charged."
    rec, bits = data.records, []
    for j, size in enumerate(data.domain.shape):
        med = np.median(rec[:, j])
        bits.append(
            rec[:, j] if size == 2 else (rec[:, j] > med) | ((med == rec[:, j].max()) & (rec[:, j] >= med))
        )
    return Dataset(np.column_stack(bits).astype(np.int64), Domain(data.domain.attrs, (2,) * len(data.domain)))


def run(name, data, wl, b, seeds, **opts):
    truth, r, mx, t = wl.answer(data), [], [], []
    for s in range(seeds):
        t0 = time.perf_counter()
        rel = MECHANISMS[name](data, wl, b, rng=np.random.default_rng(s), **opts)
        t.append(time.perf_counter() - t0)
        r.append(rmse(rel.answers, truth))
        mx.append(max_error(rel.answers, truth))
    return np.mean(mx), np.max(mx), np.mean(r), np.mean(t), np.max(t)


def plot(results, path):
    "Grouped bars: mean max error of each mechanism on each data set (refusals left out)."
    import matplotlib

    matplotlib.use('Agg')
    import matplotlib.pyplot as plt

    short = lambda t: (
        t.replace(' all 2-way', ' 2-way').replace('median-binarised', 'binarised').split(' (')[0]
    )
    fig, ax = plt.subplots(figsize=(7, 3.6))
    w = 0.8 / len(MECHS)
    for j, name in enumerate(MECHS):
        xs = [i for i, (_, r) in enumerate(results) if name in r]
        ax.bar([x + j * w for x in xs], [results[i][1][name] for i in xs], w, label=name)
    labels = [
        short(t).replace('Synthetic', 'synthetic d=64').replace(' d=64 2-way', ' 2-way') for t, _ in results
    ]
    ax.set_xticks([i + 0.4 - w / 2 for i in range(len(results))], labels, fontsize=8)
    ax.set_yscale('log')
    ax.set_ylabel('max error (marginal cells)')
    ax.legend(fontsize=7, ncol=5, loc='lower center', bbox_to_anchor=(0.5, 1.0))
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def table(title, data, wl, b, seeds, lines, results=None):
    lines += [
        f"### {title}: n={data.n}, d={len(data.domain)}, {wl.shape[0]} cells, {seeds} seeds",
        "",
        "| mechanism | max error (mean) | max error (worst seed) | RMSE | s / release (mean, max) |",
        "|---|---|---|---|---|",
    ]
    for name in MECHS:
        try:
            mx, mxw, r, t, tw = run(name, data, wl, b, seeds)
            lines.append(f"| {name} | {mx:.5f} | {mxw:.5f} | {r:.5f} | {t:.2f}, {tw:.2f} |")
            if results is not None:
                results.setdefault(title, {})[name] = mx
        except ValueError as e:
            why = str(e).split(' for domain')[0][:90].replace('|', chr(92) + '|')
            lines.append(f"| {name} | refused: {why} | | | |")
        print(lines[-1], flush=True)
    lines.append("")


def jl_table(lines):
    from dpnotes.boosting import RelaxationBase, jl_dimension, jl_bits, compress_synopsis
    from dpnotes.relaxation import parity_sets, parity_answers
    from dpnotes.samplers import noise_source

    lines += [
        "### Lemma 5.4 on one relaxation synopsis (all 2-way parities, n=20000, rho=0.003)",
        "",
        "| d | vectors N | factor dims D | max answer error | eps | JL dim r | bits b | JL bits | "
        "float64 bits | answer shift (measured) |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for d in (16, 64):
        dom = Domain(tuple(f"a{i}" for i in range(d)), (2,) * d)
        rec = correlated(d, 20000, np.random.default_rng(d))
        sets = parity_sets(Marginals.all_kway(dom, 2))
        base = RelaxationBase()
        syn = base(rec, sets, np.full(len(sets), 4), 0.003, noise_source(np.random.default_rng(1)))
        err = max_error(syn.answers, parity_answers(rec, sets))
        N, D = syn.vectors.shape
        for e in (0.5, 0.3, 0.1):
            r = jl_dimension(e, int((base.tmap.index >= 0).sum()))
            c = compress_synopsis(syn, base.tmap, e, np.random.default_rng(2))
            shift = f"{c.info['jl_shift']:.4f}" if c is not syn else "not compressed (r >= D)"
            lines.append(
                f"| {d} | {N} | {D} | {err:.4f} | {e} | {r} | {jl_bits(e, r)} | "
                f"{N * r * (jl_bits(e, r) + 2)} | {syn.bits} | {shift} |"
            )
            print(lines[-1], flush=True)
    lines.append("")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--seeds', type=int, default=3)
    ap.add_argument(
        '--data', type=Path, default=Path(__file__).resolve().parents[1].parent / 'shared' / 'data'
    )
    ap.add_argument('--out', type=Path, default=Path(__file__).resolve().parent / 'results_boosting.md')
    ap.add_argument('--jl', action='store_true', help='only the Lemma 5.4 table, printed')
    a = ap.parse_args()
    if a.jl:
        jl_table([])
        return
    b, res = Budget.approx(1.0, 1e-9), {}
    lines = [
        "# Boosting for queries: results",
        "",
        f"`python benchmarks/boosting.py --seeds {a.seeds}`, "
        f"{time.strftime('%Y-%m-%d')}, eps=1, delta=1e-9 (rho={b.to_rho():.5f}), replace-one neighbours, "
        "n public; errors over the marginal cells; wall-clock seconds on a shared 2-core machine.",
        "",
    ]
    nl_csv = a.data / 'nltcs' / 'nltcs.csv'
    if nl_csv.exists():
        nl = read_csv(nl_csv, a.data / 'nltcs' / 'nltcs-domain.json')
        wl = Marginals.all_kway(nl.domain, 2)
        MECHANISMS['boosting'](nl, wl, b, rng=np.random.default_rng(0), rounds=1)  # jit warm-up
        table("NLTCS all 2-way", nl, wl, b, a.seeds, lines, res)
        lines += [
            "### NLTCS all 2-way: boosting rounds (other options default)",
            "",
            "| rounds T | max error (mean) | max error (worst seed) | RMSE | s / release (mean, max) |",
            "|---|---|---|---|---|",
        ]
        for T in (1, 3, 5, 9):
            mx, mxw, r, t, tw = run('boosting', nl, wl, b, a.seeds, rounds=T)
            lines.append(f"| {T} | {mx:.5f} | {mxw:.5f} | {r:.5f} | {t:.2f}, {tw:.2f} |")
            print(lines[-1], flush=True)
        lines.append("")
    else:
        lines += ["NLTCS: data not found, skipped", ""]
    ad_csv = a.data / 'adult' / 'adult.csv'
    if ad_csv.exists():
        ad = binarise_median(read_csv(ad_csv, a.data / 'adult' / 'adult-domain.json'))
        table(
            "ADULT median-binarised all 2-way", ad, Marginals.all_kway(ad.domain, 2), b, a.seeds, lines, res
        )
    else:
        lines += ["ADULT: data not found, skipped", ""]
    d = 64
    syn = Dataset(
        correlated(d, 20000, np.random.default_rng(64)), Domain(tuple(f"a{i}" for i in range(d)), (2,) * d)
    )
    table(
        "Synthetic (`correlated`) d=64 all 2-way",
        syn,
        Marginals.all_kway(syn.domain, 2),
        b,
        a.seeds,
        lines,
        res,
    )
    plot(list(res.items()), a.out.parent / 'boosting_max_error.png')
    a.out.write_text("\n".join(lines) + "\n")
    print("wrote", a.out)


if __name__ == '__main__':
    main()
