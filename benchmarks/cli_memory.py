"""Peak memory and time of `dpnotes release` on a large binary CSV, against pandas' read_csv of the same file.

The CLI reads only the workload's marginal counts, chunk by chunk, when every mechanism asked for needs only
those (`dpnotes.cli.COUNTS_ENOUGH`); this script measures what that buys on 5,000,000 records of 16 binary
attributes, all 3-way marginals, the Gaussian mechanism. Each command runs in its own process under
`/usr/bin/time -v` (peak resident set size); the data are synthetic, written to a temporary folder.

Usage: python benchmarks/cli_memory.py [--rows 5000000] [--cols 16] [--k 3]
"""
import argparse, json, os, re, subprocess, sys, tempfile, time
from pathlib import Path

import numpy as np


def write_binary_csv(path, rows, cols, seed=0):
    "A CSV of `rows` random 0/1 records (header b0..), written a block at a time as bytes."
    rng = np.random.default_rng(seed)
    with open(path, "wb") as f:
        f.write((",".join(f"b{j}" for j in range(cols)) + "\n").encode())
        for lo in range(0, rows, 1 << 20):
            block = rng.integers(0, 2, (min(1 << 20, rows - lo), cols), dtype=np.uint8)
            line = np.full((block.shape[0], 2 * cols), ord(","), np.uint8)
            line[:, 0::2] = block + ord("0")
            line[:, -1] = ord("\n")
            f.write(line.tobytes())


def measured(cmd, env=None):
    "(seconds, peak RSS in MB) of `cmd` in its own process (`env`: its environment; None: this one's)."
    t0 = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-v", *cmd], capture_output=True, text=True, env=env)
    secs = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{p.stderr[-2000:]}")
    kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr).group(1))
    return secs, kb / 1024


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=5_000_000)
    ap.add_argument("--cols", type=int, default=16)
    ap.add_argument("--k", type=int, default=3)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        csv, dom = Path(d) / "data.csv", Path(d) / "domain.json"
        write_binary_csv(csv, a.rows, a.cols)
        dom.write_text(json.dumps({f"b{j}": 2 for j in range(a.cols)}))
        py = sys.executable
        dpnotes = str(Path(py).parent / "dpnotes")  # the console script of this environment
        warm = [dpnotes, "release", "--data", str(csv), "--domain", str(dom), "--workload",
                f"marginals:{a.k}", "--epsilon", "1", "--delta", "1e-9", "--mechanism", "gaussian",
                "--out", str(Path(d) / "answers.csv")]
        measured(warm)  # numba caches warm
        rel = measured(warm)
        pdr = measured([py, "-c", f"import pandas; pandas.read_csv({str(csv)!r})"])
        print(f"{a.rows:,} x {a.cols} binary records, all {a.k}-way marginals, gaussian ({os.cpu_count()} cores)")
        print(f"dpnotes release    {rel[0]:6.2f} s  peak {rel[1]:7.0f} MB")
        print(f"pandas read_csv    {pdr[0]:6.2f} s  peak {pdr[1]:7.0f} MB")
        print(f"ratio (release / read_csv): time {rel[0] / pdr[0]:.2f}x, peak memory {rel[1] / pdr[1]:.2f}x")


if __name__ == "__main__":
    main()
