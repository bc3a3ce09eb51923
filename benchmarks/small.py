"""Small data: `local` against private-pgm's MWEM+PGM and AIM on random samples of 1,000 and 2,000 records.

    python benchmarks/small.py [--sets sub7 nltcs7 hd7] [--sizes 1000 2000] [--seeds 0 1 2]
        [--variants default model ...] [--peers aim mwem+pgm | --no-peers] [--jobs 1] [--table]

Each (set, size, seed) is a sample of `size` records drawn without replacement from the public dataset with
numpy's default_rng(seed) (the same sample for every system), written with its domain to a temporary directory
(deleted afterwards; no data is kept). Sets: `sub7` is peers.py's 7 adult attributes (the tuning set); `nltcs7`
the first 7 of NLTCS's 16 binary attributes, `hd7` and `hd7b` 7 attributes of adult_hd each (HD7, HD7B: large
tables, the factorization's spread near its limit) are held out. Workload: all 2-way marginals;
(eps=1, delta=1e-9)-DP under add/remove neighbours: dpnotes with neighbours='add-remove' and
max_records=10^6 (as peers.py), the peers with their own relation (add/remove). Every run uses seed `seed` for
its noise. Scored with peers.py's `score` against the sample's own true marginals (RMSE and max error over all
cells, probability units). Each variant is `local` with the public options in VARIANTS. Runs are appended to
`results_small.json` (a re-run replaces), the table `results_small.md` is rebuilt from it.

The peers' virtualenv needs versions of their time: private-pgm at 4d2b3c5 (2025-08) crashes under jax 0.10
(`Factor + tracer` in `normalize`) and pandas 3 (`groupby.apply` drops the grouping columns in
`synthetic_data`, a KeyError at the end of every run); jax[cpu]==0.6.2, chex==0.1.90, optax==0.2.5 and
pandas 2.2.3 run both mechanisms.
"""
import argparse, json, os, subprocess, sys, tempfile, time, warnings
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from peers import DATA, DELTA, MAX_RECORDS, SUB7, score  # noqa: E402
from runner_args import driver_args, parse_runs  # noqa: E402
from dpnotes.ingest import read_csv  # noqa: E402
from dpnotes.privacy import Budget  # noqa: E402
from dpnotes.projection_solvers import ConvergenceWarning  # noqa: E402
from dpnotes import MECHANISMS  # noqa: E402
from dpnotes.workloads import Marginals  # noqa: E402
import dpnotes.local  # noqa: E402,F401

HERE = Path(__file__).resolve().parent
NLTCS7 = ['eating', 'getting in/out of bed', 'getting around inside', 'dressing', 'bathing', 'using toilet',
          'heavy house work']
HD7 = ['age', 'education', 'occupation', 'hours-per-week', 'sex', 'race', 'income>50K']
HD7B = ['age', 'fnlwgt', 'workclass', 'education', 'marital-status', 'sex', 'income>50K']
SETS = {'sub7': ('adult', 'adult.csv', 'adult-domain.json', SUB7),
        'nltcs7': ('nltcs', 'nltcs.csv', 'nltcs-domain.json', NLTCS7),
        'hd7': ('adult_hd', 'adult.csv', 'adult-domain.json', HD7),
        'hd7b': ('adult_hd', 'adult.csv', 'adult-domain.json', HD7B)}
VARIANTS = {  # name: local_mechanism's public options (default: none)
    'default': {},
    'model': dict(base='gaussian', shrink='model'),
    'model.5': dict(base='gaussian', shrink='model', model_share=0.5),
    'model.7': dict(base='gaussian', shrink='model', model_share=0.7),
    'model.5t0': dict(base='gaussian', shrink='model', model_share=0.5, topup_share=0.0),
    'model.8t0': dict(base='gaussian', shrink='model', model_share=0.8, topup_share=0.0),
    'margins': dict(base='gaussian', shrink='margins'),
    'indep': dict(base='gaussian', shrink='independence'),
    'gauss': dict(base='gaussian', shrink=None),
    'gauss-thr': dict(base='gaussian', shrink=None, threshold=3.0),
    'fact-local': dict(base='factorization', body='local'),
    'margins-local': dict(base='gaussian', shrink='margins', body='local'),
    'gauss-nothr': dict(base='gaussian', shrink=None, threshold=None),
    'model.15t0': dict(base='gaussian', shrink='model', model_share=0.15, topup_share=0.0),
}
PEERS = ['mwem+pgm', 'aim']
EPS = 1.0


