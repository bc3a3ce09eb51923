"""Start-up time of the `dpnotes` command and package, as ratios to `python -c "import numpy"` in the same run.

Each command runs in its own process, `--runs` times, interleaved round by round with the reference so that
load on the machine affects both alike; the script prints the median wall time of each and its ratio to the
median of the reference. The tiny release is 12 answers (all 1-way marginals of three 4-valued attributes) of
a 5-row CSV by the Gaussian mechanism, (1, 1e-9)-DP, written to a temporary folder (it runs the kernels'
Python versions and imports neither numba nor scipy); a release of all 64 cells of the 3-way marginal of a
20,000-row file shows the compiled path (its parsing and counting); every command is run once first, untimed,
so that numba's on-disk caches are warm. The issue's bars: `--version` and `--help` within 2x of the
reference, the tiny release within 3x.

Python writes each module's bytecode (`__pycache__`) the first time it imports it, unless
PYTHONDONTWRITEBYTECODE is set; then every start compiles every module of dpnotes from source again. The
commands run as a user's would, with that variable removed, unless `--env-as-is`.

Usage: python benchmarks/startup.py [--runs 7] [--env-as-is]
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile, time
from pathlib import Path


def timed(cmd, env=None) -> float:
    "Wall seconds of `cmd` in its own process; exit if it fails."
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    secs = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"{' '.join(map(str, cmd))} failed:\n{p.stderr[-2000:]}")
    return secs


def tiny_files(folder: Path) -> tuple:
    "A 5-row integer CSV over three 4-valued attributes, a 20,000-row one, and their domain JSON."
    csvp, domp, bigp = folder / "tiny.csv", folder / "tiny-domain.json", folder / "big.csv"
    csvp.write_text("a,b,c\n0,1,2\n3,0,1\n2,2,2\n1,3,0\n0,0,3\n")
    bigp.write_text("a,b,c\n" + "".join(f"{i % 4},{i // 4 % 4},{i // 16 % 4}\n" for i in range(20_000)))
    domp.write_text(json.dumps({"a": 4, "b": 4, "c": 4}))
    return str(csvp), str(domp), str(bigp)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7, help="runs of each command (median reported)")
    ap.add_argument("--env-as-is", action="store_true", help="keep PYTHONDONTWRITEBYTECODE if it is set")
    args = ap.parse_args()
    env = dict(os.environ)
    if not args.env_as_is:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    exe = shutil.which("dpnotes") or sys.exit("the dpnotes console script is not on PATH: pip install -e .")
    py = sys.executable
    with tempfile.TemporaryDirectory() as d:
        csvp, domp, bigp = tiny_files(Path(d))
        out = str(Path(d) / "answers.csv")
        release = [exe, "release", "--data", csvp, "--domain", domp, "--workload", "marginals:1",
                   "--epsilon", "1", "--delta", "1e-9", "--out", out]
        cmds = {
            'python -c "import numpy"': [py, "-c", "import numpy"],
            "dpnotes --version": [exe, "--version"],
            "dpnotes --help": [exe, "--help"],
            'python -c "import dpnotes"': [py, "-c", "import dpnotes"],
            "dpnotes release (12 answers, 5 rows, gaussian)": release,
            # a larger file: parsed and counted by the compiled kernels (numba and its cache loaded)
            "dpnotes release (64 answers, 20,000 rows, gaussian)": [
                *release[:3], bigp, *release[4:7], "marginals:3", *release[8:]
            ],
            # what a small release no longer imports: numba, and scipy's operators
            'python -c "import numba"': [py, "-c", "import numba"],
            'python -c "import scipy.sparse.linalg"': [py, "-c", "import scipy.sparse.linalg"],
        }
        clean = lambda: [p.unlink() for p in Path(d).glob("answers.csv*")]
        for cmd in cmds.values():  # warm numba's caches, the bytecode caches and the OS file cache
            timed(cmd, env)
            clean()  # the releases share one --out, and a release never replaces a file unasked
        times = {k: [] for k in cmds}
        for _ in range(args.runs):
            for k, cmd in cmds.items():
                times[k].append(timed(cmd, env))
                clean()
    ref = statistics.median(times['python -c "import numpy"'])
    bars = {"dpnotes --version": 2, "dpnotes --help": 2, "dpnotes release (12 answers, 5 rows, gaussian)": 3}
    how = "as given" if args.env_as_is else "without PYTHONDONTWRITEBYTECODE"
    print(f"median of {args.runs} runs each, environment {how}, load average {os.getloadavg()[0]:.2f} at the end")
    print(f"{'command':48s} {'median s':>9s} {'min s':>7s} {'ratio':>6s}  bar")
    for k, ts in times.items():
        med = statistics.median(ts)
        bar = f"<= {bars[k]}x: {'met' if med / ref <= bars[k] else 'MISSED'}" if k in bars else ""
        print(f"{k:48s} {med:9.3f} {min(ts):7.3f} {med / ref:6.2f}  {bar}")


if __name__ == "__main__":
    main()
