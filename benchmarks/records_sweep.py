"""The records' search (`records._improve`, `records._counts`) against a reference written as they were before:
each table's cell computed from a view of the record's row (`R[r]`), and a proposal's new cell computed from
the proposed row, not moved from the old cell by the changed attributes' strides.

For each data set and seed, `local` releases the tables with its defaults (add/remove neighbours,
max_records=50,000, (eps, 1e-9)-DP, seeded noise); the records start from `tree_records` at the released count,
and `--sweeps` sweeps of proposals run two ways on copies of the same state, alternating which goes first. Both
must keep the same proposals and reach the same records and excess bit for bit (checked). Printed: seconds of
each for the sweeps and for one count of the records' cells, and their ratios. adult 3-way is where the change
was written; adult_hd 3-way and adult 2-way are tables it was not written for.

Usage: python benchmarks/records_sweep.py [--data ../shared/data] [--seeds 0 1] [--sweeps 6]
       [--cases adult:3 adult_hd:3 adult:2]
"""
import argparse
import time
import warnings
from pathlib import Path

import numba
import numpy as np

from dpnotes import MECHANISMS
from dpnotes.privacy import Budget
from dpnotes.records import _count_type, _counts, _improve, _simplex_tables, table_arrays, tree_records
from local_sparse import case_data

@numba.njit
def _row_cell(row, cols, strides, sizes, offsets, e):  # the reference: a cell from a row (a view, or a copy)
    x = offsets[e]
    for j in range(sizes[e]):
        x += row[cols[e, j]] * strides[e, j]
    return x


@numba.njit(nogil=True)
def ref_counts(out, R, cols, strides, sizes, offsets):
    for r in range(R.shape[0]):
        for e in range(sizes.size):
            out[_row_cell(R[r], cols, strides, sizes, offsets, e)] += 1
    return out


@numba.njit(nogil=True)
def ref_improve(R, cols, strides, sizes, offsets, attr_ptr, attr_tables, over, u):
    m, d = R.shape
    T = sizes.size
    mark, stamp = np.zeros(T, np.int64), 0
    hit, old, new = np.empty(T, np.int64), np.empty(T, np.int64), np.empty(T, np.int64)
    row = np.empty(d, np.int64)
    kept, change = 0, 0.0
    for k in range(0, u.shape[0] - 2, 3):
        r, s, c = int(u[k] * m), int(u[k + 1] * m), int(u[k + 2] * T)
        stamp += 1
        nh = 0
        for j in range(d):
            row[j] = R[r, j]
        for q in range(sizes[c]):
            a = cols[c, q]
            if R[s, a] != R[r, a]:
                row[a] = R[s, a]
                for p in range(attr_ptr[a], attr_ptr[a + 1]):
                    e = attr_tables[p]
                    if mark[e] != stamp:
                        mark[e] = stamp
                        hit[nh] = e
                        nh += 1
        delta = 0.0
        for i in range(nh):
            e = hit[i]
            old[i] = _row_cell(R[r], cols, strides, sizes, offsets, e)
            new[i] = _row_cell(row, cols, strides, sizes, offsets, e)
            delta += 2.0 * (over[new[i]] - over[old[i]]) + 2.0
        if nh and delta < 0.0:
            kept, change = kept + 1, change + delta
            for i in range(nh):
                over[old[i]] -= 1.0
                over[new[i]] += 1.0
            for j in range(d):
                R[r, j] = row[j]
    return kept, change


def released(data, wl, seed, eps):
    "`local`'s release of the tables on this seed's noise."
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return MECHANISMS['local'](data, wl, Budget.approx(eps, 1e-9), rng=np.random.default_rng(seed),
                                   neighbours='add-remove', max_records=50_000)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--data', type=Path, default=Path(__file__).resolve().parents[2] / 'shared' / 'data')
    ap.add_argument('--seeds', type=int, nargs='+', default=[0, 1])
    ap.add_argument('--sweeps', type=int, default=6)
    ap.add_argument('--eps', type=float, default=1.0)
    ap.add_argument('--cases', nargs='+', default=['adult:3', 'adult_hd:3', 'adult:2'])
    args = ap.parse_args()
    print(f"{'case':11s} {'seed':>4s} {'cells':>10s} {'rows':>6s} {'kept':>7s} {'sweeps s':>8s} {'ref s':>7s} "
          f"{'ratio':>6s} {'count s':>7s} {'ref s':>6s} {'ratio':>6s}")
    for case in args.cases:
        data, wl = case_data(args.data, case)
        for seed in args.seeds:
            rel = released(data, wl, seed, args.eps)
            rows = int(rel.info['n'])  # the released count n_hat, as the command line writes
            flat = _simplex_tables(wl, rel.answers)
            kept_t, *arrs = table_arrays(wl)
            R0 = tree_records(wl, wl.blocks(flat), rows, np.random.default_rng(seed))
            zeros = lambda: np.zeros(arrs[3][-1], _count_type(rows))
            ref_counts(zeros(), R0[:2], *arrs[:4]), _counts(zeros(), R0[:2], *arrs[:4])  # compiled first
            tc = {}
            for f in (ref_counts, _counts):
                t = time.perf_counter()
                c = f(zeros(), R0, *arrs[:4])
                tc[f] = (time.perf_counter() - t, c)
            if not np.array_equal(tc[ref_counts][1], tc[_counts][1]):
                raise SystemExit(f"{case} seed {seed}: the two counts differ")
            over0 = flat * -float(rows) + tc[_counts][1]
            us = [np.random.RandomState(seed * 100 + i).random_sample(3 * rows) for i in range(args.sweeps)]
            runs = {}
            for i, (fn, extra) in enumerate([(ref_improve, False), (_improve, True)][:: 1 if seed % 2 else -1]):
                R, over, n_kept = R0.copy(), over0.copy(), 0
                fn(R.copy(), *(arrs if extra else arrs[:-1]), over.copy(), us[0][:30])  # compiled first
                t = time.perf_counter()
                for u in us:
                    n_kept += fn(R, *(arrs if extra else arrs[:-1]), over, u)[0]
                runs[extra] = (time.perf_counter() - t, R, over, n_kept)
            (tr, Rr, orr, kr), (tn, Rn, on, kn) = runs[False], runs[True]
            if not (np.array_equal(Rr, Rn) and np.array_equal(orr, on) and kr == kn):
                raise SystemExit(f"{case} seed {seed}: the two searches differ")
            ct, cr = tc[_counts][0], tc[ref_counts][0]
            print(f"{case:11s} {seed:4d} {arrs[3][-1]:10,d} {rows:6d} {kn:7d} {tn:8.2f} {tr:7.2f} {tr / tn:5.2f}x "
                  f"{ct:7.3f} {cr:6.3f} {cr / ct:5.2f}x", flush=True)


if __name__ == '__main__':
    main()
