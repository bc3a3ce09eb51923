"""Benchmark: all 3-way marginals of 1e6 records x 16 attributes, numba one-pass counting vs plain numpy.

Usage: python benchmarks/histograms.py [--n 1000000] [--d 16] [--k 3] [--seed 0]

The numpy reference computes each marginal separately with np.ravel_multi_index + np.bincount.
The numba path is Dataset.marginals (one pass over the records for all marginals at once).
Both run in the same process on the same records; the script checks that the counts agree.
"""
import argparse, itertools, math, time

import numpy as np

from dpnotes.data import Dataset, Domain


def make_data(n, d, seed):
    "Synthetic records: attribute i has 2..4 values; each column depends on the previous one."
    rng = np.random.default_rng(seed)
    sizes = [2 + (i % 3) for i in range(d)]
    cols = [rng.integers(0, sizes[0], n)]
    for s in sizes[1:]:
        copy = rng.random(n) < 0.3  # correlated chain so the marginals are not uniform
        cols.append(np.where(copy, cols[-1] % s, rng.integers(0, s, n)))
    dom = Domain(tuple(f"a{i}" for i in range(d)), tuple(sizes))
    return Dataset(np.column_stack(cols), dom)


def numpy_marginals(records, domain, cliques):
    "Reference: one ravel_multi_index + bincount per marginal."
    out = []
    for c in cliques:
        ax, shp = list(domain.axes(c)), domain.project(c).shape
        out.append(np.bincount(np.ravel_multi_index(records[:, ax].T, shp), minlength=math.prod(shp)))
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--n', type=int, default=1_000_000)
    p.add_argument('--d', type=int, default=16)
    p.add_argument('--k', type=int, default=3)
    p.add_argument('--seed', type=int, default=0)
    a = p.parse_args()

    t = time.perf_counter()
    data = make_data(a.n, a.d, a.seed)
    print(f"data: n={data.n:,} d={a.d} sizes={data.domain.shape} ({time.perf_counter() - t:.2f} s to generate)")
    cliques = list(itertools.combinations(data.domain.attrs, a.k))
    cells = sum(data.domain.project(c).size() for c in cliques)
    print(f"workload: {len(cliques)} {a.k}-way marginals, {cells:,} cells")

    t = time.perf_counter()
    data.project(data.domain.attrs[:a.k]).marginals([data.domain.attrs[:a.k]])  # compile / load the kernel
    print(f"numba warm-up (compile or cache load): {time.perf_counter() - t:.2f} s")

    t = time.perf_counter()
    fast = data.marginals(cliques, normalize=False)
    t_numba = time.perf_counter() - t

    t = time.perf_counter()
    ref = numpy_marginals(data.records, data.domain, cliques)
    t_numpy = time.perf_counter() - t

    agree = all(np.array_equal(x, y) for x, y in zip(fast, ref)) and all(x.sum() == data.n for x in fast)
    print(f"numba one-pass : {t_numba:8.3f} s")
    print(f"numpy reference: {t_numpy:8.3f} s")
    print(f"ratio numpy/numba: {t_numpy / t_numba:.1f}x   counts agree: {agree}")
    if not agree:
        raise SystemExit("numba and numpy marginals disagree")


if __name__ == '__main__':
    main()