def sample(name, size, seed, tmp):
    "(csv path, domain path) of the sample, written under tmp: the set's attributes only."
    folder, csv, dom, attrs = SETS[name]
    df = pd.read_csv(DATA / folder / csv)[attrs]
    idx = np.random.default_rng(seed).choice(len(df), size=size, replace=False)
    domain = json.loads((DATA / folder / dom).read_text())
    c, d = Path(tmp) / f"{name}-{size}-{seed}.csv", Path(tmp) / f"{name}-{size}-{seed}-domain.json"
    df.iloc[np.sort(idx)].to_csv(c, index=False)
    d.write_text(json.dumps({a: domain[a] for a in attrs}))
    return c, d


def run_local(data, W, truth, seed, opts):
    mech = MECHANISMS['local']
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', ConvergenceWarning)
        rel = mech(data, W, Budget.approx(EPS, DELTA), rng=np.random.default_rng(seed), neighbours='add-remove',
                   max_records=MAX_RECORDS, **opts)
    r, m = score(W.blocks(rel.answers), truth)
    return dict(status='ok', rmse=r, max=m, seconds=time.perf_counter() - t0)


def start_peer(args, peer, csv, dom, seed):
    out = tempfile.NamedTemporaryFile(suffix='.json', delete=False, dir=args.tmp).name
    cmd = [args.pgm_python, str(HERE / 'pgm_runner.py'), '--src', args.pgm_src, '--mech', peer,
           '--csv', str(csv), '--domain', str(dom), '--degree', '2', '--epsilon', str(EPS), '--delta', str(DELTA),
           '--seed', str(seed), '--out', out]
    log = open(out + '.log', 'w')
    return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ, JAX_ENABLE_X64='0')), out


def finish_peer(proc, out, truth):
    if proc.returncode != 0:
        tail = [ln for ln in Path(out + '.log').read_text().splitlines() if ln.strip()][-1:] or ['?']
        return dict(status=f'crashed: {tail[0][:120]}')
    res = json.loads(Path(out).read_text())
    r, m = score(res['tables'], truth)
    return dict(status='ok', rmse=r, max=m, seconds=res['seconds'])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--sets', nargs='+', default=['sub7'])
    ap.add_argument('--sizes', nargs='+', type=int, default=[1000, 2000])
    ap.add_argument('--seeds', nargs='+', type=int, default=[0, 1, 2])
    ap.add_argument('--variants', nargs='*', default=['default'])
    ap.add_argument('--peers', nargs='*', default=PEERS)
    ap.add_argument('--no-peers', action='store_true')
    args, path, runs = parse_runs(driver_args(ap, HERE / 'results_small.json'))
    if args.table:
        return write_table(runs, path.with_suffix('.md'))
    command = 'python benchmarks/small.py ' + ' '.join(sys.argv[1:])
    key = lambda r: (r['set'], r['size'], r['seed'], r['system'])
    done = {key(r) for r in runs if args.resume}

    def record(res, **k):
        res.update(k, command=command, when=time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime()),
                   load=os.getloadavg()[0])
        runs[:] = [r for r in runs if key(r) != key(res)]
        runs.append(res)
        path.write_text(json.dumps(runs, indent=1))
        print(k, {x: res[x] for x in ('status', 'rmse', 'max', 'seconds') if x in res}, flush=True)

    peers = [] if args.no_peers or not (Path(args.pgm_python).exists() and Path(args.pgm_src).exists()) else args.peers
    with tempfile.TemporaryDirectory() as tmp:
        args.tmp = tmp
        jobs = []  # (set, size, seed, csv, dom, truth, data, W)
        for name in args.sets:
            for size in args.sizes:
                for seed in args.seeds:
                    csv, dom = sample(name, size, seed, tmp)
                    data = read_csv(csv, dom)
                    W = Marginals.all_kway(data.domain, 2)
                    jobs.append((name, size, seed, csv, dom, W.answer(data), data, W))
        todo = [(j, p) for j in jobs for p in peers if key(dict(set=j[0], size=j[1], seed=j[2], system=p)) not in done]
        running = []
        for name, size, seed, csv, dom, truth, data, W in jobs:  # ours first (seconds), then the peers
            for v in args.variants:
                if key(dict(set=name, size=size, seed=seed, system=f'local:{v}')) not in done:
                    record(run_local(data, W, truth, seed, VARIANTS[v]), set=name, size=size, seed=seed,
                           system=f'local:{v}')
        while todo or running:
            while todo and len(running) < args.jobs:
                j, p = todo.pop(0)
                running.append((j, p) + start_peer(args, p, j[3], j[4], j[2]))
            time.sleep(2)
            for item in list(running):
                j, p, proc, out = item
                if proc.poll() is not None:
                    record(finish_peer(proc, out, j[5]), set=j[0], size=j[1], seed=j[2], system=p)
                    running.remove(item)
    write_table(runs, path.with_suffix('.md'))


