"""Benchmark: all 3-way marginals of a large integer-coded CSV, time and peak memory of each way to read it.

Usage: python benchmarks/ingest.py [--n 5000000] [--d 16] [--k 3] [--dir /work/scratch/scale-data]
                                   [--methods csv_module pandas from_csv count_csv] [--out FILE]

Generates (once) an n x d CSV in --dir (not committed), then runs each method in its own process, so that
peak RSS (ru_maxrss of the child) is the method's own: read the file and count every k-way marginal.
  csv_module the CSV reader before read_csv (csv module, whole file as Python lists,
             copied below) + Dataset.marginals: the "today" of the issue
  pandas     pandas.read_csv(dtype=int64) + numpy array + Dataset.marginals (same numba counting)
  from_csv   dpnotes.ingest.read_csv (chunked numba parser, records kept; once Dataset.from_csv)
             + Dataset.marginals
  count_csv  dpnotes.ingest.count_csv (chunk by chunk, counts only, table-by-table chunk counting)
Every method's counts are checked equal to the first method's. Warm-up (numba cache load) is done in each
child on a tiny file before timing.
"""
import argparse, csv as csvmod, itertools, json, resource, subprocess, sys, time
from pathlib import Path

import numpy as np

METHODS = ('csv_module', 'pandas', 'from_csv', 'count_csv')


def make_csv(path, n, d, seed=0, rows_per_block=1_000_000):
    "Correlated chain of d attributes with 2..10 values; written block by block."
    sizes = [2 + (i % 9) for i in range(d)]
    rng = np.random.default_rng(seed)
    with open(path, 'w') as f:
        f.write(','.join(f'a{i}' for i in range(d)) + '\n')
        for lo in range(0, n, rows_per_block):
            m = min(rows_per_block, n - lo)
            cols = [rng.integers(0, sizes[0], m)]
            for s in sizes[1:]:
                cols.append(np.where(rng.random(m) < 0.3, cols[-1] % s, rng.integers(0, s, m)))
            np.savetxt(f, np.column_stack(cols), fmt='%d', delimiter=',')
    Path(str(path) + '.domain.json').write_text(json.dumps({f'a{i}': s for i, s in enumerate(sizes)}))
    return sizes


def csv_module_reader(path, dom):
    "The whole-file CSV reader before the chunked one (error handling left out)."
    from dpnotes.counting import check_columns, coerce_column
    from dpnotes.data import Dataset

    with open(path, newline='', encoding='utf-8-sig') as f:
        rows = list(csvmod.reader(f))
    header = [c.strip() for c in rows[0]]
    check_columns(header, dom.attrs)
    body = [r for r in rows[1:] if r]
    table = np.array(body, dtype=str)
    cols = [coerce_column(table[:, header.index(a)], a, s) for a, s in zip(dom.attrs, dom.shape)]
    return Dataset._trusted(np.column_stack(cols), dom)


def child(method, csv, k, out):
    "Run one method in this process; write counts and timing to `out` (.npz)."
    from dpnotes.data import Dataset, Domain
    from dpnotes.ingest import count_csv, read_csv

    dom = Domain.from_json(csv + '.domain.json')
    cliques = list(itertools.combinations(dom.attrs, k))
    tiny = Path(out).with_suffix('.tiny.csv')
    tiny.write_text(','.join(dom.attrs) + '\n' + ','.join('0' * len(dom)) + '\n')
    count_csv(tiny, dom, cliques[:2])
    read_csv(tiny, dom).marginals(cliques[:2])  # warm the numba caches
    t = time.perf_counter()
    if method == 'csv_module':
        counts = csv_module_reader(csv, dom).marginals(cliques, normalize=False)
    elif method == 'from_csv':
        counts = read_csv(csv, dom).marginals(cliques, normalize=False)
    elif method == 'pandas':
        import pandas as pd

        df = pd.read_csv(csv, dtype=np.int64)
        recs = np.ascontiguousarray(df[list(dom.attrs)].to_numpy())
        del df
        counts = Dataset(recs, dom).marginals(cliques, normalize=False)
    else:
        counts = count_csv(csv, dom, cliques).counts
    secs = time.perf_counter() - t
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    np.savez(out, counts=np.concatenate(counts), secs=secs, rss=rss)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--n', type=int, default=5_000_000)
    p.add_argument('--d', type=int, default=16)
    p.add_argument('--k', type=int, default=3)
    p.add_argument('--dir', default='/work/scratch/scale-data')
    p.add_argument('--methods', nargs='+', default=list(METHODS), choices=METHODS)
    p.add_argument('--out', help='append the result lines to this markdown file')
    p.add_argument('--child', nargs=2, metavar=('METHOD', 'OUT'), help=argparse.SUPPRESS)
    a = p.parse_args()
    csv = str(Path(a.dir) / f'ingest_{a.n}x{a.d}.csv')
    if a.child:
        return child(a.child[0], csv, a.k, a.child[1])
    Path(a.dir).mkdir(parents=True, exist_ok=True)
    if not Path(csv).exists():
        t = time.perf_counter()
        make_csv(csv, a.n, a.d)
        print(f"generated {csv} in {time.perf_counter() - t:.1f} s")
    mb = Path(csv).stat().st_size / 1e6
    lines = [f"{a.n:,} x {a.d} CSV ({mb:.0f} MB), all {a.k}-way marginals "
             f"({len(list(itertools.combinations(range(a.d), a.k)))} cliques):"]
    ref, res = None, {}
    for m in a.methods:
        out = str(Path(a.dir) / f'ingest_{m}.npz')
        subprocess.run([sys.executable, __file__, '--n', str(a.n), '--d', str(a.d), '--k', str(a.k),
                        '--dir', a.dir, '--child', m, out], check=True)
        z = np.load(out)
        same = 'reference' if ref is None else ('counts equal' if np.array_equal(ref, z['counts']) else 'DIFFER')
        ref = z['counts'] if ref is None else ref
        res[m] = float(z['secs'])
        lines.append(f"  {m:9s} {float(z['secs']):7.2f} s  peak RSS {int(z['rss']) / 2**20:7.0f} MiB  ({same})")
        print(lines[-1], flush=True)
    for m in ('from_csv', 'count_csv'):
        for base in ('csv_module', 'pandas'):
            if m in res and base in res:
                lines.append(f"  {m} vs {base}: {res[base] / res[m]:.1f}x faster")
                print(lines[-1])
    if a.out:
        with open(a.out, 'a') as f:
            f.write('\n'.join(lines) + '\n\n')


if __name__ == '__main__':
    main()
