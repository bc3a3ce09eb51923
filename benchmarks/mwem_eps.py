"""Error against epsilon on the embedded data: the lecture's MWEM, mwem-hlm (last iterate and average), the Gaussian
mechanism and the projection mechanism, all 2-way marginals of `default_dataset(5000, rng=0)`, delta 1e-9, seeds
0 and 1 (the figure of 04_mwem's "Plots" section; the page reads the figure and this table).

Usage:  python benchmarks/mwem_eps.py [--seeds 2] [--out benchmarks/results_mwem_eps.md]
            [--png benchmarks/mwem_eps.png]
"""
import argparse, os, sys, time
from pathlib import Path
import numpy as np
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import dpnotes.projection  # noqa: E402,F401  (registers 'projection')
from dpnotes.data import default_dataset  # noqa: E402
from dpnotes.mwem import mwem, mwem_practical  # noqa: E402
from dpnotes.privacy import Budget  # noqa: E402
from dpnotes import MECHANISMS  # noqa: E402
from dpnotes.workloads import Marginals, max_error, rmse  # noqa: E402

p = argparse.ArgumentParser()
p.add_argument("--seeds", type=int, default=2)
p.add_argument("--out", default=str(Path(__file__).parent / "results_mwem_eps.md"))
p.add_argument("--png", default=str(Path(__file__).parent / "mwem_eps.png"))
args = p.parse_args()

data = default_dataset(5000, rng=0)
W2 = Marginals.all_kway(data.domain, 2)
h2 = W2.answer(data)
epss = [0.25, 0.5, 1.0, 2.0, 4.0]
g = lambda s: np.random.default_rng(s)
methods = {
    "MWEM (lecture)": lambda b, s: mwem(data, W2, b, rng=g(s)),
    "MWEM-HLM (last)": lambda b, s: mwem_practical(data, W2, b, rng=g(s)),
    "MWEM-HLM (average)": lambda b, s: mwem_practical(data, W2, b, rng=g(s), average=True),
    "gaussian": lambda b, s: MECHANISMS['gaussian'](data, W2, b, rng=g(s)),
    "projection": lambda b, s: MECHANISMS['projection'](data, W2, b, rng=g(s)),
}
t0, load = time.time(), os.getloadavg()[0]
rows, bound = {}, []
for name, fn in methods.items():
    rows[name] = []
    for e in epss:
        rs = [fn(Budget.approx(e, 1e-9), s) for s in range(args.seeds)]
        rows[name].append((np.mean([rmse(x.answers, h2) for x in rs]), np.mean([max_error(x.answers, h2) for x in rs])))
        if name == "MWEM (lecture)":
            bound.append(np.mean([x.info['bound'] for x in rs]))
lines = [f"Command: `python benchmarks/mwem_eps.py {' '.join(sys.argv[1:])}`  ",
         f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {load:.1f} at the start, "
         f"{time.time() - t0:.0f} s in all; {args.seeds} seeds, means over them.", "",
         "| method | " + " | ".join(f"eps={e}: RMSE, max error" for e in epss) + " |",
         "|---|" + "---|" * len(epss)]
for name, rr in rows.items():
    lines.append(f"| {name} | " + " | ".join(f"{a:.4f}, {b:.4f}" for a, b in rr) + " |")
lines.append("| lecture bound (MWEM, max error) | " + " | ".join(f"{b:.3f}" for b in bound) + " |")
Path(args.out).write_text("\n".join(lines) + "\n")
print("\n".join(lines))
fig, axs = plt.subplots(1, 2, figsize=(9, 4), dpi=80)
for name, rr in rows.items():
    axs[0].loglog(epss, [x[0] for x in rr], 'o-', label=name)
    axs[1].loglog(epss, [x[1] for x in rr], 'o-', label=name)
axs[1].loglog(epss, bound, 'k:', label="lecture bound (MWEM)")
for a, t in zip(axs, ("RMSE", "max error")):
    a.set_xlabel("epsilon (delta=1e-9)")
    a.set_title(t)
    a.xaxis.set_minor_locator(plt.NullLocator())
    a.set_xticks(epss, [str(e) for e in epss])
axs[1].legend(fontsize=7, loc='lower left')
plt.tight_layout()
fig.savefig(args.png)