def write_table(runs, out):
    """Per (set, size): each system's mean RMSE and max error over the seeds every peer ran (its ratio to the
    best peer's mean: lowest RMSE, lowest max error), and over all its seeds."""
    lines = ["# Small data: `local` against MWEM+PGM and AIM on 1,000- and 2,000-record samples\n",
             "All 2-way marginals, (eps=1, delta=1e-9)-DP, add/remove neighbours; each seed is its own sample "
             "and its own noise. 'Peer seeds': the mean over the seeds on which every peer finished (the ratios "
             "are to the best peer's mean there); 'all seeds': over every seed the system ran. `local:NAME` is "
             "`local` with the options `VARIANTS[NAME]` of `benchmarks/small.py`. Regenerated by "
             "`benchmarks/small.py --table` from `results_small.json`.\n"]
    for name in dict.fromkeys(r['set'] for r in runs):
        for size in sorted({r['size'] for r in runs if r['set'] == name}):
            ok = [r for r in runs if r['set'] == name and r['size'] == size and r['status'] == 'ok']
            by = {}
            for r in ok:
                by.setdefault(r['system'], {})[r['seed']] = r
            peers = [p for p in PEERS if p in by]
            common = sorted(set.intersection(*[set(by[p]) for p in peers])) if peers else []
            mean = lambda s, k, seeds: float(np.mean([by[s][x][k] for x in seeds])) if seeds else np.nan
            br = min((mean(p, 'rmse', common) for p in peers), default=np.nan)
            bm = min((mean(p, 'max', common) for p in peers), default=np.nan)
            lines += [f"\n## {name}, {size} records (peer seeds: {','.join(map(str, common)) or 'none'})\n",
                      "| system | RMSE, peer seeds | / best peer | max error, peer seeds | / best peer | "
                      "seeds | RMSE, all seeds | max error, all seeds | seconds |",
                      "|---|---|---|---|---|---|---|---|---|"]
            for s in sorted(by, key=lambda s: (mean(s, 'rmse', [x for x in common if x in by[s]]) if common
                                               else mean(s, 'rmse', list(by[s])))):
                seeds, cs = sorted(by[s]), [x for x in common if x in by[s]]
                r, m = (mean(s, 'rmse', cs), mean(s, 'max', cs)) if cs == common and cs else (np.nan, np.nan)
                lines.append(f"| {s} | {r:.4g} | {r / br:.3f} | {m:.4g} | {m / bm:.3f} | {len(seeds)} | "
                             f"{mean(s, 'rmse', seeds):.4g} | {mean(s, 'max', seeds):.4g} | "
                             f"{mean(s, 'seconds', seeds):.1f} |")
    out.write_text('\n'.join(lines) + '\n')

if __name__ == '__main__':
    main()
