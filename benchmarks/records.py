"""Synthetic records from `local` releases: records fitted to the released tables (`Release.synthetic`, the default
since 26_records) against the answers themselves and against records drawn i.i.d. from the release's
distribution or model where it holds one (`fit=False`), one metric (RMSE and max error over all cells of all
workload marginals, fractions), add/remove neighbours, (eps, 1e-9)-DP.

    python benchmarks/records.py [--datasets sub7 nltcs adult2 hd2 small2k] [--eps 1] [--seeds 0 1 2]
        [--rows 1.0] [--out benchmarks/results_records.md]
    python benchmarks/records.py --curve [--datasets ...]   # records' error against the sweeps of the fit

`--rows` is the number of records as a multiple of the released n_hat. `--curve` fits one release per dataset
with `max_sweeps` in 25..400 and no early stop, the measured reason for FIT_SWEEPS; `--trace N` prints each
sweep's relative drop of the fit's objective for N sweeps and the records' errors every fifth, the reason for FIT_TOL.
Datasets (../shared/data, see its SOURCES.md; absent files are skipped): the peers table's sub7, nltcs, adult2 and
adult3; hd2: adult_hd (15 attributes, coarser bins) all 2-way; small2k: a fixed random sample of 2,000 adult records
(sample seed 2026), all 2-way on the 7 attributes of sub7. hd2 and small2k were not used to choose the constants.
"""
import argparse, os, sys, time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from peers import DATA, DELTA, MAX_RECORDS, SUB7, load, score  # noqa: E402
from dpnotes.data import Dataset  # noqa: E402
from dpnotes.ingest import read_csv  # noqa: E402
from dpnotes.privacy import Budget  # noqa: E402
from dpnotes.records import fit_records  # noqa: E402
from dpnotes import MECHANISMS  # noqa: E402
from dpnotes.workloads import Marginals  # noqa: E402
import dpnotes.local  # noqa: E402,F401


def dataset(name):
    "(data, workload) of a dataset name, or None when its file is absent."
    if name in ('sub7', 'nltcs', 'adult2', 'adult3'):
        return load(name)
    if name == 'hd2':
        data = read_csv(DATA / 'adult_hd' / 'adult.csv', DATA / 'adult_hd' / 'adult-domain.json')
        return data, Marginals.all_kway(data.domain, 2)
    if name == 'small2k':
        data, W = load('sub7')
        keep = np.random.default_rng(2026).choice(data.n, 2000, replace=False)
        return Dataset(data.records[np.sort(keep)], data.domain), W
    raise ValueError(f"unknown dataset {name!r}")


def run(name, data, W, truth, eps, seed, mult):
    t0 = time.perf_counter()
    rel = MECHANISMS['local'](
        data, W, Budget.approx(eps, DELTA), rng=np.random.default_rng(seed), neighbours='add-remove',
        max_records=MAX_RECORDS,
    )
    t1 = time.perf_counter()
    rows = max(1, int(round(mult * rel.n)))
    syn = rel.synthetic(rows, rng=np.random.default_rng(seed))
    t2 = time.perf_counter()
    out = dict(answers=score(W.blocks(rel.answers), truth), release_s=t1 - t0, fit_s=t2 - t1, rows=rows,
               records=score(syn.marginals(W.cliques), truth), sweeps=syn.fit['sweeps'],
               gap=(syn.fit['rmse'], syn.fit['max_error']))
    if rel.info.get('model') is not None or rel.distribution is not None:
        drawn = rel.synthetic(rows, rng=np.random.default_rng(seed), fit=False)
        out['drawn'] = score(drawn.marginals(W.cliques), truth)
    return out


def table(rows):
    lines = ['| dataset | eps | seeds | rows / n_hat | answers RMSE | answers max | records RMSE | records max | '
             'records / answers (RMSE, max) | drawn i.i.d. RMSE / max | sweeps | release s | records s |',
             '|---|---|---|---|---|---|---|---|---|---|---|---|---|']
    for (name, eps), rs in rows.items():
        m = lambda f: np.mean([f(r) for r in rs])
        ar, am = m(lambda r: r['answers'][0]), m(lambda r: r['answers'][1])
        rr, rmx = m(lambda r: r['records'][0]), m(lambda r: r['records'][1])
        drawn = (f"{m(lambda r: r['drawn'][0]):.3g} / {m(lambda r: r['drawn'][1]):.3g}"
                 if all('drawn' in r for r in rs) else '-')
        lines.append(
            f"| {name} | {eps} | {len(rs)} | {rs[0]['rows']:g}x | {ar:.3g} | {am:.3g} | "
            f"{rr:.3g} | {rmx:.3g} | {rr / ar:.3f}, {rmx / am:.3f} | {drawn} | {m(lambda r: r['sweeps']):.0f} | "
            f"{m(lambda r: r['release_s']):.1f} | {m(lambda r: r['fit_s']):.1f} |")
    return '\n'.join(lines)


