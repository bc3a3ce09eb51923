"""Variable elimination's pairwise products (`dpnotes.junction_trees._contract`): numpy's einsum as one loop over
the product's cells, against einsum with `optimize=True` (a contraction path, then BLAS's matrix products where the
sum allows), by the number of cells of the product's axes; and the answers of adult's all 3-way marginals from a
fitted graphical model, with the threshold `CONTRACT_PATH_CELLS` at its value and at infinity (never a path).

Part 1 needs no data: two random factors sharing two axes, summed over those (a matrix product: the shape where
BLAS helps most; a product keeping an axis of both factors pays the plan and gains less). Part 2 fits a model to
adult's one-way marginals and to 3-way sets of consecutive attributes overlapping by one (noiseless: the model's
shape is what is timed) and answers the 364 tables twice each way, best of the two.

Usage: python benchmarks/contract.py [--data ../shared/data]
"""
import argparse
import math
import timeit
from pathlib import Path

import numpy as np

import dpnotes.junction_trees as jt
from dpnotes.data import Domain
from dpnotes.ingest import read_csv
from dpnotes.measurements import Measurement
from dpnotes.models import estimate
from dpnotes.workloads import Marginals


def best(f, reps):
    "Best seconds of `reps` calls of f."
    return min(timeit.repeat(f, number=1, repeat=reps))


def part1():
    print("cells of the product   einsum (us)   optimize=True (us)   ratio")
    rng = np.random.default_rng(0)
    for side in (2, 4, 6, 8, 10, 12, 16, 24, 32):
        a, b = rng.random((side, side, 3, 4)), rng.random((3, 4, side, side))
        cells = a.size * side * side
        ops = (a, [0, 1, 2, 3], b, [2, 3, 4, 5], [0, 1, 4, 5])
        reps = max(3, min(2000, int(2e7 // cells)))
        plain = best(lambda: np.einsum(*ops), reps) * 1e6
        path = best(lambda: np.einsum(*ops, optimize=True), reps) * 1e6
        print(f"{cells:20,d} {plain:13.1f} {path:20.1f} {plain / path:7.2f}", flush=True)


def part2(data_dir: Path):
    csv, dom = data_dir / 'adult' / 'adult.csv', data_dir / 'adult' / 'adult-domain.json'
    if not (csv.exists() and dom.exists()):
        print(f"adult not found under {data_dir}: part 2 skipped")
        return
    data = read_csv(csv, dom)
    attrs = data.domain.attrs
    sets = [(a,) for a in attrs] + [tuple(attrs[i : i + 3]) for i in range(0, len(attrs) - 2, 2)]
    ms = [Measurement(c, data.marginal(c), 1e-3) for c in sets]
    model = estimate(ms, data.domain, iters=20).compact()
    wl = Marginals.all_kway(data.domain, 3)
    print(f"\nadult: a model of {model.tree.size():,} cells in {len(model.tree.cliques)} cliques, "
          f"answering {len(wl.cliques)} 3-way tables")
    default = jt.CONTRACT_PATH_CELLS
    times = {}
    try:
        for label, cap in (('never a path', math.inf), (f'path above {default:,} cells', default), ('always', 0)):
            jt.CONTRACT_PATH_CELLS = cap
            times[label] = best(lambda: model.compact().answer(wl), 2)  # no conditionals kept from a call before
            print(f"  {label:28s} {times[label]:7.2f} s", flush=True)
    finally:
        jt.CONTRACT_PATH_CELLS = default


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--data', type=Path, default=Path(__file__).resolve().parents[2] / 'shared' / 'data')
    args = ap.parse_args()
    part1()
    part2(args.data)


if __name__ == '__main__':
    main()
