"""Time and peak memory of `dpnotes release` on adult's all 3-way marginals (364 tables, 20.9 million cells), with
synthetic records, against the Gaussian mechanism's release of the same tables in the same run.

The issue's command: the recommended mechanism (`local`), (1, 1e-9)-DP under add/remove neighbours with the public
bound max_records=50,000, the answers CSV (20.9 million rows) and as many records as the released count. The
reference is the least a release of these tables does: count them, draw the exact Gaussian noise, write the same
CSV (`--mechanism gaussian`, no records). Each command runs in its own process under `/usr/bin/time -v` (peak
resident set size) after one warm-up run of each (numba caches); noise from the OS, as a user runs it.

As in `startup.py`, both commands run without PYTHONDONTWRITEBYTECODE, which this machine sets: with it, every
start compiles the modules of dpnotes, numba, scipy and numpy from source again (about 1.4 s before the data is
read, cProfile), where a user's installed package has their bytecode. `--env-as-is` keeps it.

Usage: python benchmarks/cli_adult3.py [--data ../shared/data] [--runs 3] [--env-as-is]
"""
import argparse, os, sys, tempfile
from pathlib import Path

from cli_memory import measured


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--data', type=Path, default=Path(__file__).resolve().parents[2] / 'shared' / 'data')
    ap.add_argument('--runs', type=int, default=3)
    ap.add_argument('--env-as-is', action='store_true', help="keep PYTHONDONTWRITEBYTECODE if it is set")
    a = ap.parse_args()
    env = dict(os.environ)
    if not a.env_as_is:
        env.pop('PYTHONDONTWRITEBYTECODE', None)
    csv, dom = a.data / 'adult' / 'adult.csv', a.data / 'adult' / 'adult-domain.json'
    if not (csv.exists() and dom.exists()):
        raise SystemExit(f"adult not found under {a.data}")
    dpnotes = str(Path(sys.executable).parent / 'dpnotes')  # the console script of this environment
    with tempfile.TemporaryDirectory() as d:
        base = [dpnotes, 'release', '--data', str(csv), '--domain', str(dom), '--workload', 'marginals:3',
                '--epsilon', '1', '--delta', '1e-9', '--neighbours', 'add-remove', '--max-records', '50000',
                '--force']
        local = base + ['--out', f'{d}/local.csv', '--synthetic', f'{d}/records.csv']
        gauss = base + ['--mechanism', 'gaussian', '--out', f'{d}/gaussian.csv']
        measured(local, env), measured(gauss, env)  # warm-up: numba's caches (and bytecode, unless as is)
        rows = []
        for _ in range(a.runs):  # alternated, so that both see the same machine
            rows.append((measured(local, env), measured(gauss, env)))
        size = os.path.getsize(f'{d}/local.csv') / 2**20
    how = "as given" if a.env_as_is else "without PYTHONDONTWRITEBYTECODE"
    print(f"adult all 3-way, (1, 1e-9)-DP add/remove, {os.cpu_count()} cores, {how}; answers CSV {size:.0f} MB")
    print(f"{'run':>3s} {'local + records':>22s} {'gaussian (reference)':>24s} {'time ratio':>10s}")
    for i, ((ts, ms), (tg, mg)) in enumerate(rows):
        print(f"{i:3d} {ts:8.1f} s {ms:7.0f} MB    {tg:8.1f} s {mg:7.0f} MB    {ts / tg:8.2f}x")
    best = min(r[0][0] for r in rows), max(r[0][1] for r in rows)
    print(f"local + records: best {best[0]:.1f} s, largest peak {best[1]:.0f} MB (the issue's bars: 30 s, 1 GB)")


if __name__ == '__main__':
    main()
