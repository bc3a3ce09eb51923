"""The graphical-model fit, one evaluation (potentials -> calibrated clique marginals -> loss and gradient):
the compiled pass `_fit_pass` against the numpy log-space route `_Fit.__call__` it replaced, in the same run.

The models are the ones the adaptive mechanism builds on the datasets of benchmarks/peers.py (add/remove
neighbours, eps = 1, delta = 1e-9, seed 0): its final measured sets, taken in order, in four prefixes (a quarter,
half, three quarters, all of them), so the table runs from the small models of the first rounds to the final
one. The answers are the true marginals plus Gaussian noise at the mechanism's scales (a timing benchmark, not a
release); the potentials are the released model's. Each route is timed as the best of 5 repetitions of
`--reps` evaluations; the two routes' losses and measured marginals are compared on every row.

Usage:  python benchmarks/models.py [--datasets sub7 nltcs adult2 adult3] [--reps 20] [--out FILE]
"""
import argparse, os, sys, time
from pathlib import Path
import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from peers import DELTA, present  # noqa: E402
from dpnotes.privacy import Budget  # noqa: E402
from dpnotes import MECHANISMS  # noqa: E402
from dpnotes.measurements import Measurement  # noqa: E402
from dpnotes.models import _Fit  # noqa: E402

p = argparse.ArgumentParser()
p.add_argument("--datasets", nargs="+", default=["sub7", "nltcs", "adult2", "adult3"])
p.add_argument("--reps", type=int, default=20)
p.add_argument("--out", default=None)
args = p.parse_args()


def best_ms(f, reps):
    out = []
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(reps):
            f()
        out.append((time.perf_counter() - t) / reps * 1000)
    return min(out)


lines = [f"Command: `python benchmarks/models.py {' '.join(sys.argv[1:])}`  ",
         f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {os.getloadavg()[0]:.1f} "
         "at the start (2 cores, shared).", "",
         "| data | measured sets | cliques | model cells | compiled ms | log-space ms | speed-up | loss rel. diff "
         "| max marginal diff |", "|---|---|---|---|---|---|---|---|---|"]
print("\n".join(lines), flush=True)
for dname, data, W, truth in present(args.datasets):
    rel = MECHANISMS["adaptive"](data, W, Budget.approx(1.0, DELTA), rng=np.random.default_rng(0),
                                 neighbours="add-remove", max_records=1_000_000)
    rng, model = np.random.default_rng(1), rel.info["model"]
    ms = []
    for attrs, sigma in zip(rel.info["measured"], rel.info["sigmas"]):
        mu = data.marginal(attrs) / data.n
        ms.append(Measurement(attrs, mu + rng.normal(0, sigma, mu.size), sigma))
    for k in sorted({max(1, len(ms) * q // 4) for q in (1, 2, 3, 4)}):
        fit = _Fit(data.domain, ms[:k])
        x = np.concatenate([np.ravel(model.phi[s]) if s in model.phi else
                            np.zeros(int(np.prod([data.domain[a] for a in s]))) for s in fit.sets])
        ok, f, _, mu, _ = fit.flat(x)
        _, f0, _, mu0 = fit(fit.tables(x))
        mu0 = np.concatenate([mu0[s].ravel() for s in fit.sets])
        if not ok:
            lines.append(f"| {dname} | {len(fit.sets)} | compiled pass declined (range budget) | | | | | | |")
            continue
        new = best_ms(lambda: fit.flat(x), args.reps)
        old = best_ms(lambda: fit(fit.tables(x)), args.reps)
        lines.append(f"| {dname} | {len(fit.sets)} | {len(fit.tree.cliques)} | {fit.tree.size():,} | {new:.3f} | "
                     f"{old:.3f} | {old / new:.1f}x | {abs(f - f0) / f0:.1e} | {np.max(np.abs(mu - mu0)):.1e} |")
        print(lines[-1], flush=True)
if args.out:
    Path(args.out).write_text("\n".join(lines) + "\n")
