"""Benchmark: marginal counts of a folder of Parquet files, streamed in one process vs Dask LocalCluster workers.

Usage: python benchmarks/dask_counts.py [--rows 100000000] [--files 10] [--d 16] [--k 3]
                                        [--workers 1 2] [--in-memory-rows 10000000] [--dir DIR] [--out FILE]

Generates (once) `--files` Parquet files of integer codes (uint8 columns, row groups of 1e6 rows) in --dir
(not committed): the correlated chain of benchmarks/ingest.py, attribute i with 2 + i % 9 values. Then counts
all k-way marginals with dpnotes.sources.count_marginals:
  stream      engine='memory': row group after row group in this process
  dask-W      engine='dask' on a distributed.LocalCluster of W single-threaded worker processes
  in-memory   read_parquet + Dataset.marginals on the first files holding --in-memory-rows rows
Every result is checked equal (bit for bit) to the stream counts of the same files. Rows per second are
records counted per second of wall time, numba warm-up excluded (one small count first, in each worker).
"""
import argparse, itertools, json, logging, time
from pathlib import Path

import numpy as np


def make_parquet(folder, rows, files, d, seed=0, group=1_000_000):
    import pyarrow as pa, pyarrow.parquet as pq

    sizes = [2 + (i % 9) for i in range(d)]
    rng = np.random.default_rng(seed)
    per = rows // files
    for f in range(files):
        cols = [rng.integers(0, sizes[0], per, dtype=np.uint8)]
        for s in sizes[1:]:
            fresh = rng.integers(0, s, per, dtype=np.uint8)
            cols.append(np.where(rng.random(per, dtype=np.float32) < 0.3, cols[-1] % s, fresh).astype(np.uint8))
        table = pa.table({f'a{i}': c for i, c in enumerate(cols)})
        pq.write_table(table, Path(folder) / f'part{f:03d}.parquet', row_group_size=group)
        print(f"  wrote file {f + 1}/{files}", flush=True)
    (Path(folder) / 'domain.json').write_text(json.dumps({f'a{i}': s for i, s in enumerate(sizes)}))


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--rows', type=int, default=100_000_000)
    p.add_argument('--files', type=int, default=10)
    p.add_argument('--d', type=int, default=16)
    p.add_argument('--k', type=int, default=3)
    p.add_argument('--workers', type=int, nargs='*', default=[1, 2])
    p.add_argument('--in-memory-rows', type=int, default=10_000_000)
    p.add_argument('--skip-stream', action='store_true')
    p.add_argument('--dir', default='/work/scratch/scale-data')
    p.add_argument('--out')
    a = p.parse_args()

    from distributed import Client, LocalCluster

    from dpnotes.data import Domain
    from dpnotes.sources import count_marginals, read_parquet

    folder = Path(a.dir) / f'parquet_{a.rows}x{a.d}_{a.files}'
    if not (folder / 'domain.json').exists():
        folder.mkdir(parents=True, exist_ok=True)
        _, secs = timed(lambda: make_parquet(folder, a.rows, a.files, a.d))
        print(f"generated {folder} in {secs:.0f} s")
    dom = Domain.from_json(folder / 'domain.json')
    cliques = list(itertools.combinations(dom.attrs, a.k))
    one = sorted(folder.glob('*.parquet'))[0]
    count_marginals(one, dom, cliques[:2])  # warm the numba cache in this process
    lines = [f"{a.rows:,} rows x {a.d} in {a.files} Parquet files, all {len(cliques)} {a.k}-way marginals:"]

    def report(name, mc, secs, ref):
        same = 'reference' if ref is None else ('equal' if all(np.array_equal(x, y) for x, y in zip(mc.counts, ref)) else 'DIFFER')
        lines.append(f"  {name:10s} {secs:8.1f} s  {mc.n / secs / 1e6:6.2f} M rows/s  counts {same}")
        print(lines[-1], flush=True)

    ref = None
    if not a.skip_stream:
        mc, secs = timed(lambda: count_marginals(folder, dom, cliques))
        report('stream', mc, secs, None)
        ref = mc.counts
    for w in a.workers:
        with LocalCluster(n_workers=w, threads_per_worker=1, dashboard_address=None,
                          silence_logs=logging.ERROR) as lc, Client(lc) as c:
            c.run(lambda: count_marginals(one, dom, cliques[:2]) and None)  # warm each worker
            mc, secs = timed(lambda: count_marginals(folder, dom, cliques, engine='dask'))
        report(f'dask-{w}', mc, secs, ref)
        ref = mc.counts if ref is None else ref
    if a.in_memory_rows:
        files = sorted(folder.glob('*.parquet'))[: max(1, a.in_memory_rows // (a.rows // a.files))]
        sub = Path(a.dir) / 'parquet_subset'
        sub.mkdir(exist_ok=True)
        for f in sub.glob('*.parquet'):
            f.unlink()
        for f in files:
            (sub / f.name).symlink_to(f)
        mc, s1 = timed(lambda: count_marginals(sub, dom, cliques))
        data, s2 = timed(lambda: read_parquet(sub, dom))
        counts, s3 = timed(lambda: data.marginals(cliques, normalize=False))
        same = all(np.array_equal(x, y) for x, y in zip(mc.counts, counts))
        lines.append(f"  on {data.n:,} rows: in-memory read_parquet {s2:.1f} s + Dataset.marginals {s3:.1f} s = "
                     f"{(data.n / (s2 + s3)) / 1e6:.2f} M rows/s; stream {s1:.1f} s = {data.n / s1 / 1e6:.2f} M rows/s "
                     f"(counts {'equal' if same else 'DIFFER'})")
        print(lines[-1], flush=True)
    if a.out:
        with open(a.out, 'a') as f:
            f.write('\n'.join(lines) + '\n\n')


if __name__ == '__main__':
    main()