def curve(names, eps):
    for name in names:
        got = dataset(name)
        data, W = got
        truth = np.concatenate(W.blocks(W.answer(data)))
        rel = MECHANISMS['local'](data, W, Budget.approx(eps, DELTA), rng=np.random.default_rng(0),
                                  neighbours='add-remove', max_records=MAX_RECORDS)
        ar = score(W.blocks(rel.answers), truth)
        print(f"{name} eps {eps}: answers {ar[0]:.3g} / {ar[1]:.3g}")
        for s in (25, 50, 100, 200, 400):
            t0 = time.perf_counter()
            syn = fit_records(W, rel.answers, int(rel.n), rng=0, max_sweeps=s, tol=0.0)
            rr = score(syn.marginals(W.cliques), truth)
            print(f"  sweeps {s:4d}: records {rr[0]:.3g} / {rr[1]:.3g} ({rr[0] / ar[0]:.3f}x, {rr[1] / ar[1]:.3f}x), "
                  f"gap to answers {syn.fit['rmse']:.3g} / {syn.fit['max_error']:.3g}, {time.perf_counter() - t0:.1f} s")
        syn = fit_records(W, rel.answers, int(rel.n), rng=0)
        rr = score(syn.marginals(W.cliques), truth)
        print(f"  default (stopped after {syn.fit['sweeps']} sweeps): records {rr[0]:.3g} / {rr[1]:.3g}")


def trace(names, eps, sweeps):
    """Per sweep of the fit (as `Release.synthetic` runs it: same start, same generator), the relative drop of
    its objective L (squared count error) in that sweep, and every fifth sweep the records' RMSE / max error
    against the truth: the measured reason for FIT_TOL (records.py)."""
    from dpnotes.records import _counts, _improve, table_arrays, table_targets, tree_records
    from dpnotes.data import sample_records

    for name in names:
        data, W = dataset(name)
        truth = np.concatenate(W.blocks(W.answer(data)))
        t0 = time.perf_counter()
        rel = MECHANISMS['local'](data, W, Budget.approx(eps, DELTA), rng=np.random.default_rng(0),
                                  neighbours='add-remove', max_records=MAX_RECORDS)
        ar = score(W.blocks(rel.answers), truth)
        print(f"{name} eps {eps}: answers {ar[0]:.3g} / {ar[1]:.3g} (release {time.perf_counter() - t0:.1f} s)",
              flush=True)
        rows, rng = int(rel.n), np.random.default_rng(0)
        model, tables = rel.info.get('model'), table_targets(W, rel.answers)
        if model is not None:
            R = model.synthetic(rows, rng).records.copy()
        elif rel.distribution is not None:
            R = sample_records(rel.distribution, rel.domain, rows, rng=rng).records.copy()
        else:
            R = tree_records(W, tables, rows, rng)
        kept, *arrs = table_arrays(W)
        over = _counts(np.zeros(arrs[3][-1]), R, *arrs[:4]) - np.concatenate([tables[i] for i in kept]) * rows
        mt = np.random.RandomState(int(rng.integers(2**62)) & 0xFFFFFFFF)  # the proposals' uniforms, as fit_records
        L = float((over**2).sum())
        for k in range(1, sweeps + 1):
            _improve(R, *arrs, over, mt.random_sample(3 * rows))
            L1 = float((over**2).sum())
            line = f"  sweep {k:4d}: drop {(L - L1) / L:.4%}"
            if k % 5 == 0:
                rr = score(Dataset(R.copy(), W.domain).marginals(W.cliques), truth)
                line += f", records {rr[0]:.3g} / {rr[1]:.3g} ({rr[0] / ar[0]:.3f}x, {rr[1] / ar[1]:.3f}x)"
            print(line, flush=True)
            L = L1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--datasets', nargs='+', default=['sub7', 'nltcs', 'adult2', 'hd2', 'small2k'])
    ap.add_argument('--eps', nargs='+', type=float, default=[1.0])
    ap.add_argument('--seeds', nargs='+', type=int, default=[0, 1, 2])
    ap.add_argument('--rows', type=float, default=1.0)
    ap.add_argument('--curve', action='store_true')
    ap.add_argument('--trace', type=int, default=0, help='sweeps of the per-sweep trace (0: no trace)')
    ap.add_argument('--out')
    args = ap.parse_args()
    if args.trace:
        return trace(args.datasets, args.eps[0], args.trace)
    if args.curve:
        return curve(args.datasets, args.eps[0])
    res = {}
    for name in args.datasets:
        data, W = dataset(name)
        truth = np.concatenate(W.blocks(W.answer(data)))
        for eps in args.eps:
            for seed in args.seeds:
                r = run(name, data, W, truth, eps, seed, args.rows)
                r['rows'] = args.rows  # the multiple, for the table
                res.setdefault((name, eps), []).append(r)
                print(name, eps, seed, {k: (np.round(v, 6) if isinstance(v, tuple) else v) for k, v in r.items()},
                      flush=True)
    text = (f"# Records fitted to `local`'s tables\n\n`python benchmarks/records.py {' '.join(sys.argv[1:])}`, "
            f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {os.getloadavg()[0]:.1f}\n\n"
            + table(res) + '\n')
    print(text)
    if args.out:
        Path(args.out).write_text(text)


if __name__ == '__main__':
    main()
