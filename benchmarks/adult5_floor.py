"""The cost floor of a certified optimum on benchmarks/unions.py's 'adult5' union.

Its symmetric optimum has one full-rank dense pattern (age x hours, 512 cells). A certified strategy needs, at
the least, the pattern's eigenvalues in double precision (the dual bound) and its eigenvectors (the strategy
X = D^-1/2 (D^1/2 G D^1/2)^1/2 D^-1/2). This times both on that very matrix (at the fixed point's starting
weights), in double and single precision, one BLAS thread as union_optimal runs them, fastest of 10, next to
union_optimal itself (fastest of 5) in the same run. HDMM's time is not re-measured here: compare with the
'HDMM s' column of results_unions.md.

Run: python benchmarks/adult5_floor.py
"""
import math, time

import numpy as np
from scipy.linalg import eigh

from unions import WORKLOADS, build
from dpnotes.kron_unions import _start, _symmetric_split, union_optimal
from dpnotes.sdp import one_blas_thread


def fastest(f, n):
    best = math.inf
    for _ in range(n):
        t = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t)
    return best


NAME = 'adult5 2-way marginals + P(age)xI(sex) + P(hours)xI(race)'


def main():
    U = build(*WORKLOADS[NAME])
    ij, dense, pats = _symmetric_split(U, 1024)
    d = _start(U, dense)
    full = [G for _, _, G, B in pats if B is None]
    print(f"dense patterns: {[G.shape[0] for G in full]} (the others factored, rank <= 81)")
    A = np.sqrt(d)[:, None] * full[0] * np.sqrt(d)[None, :]
    with one_blas_thread():
        for dt in (np.float64, np.float32):
            B = A.astype(dt)
            vals = fastest(lambda: eigh(B, eigvals_only=True, check_finite=False), 10)
            vecs = fastest(lambda: eigh(B, driver='evd', check_finite=False), 10)
            print(f"{np.dtype(dt).name}: eigenvalues {vals * 1e3:.1f} ms, with eigenvectors {vecs * 1e3:.1f} ms")
    union_optimal(U)
    ours = fastest(lambda: union_optimal(build(*WORKLOADS[NAME])), 5)  # a fresh union each time: no cached Grams
    print(f"union_optimal: {ours * 1e3:.1f} ms")


if __name__ == '__main__':
    main()
