"""mwem-hlm's default rounds (`dpnotes.mwem.hlm_rounds`) against fixed T in {16, 32, 64}.

NLTCS all 3-way marginals and adult 2-way marginals (the 8 attributes of benchmarks/mwem.py), epsilon 1 and
0.2 at delta 1e-9, two seeds each; RMSE against the true answers. The target: the default is never worse
than 2x the best fixed T.

Usage:  python benchmarks/mwem_rounds.py [--seeds 2] [--out benchmarks/results_mwem_rounds.md]
"""
import argparse, sys, time
from pathlib import Path
import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from mwem import load  # noqa: E402  (the same data loading as benchmarks/mwem.py)
from dpnotes.mwem import mwem_practical  # noqa: E402
from dpnotes.privacy import Budget  # noqa: E402
from dpnotes.workloads import Marginals, rmse  # noqa: E402

p = argparse.ArgumentParser()
p.add_argument("--seeds", type=int, default=2)
p.add_argument("--out", default=str(Path(__file__).parent / "results_mwem_rounds.md"))
args = p.parse_args()

rows = ["| data | epsilon | default T | default RMSE | T=16 | T=32 | T=64 | default / best | seconds (default) |",
        "|---|---|---|---|---|---|---|---|---|"]
worst = 0.0
for name, k in (("nltcs", 3), ("adult", 2)):
    data = load(name)
    W = Marginals.all_kway(data.domain, k)
    truth = W.answer(data)
    for eps in (1.0, 0.2):
        b = Budget.approx(eps, 1e-9)
        res, T_used, secs = {}, None, 0.0
        for T in (None, 16, 32, 64):
            errs = []
            for s in range(args.seeds):
                t0 = time.perf_counter()
                rel = mwem_practical(data, W, b, rng=np.random.default_rng(s), rounds=T)
                if T is None:
                    T_used, secs = rel.info["rounds"], secs + time.perf_counter() - t0
                errs.append(float(rmse(rel.answers, truth)))
            res[T] = float(np.mean(errs))
        best = min(res[T] for T in (16, 32, 64))
        worst = max(worst, res[None] / best)
        rows.append(f"| {name} {k}-way (n={data.n}) | {eps} | {T_used} | {res[None]:.5f} | {res[16]:.5f} | "
                    f"{res[32]:.5f} | {res[64]:.5f} | {res[None] / best:.2f} | {secs / args.seeds:.2f} |")
        print(rows[-1], flush=True)
text = "\n".join(["# mwem-hlm default rounds", "",
                  f"RMSE, mean over {args.seeds} seeds; delta=1e-9. Largest default / best: {worst:.2f}.", "",
                  *rows, ""])
Path(args.out).write_text(text)
print(f"largest default / best fixed T: {worst:.2f}")
