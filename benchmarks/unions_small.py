"""Where the certificate of the 1e7-cell union is lost: the strategy family or the bound.

On smaller copies of benchmarks/unions.py's 'big5' union (the same four terms, smaller first attributes), the
symmetric optimum over all strategies runs (`symmetric_strategy` with a larger dense part and a tight
tolerance). Against it, per copy: the best of the candidates `union_optimal` has when that optimum does not run
(the marginal family, the stacked splits, the product descent), and the product-weights dual bound (the
certificate big5 gets). Prints one markdown row per copy.

Run: python benchmarks/unions_small.py
"""
import sys, time

from unions import WORKLOADS, build
from dpnotes.kron_unions import _splits, product_dual_bound, symmetric_strategy
from dpnotes.union_strategies import helmert_strategy, optimize_kron, stacked_strategy
from dpnotes.sdp import one_blas_thread

COPIES = [(10, 5, 4, 5, 2), (16, 8, 8, 5, 2), (20, 10, 5, 5, 2)]


def main():
    attrs, sizes, terms = WORKLOADS['big5 1e7 cells']
    print(f"big5's terms on smaller domains ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())})\n")
    print("| sizes | optimum [lower, upper] | best other candidate (family) | its / optimum "
          "| product-weights bound | bound / optimum |")
    print("|---|---|---|---|---|---|")
    for sz in COPIES:
        U = build(attrs, sz, terms)
        with one_blas_thread():
            M, up, low, steps = symmetric_strategy(U, max_dense=4096, tol=1e-5, iters=300)
            cands = [(helmert_strategy(U)[1], 'marginal family')]
            cache = {}
            for groups in _splits(U):
                cands.append((stacked_strategy(U, groups, tol=1e-4, cache=cache)[1], f"{len(groups)} groups"))
            cands.append((optimize_kron(U, tol=1e-4)[1], 'product'))
            best, fam = min(cands)
            pb = product_dual_bound(U, max_order=4096)
        print(f"| {sz} | [{low:.2f}, {up:.2f}] | {best:.2f} ({fam}) | {best / up:.4f} | {pb:.2f} | {pb / low:.4f} |",
              flush=True)


if __name__ == '__main__':
    sys.exit(main())
