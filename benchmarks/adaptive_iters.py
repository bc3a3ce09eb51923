"""The adaptive mechanism's estimation steps: refit steps per round (`iters`) and steps of the final fit
(`final_iters`) against RMSE and seconds.

The datasets of benchmarks/peers.py (7 adult attributes and adult, all 2-way marginals; NLTCS and adult, all
3-way), add/remove neighbours through the registry as in the peers table, (eps, 1e-9)-DP; the same seeds for
every setting, so the rows differ only in how long the graphical model is fitted (post-processing: the same
privacy for all of them). RMSE over all cells of all workload marginals, scored by peers.py's code.

Usage:  python benchmarks/adaptive_iters.py [--datasets sub7 nltcs adult2 adult3] [--eps 1 0.5] [--seeds 0 1]
            [--settings 100:2000 100:200 50:200] [--out benchmarks/results_adaptive_iters.md]
"""
import argparse, os, sys, time
from pathlib import Path
import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from peers import DELTA, present, score  # noqa: E402
from dpnotes.privacy import Budget  # noqa: E402
from dpnotes import MECHANISMS  # noqa: E402

p = argparse.ArgumentParser()
p.add_argument("--datasets", nargs="+", default=["sub7", "nltcs", "adult2", "adult3"])
p.add_argument("--eps", nargs="+", type=float, default=[1.0, 0.5])
p.add_argument("--seeds", nargs="+", type=int, default=[0, 1])
p.add_argument("--settings", nargs="+", default=["100:2000", "100:200", "50:200"], help="iters:final_iters")
p.add_argument("--out", default=str(Path(__file__).parent / "results_adaptive_iters.md"))
args = p.parse_args()
settings = [tuple(int(x) for x in s.split(":")) for s in args.settings]

lines = [f"Command: `python benchmarks/adaptive_iters.py {' '.join(sys.argv[1:])}`  ",
         f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {os.getloadavg()[0]:.1f} "
         "at the start (2 cores, shared).", "",
         "| data | eps | iters:final_iters | RMSE (mean over seeds) | RMSE / first setting's | seconds (mean) "
         "| seconds / first setting's |",
         "|---|---|---|---|---|---|---|"]
mech = MECHANISMS["adaptive"]
for dname, data, W, truth in present(args.datasets):
    for eps in args.eps:
        first = first_secs = None
        for it, fin in settings:
            errs, secs = [], []
            for s in args.seeds:
                t0 = time.perf_counter()
                rel = mech(data, W, Budget.approx(eps, DELTA), rng=np.random.default_rng(s),
                           neighbours="add-remove", max_records=1_000_000, iters=it, final_iters=fin)
                secs.append(time.perf_counter() - t0)
                errs.append(score(W.blocks(rel.answers), truth)[0])
            r = float(np.mean(errs))
            sec = float(np.mean(secs))
            first, first_secs = (r, sec) if first is None else (first, first_secs)
            lines.append(f"| {dname} | {eps} | {it}:{fin} | {r:.6f} | {r / first:.3f} | {sec:.1f} | "
                         f"{sec / first_secs:.2f} |")
            print(lines[-1], flush=True)
Path(args.out).write_text("\n".join(lines) + "\n")
