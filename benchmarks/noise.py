"""Benchmark: exact, floating-point-safe noise from the operating system's entropy vs numpy's float samplers.

Usage: python benchmarks/noise.py [--draws 10000000] [--opendp-draws 100000] [--out FILE]

Three samplers are timed in one process on the same machine:
- dpnotes.noise.discrete_gaussian / discrete_laplace with rng=None (os.urandom bits, exact integer sampling),
  at the scale the release path uses (sigma about 2^23.5 grid steps);
- numpy's Generator.normal / Generator.laplace (PCG64, float sampling: fast, not floating-point safe);
- OpenDP's vetted samplers (make_gaussian / make_laplace on integer vectors), when the package is installed.
The ratios are the figures to quote; absolute seconds move with the machine's load.
"""
import argparse, math, time
from fractions import Fraction

import numpy as np

from dpnotes.noise import discrete_gaussian, discrete_laplace


def timed(fn, repeats=3):
    "Best wall-clock time of `repeats` calls, and the last result."
    best, out = math.inf, None
    for _ in range(repeats):
        t = time.perf_counter(); out = fn(); best = min(best, time.perf_counter() - t)
    return best, out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--draws', type=int, default=10_000_000)
    p.add_argument('--opendp-draws', type=int, default=100_000)
    p.add_argument('--repeats', type=int, default=3)
    p.add_argument('--out', help="write the table (markdown) to this file")
    a = p.parse_args()
    sigma2 = Fraction(2**47)               # sigma = 2^23.5 grid steps, the release path's regime
    scale = Fraction(math.floor(2**23.5))
    discrete_gaussian(2.0, 10); discrete_laplace(2.0, 10)          # compile / load the numba kernels
    rows = []
    numpy_rng = np.random.default_rng()
    t_np_g, _ = timed(lambda: numpy_rng.normal(0.0, 1.0, a.draws), a.repeats)
    t_np_l, _ = timed(lambda: numpy_rng.laplace(0.0, 1.0, a.draws), a.repeats)
    t_dg, z = timed(lambda: discrete_gaussian(sigma2, a.draws), a.repeats)
    assert abs(z.std() / math.sqrt(sigma2) - 1) < 0.01, z.std()
    t_dl, z = timed(lambda: discrete_laplace(scale, a.draws), a.repeats)
    assert abs(z.std() / (math.sqrt(2) * float(scale)) - 1) < 0.01, z.std()
    rows.append(("discrete Gaussian, os.urandom", a.draws, t_dg, t_dg / t_np_g, "numpy normal"))
    rows.append(("discrete Laplace, os.urandom", a.draws, t_dl, t_dl / t_np_l, "numpy laplace"))
    rows.append(("numpy normal (float, not safe)", a.draws, t_np_g, 1.0, "numpy normal"))
    rows.append(("numpy laplace (float, not safe)", a.draws, t_np_l, 1.0, "numpy laplace"))
    try:
        import opendp.prelude as dp
        dp.enable_features("contrib")
        ints = dp.vector_domain(dp.atom_domain(T=int))
        mg = dp.m.make_gaussian(ints, dp.l2_distance(T=int), scale=float(math.sqrt(sigma2)))
        ml = dp.m.make_laplace(ints, dp.l1_distance(T=int), scale=float(scale))
        zeros = [0] * a.opendp_draws
        t_og, _ = timed(lambda: mg(zeros), 1); t_ol, _ = timed(lambda: ml(zeros), 1)
        per_g, per_l = t_og / a.opendp_draws, t_ol / a.opendp_draws
        rows.append(("OpenDP discrete Gaussian", a.opendp_draws, t_og, None, f"ours {per_g / (t_dg / a.draws):.0f}x faster per draw"))
        rows.append(("OpenDP discrete Laplace", a.opendp_draws, t_ol, None, f"ours {per_l / (t_dl / a.draws):.0f}x faster per draw"))
    except ImportError:
        print("opendp not installed: its rows are skipped")
    lines = ["| sampler | draws | seconds (best of runs) | time ratio vs numpy | note |", "|---|---|---|---|---|"]
    for name, n, t, r, note in rows:
        lines.append(f"| {name} | {n:,} | {t:.3f} | {'-' if r is None else f'{r:.1f}x'} | {note} |")
    table = "\n".join(lines)
    print(table)
    print(f"\n{a.draws:,} secure discrete Gaussian draws in {t_dg:.2f} s ({'meets' if t_dg < 5 else 'misses'} the 5 s bar)")
    if a.out:
        with open(a.out, "w") as f:
            f.write(f"# Secure noise\n\nCommand: `python benchmarks/noise.py --draws {a.draws} --out {a.out}`\n\n{table}\n")


if __name__ == '__main__':
    main()
