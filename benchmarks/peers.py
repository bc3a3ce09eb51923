"""dpnotes against private-pgm (AIM, MWEM+PGM) and smartnoise-synth (AIM, MST) on real marginal workloads, one
metric, one machine.

    python benchmarks/peers.py [--datasets sub7 nltcs adult2 adult3] [--eps 0.5 1] [--seeds 0 1 2]
        [--only-peers | --only-dpnotes] [--timeout 1800] [--jobs 1] [--resume]
    python benchmarks/peers.py --table    # rebuild results_peers.md from the JSON, run nothing

Peers run in their own virtualenv (`--pgm-python`, default /work/venv-pgm/bin/python) from a checkout of the
private-pgm repository (`--pgm-src`: its `src/mbi` and `mechanisms/` at one commit) through
`benchmarks/pgm_runner.py`, at their default settings; they are skipped when either is absent, as are datasets
whose files are absent (`../shared/data`, see its SOURCES.md). smartnoise-synth 1.0.8 runs in its own
virtualenv (`--sn-python`, default /work/venv-snsynth/bin/python: torch 2.13.0 CPU, then smartnoise-synth) through
`benchmarks/sn_runner.py`, at its defaults but for AIM's `degree` (the workload's order), scored on the records it
samples (its public output), and is skipped when that python is absent. Every run is appended to
`benchmarks/results_peers.json`; the markdown table (`benchmarks/results_peers.md`) is rebuilt from all runs.

Privacy: (epsilon, delta = 1e-9) for everyone, under add/remove-one neighbours (the peers' relation): dpnotes
mechanisms that support it run with `neighbours='add-remove'`; the others run replace-one and are labelled so.
Metric (same code for all): RMSE and max error over all cells of all workload marginals in probability units,
each release scored as released: dpnotes's answers (fractions) as they are, the peers' tables divided by their
release's one total (see `score`). Runs scored before 2026-11-28 divided every table of a dpnotes release by its own
noisy sum, which inflates raw Gaussian answers; their rows say "renormalised". A re-run of a (dataset, system, eps,
seed) replaces the earlier run. `--jobs` peers run at once (default 1: one system at a time, as the timings need).
Under each table, per epsilon, `local` (the recommended mechanism) against the bar of issue 33: its mean RMSE at
most the lowest mean RMSE of every other add/remove system and its mean max error at most 1.1x the lowest of theirs;
a miss says by how much.
"""
import argparse, itertools, json, os, subprocess, sys, tempfile, time
from pathlib import Path

import numpy as np

from dpnotes.ingest import read_csv
from runner_args import driver_args, parse_runs
from dpnotes.privacy import Budget
from dpnotes.workloads import Marginals
from dpnotes import MECHANISMS
import dpnotes.histograms, dpnotes.projection, dpnotes.factorization, dpnotes.adaptive  # noqa: F401
import dpnotes.relaxation, dpnotes.mwem  # noqa: F401

HERE = Path(__file__).resolve().parent
DATA = HERE.parent.parent / 'shared' / 'data'
SUB7 = ['workclass', 'marital-status', 'relationship', 'race', 'sex', 'income>50K', 'education-num']
DATASETS = {  # name: (folder, csv, domain json, attributes (None: all), marginal degree)
    'sub7': ('adult', 'adult.csv', 'adult-domain.json', SUB7, 2),
    'nltcs': ('nltcs', 'nltcs.csv', 'nltcs-domain.json', None, 3),
    'adult2': ('adult', 'adult.csv', 'adult-domain.json', None, 2),
    'adult3': ('adult', 'adult.csv', 'adult-domain.json', None, 3),
}
OURS = ['adaptive', 'local', 'projection', 'gaussian', 'factorization', 'relaxation', 'mwem-hlm']  # one line per mechanism
PEERS = ['aim', 'mwem+pgm', 'sn-aim', 'sn-mst']  # sn-: smartnoise-synth 1.0.8 (records)
SN = {'sn-aim': 'aim', 'sn-mst': 'mst'}
DELTA = 1e-9
# add/remove releases declare a public bound on the number of records (data with more are refused); the
# floating-point allowance of answers that are not exact counts grows linearly with it
MAX_RECORDS = 1_000_000


def load(name):
    folder, csv, dom, attrs, k = DATASETS[name]
    data = read_csv(DATA / folder / csv, DATA / folder / dom)
    if attrs:
        data = data.project(attrs)
    return data, Marginals.all_kway(data.domain, k)


def present(names):
    "(name, data, workload, true answers) of each dataset in `names` whose CSV is here (the others: a line)."
    for dname in names:
        folder, csv = DATASETS[dname][:2]
        if not (DATA / folder / csv).exists():
            print(f"{dname}: data absent, skipped")
            continue
        data, W = load(dname)
        yield dname, data, W, W.answer(data)


def score(tables, truth):
    """RMSE and max error of a release's marginal tables against the true fractions, as released: dpnotes's answers
    are fractions already (counts over n, or over the released n_hat) and are not rescaled; the peers' runners write
    their tables in probability units, each divided by the release's one total (their tables come from one model or
    one set of records, so every table has that same total), and records' marginals are divided by their count."""
    est = np.concatenate([np.asarray(t, float).ravel() for t in tables])
    err = est - truth
    return float(np.sqrt(np.mean(err**2))), float(np.max(np.abs(err)))


def run_ours(name, data, W, truth, eps, seed):
    mech = MECHANISMS[name]
    kw = dict(neighbours='add-remove', max_records=MAX_RECORDS) if getattr(mech, 'add_remove', False) else {}
    t0 = time.perf_counter()
    try:
        rel = mech(data, W, Budget.approx(eps, DELTA), rng=np.random.default_rng(seed), **kw)
    except (ValueError, TypeError, MemoryError) as e:
        return dict(status=f"refused: {str(e).splitlines()[0][:100]}")
    sec = time.perf_counter() - t0
    r, m = score(W.blocks(rel.answers), truth)
    res = dict(status='ok', rmse=r, max=m, seconds=sec, neighbours=kw.get('neighbours', 'replace'))
    if isinstance(W, Marginals):  # records fitted to the released tables (Release.synthetic), scored like the peers'
        syn = rel.synthetic(int(rel.n), rng=np.random.default_rng(seed))
        r2, m2 = score(syn.marginals(W.cliques), truth)
        res['records'] = dict(res, rmse=r2, max=m2, seconds=time.perf_counter() - t0)
    return res


def start_peer(args, peer, dname, eps, seed):
    folder, csv, dom, attrs, k = DATASETS[dname]
    out = tempfile.NamedTemporaryFile(suffix='.json', delete=False).name
    if peer in SN:
        cmd = [args.sn_python, str(HERE / 'sn_runner.py'), '--mech', SN[peer]]
    else:
        cmd = [args.pgm_python, str(HERE / 'pgm_runner.py'), '--src', args.pgm_src, '--mech', peer]
    cmd += ['--csv', str(DATA / folder / csv), '--domain', str(DATA / folder / dom), '--degree', str(k),
            '--epsilon', str(eps), '--delta', str(DELTA), '--seed', str(seed), '--out', out]
    if attrs:
        cmd += ['--attrs', ','.join(attrs)]
    log = open(out + '.log', 'w')
    env = dict(os.environ, JAX_ENABLE_X64='0')
    return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env), out, time.time()


def finish_peer(proc, out, t0, truth, timeout):
    if proc.poll() is None:
        proc.kill()
        return dict(status=f'timeout after {timeout} s')
    if proc.returncode != 0:
        tail = [ln for ln in Path(out + '.log').read_text().splitlines() if ln.strip()][-1:] or ['?']
        return dict(status=f'crashed: {tail[0][:120]}')
    res = json.loads(Path(out).read_text())
    r, m = score(res['tables'], truth)
    return dict(status='ok', rmse=r, max=m, seconds=res['seconds'], neighbours='add-remove')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--datasets', nargs='+', default=list(DATASETS))
    ap.add_argument('--eps', nargs='+', type=float, default=[0.5, 1.0])
    ap.add_argument('--seeds', nargs='+', type=int, default=[0, 1, 2])
    ap.add_argument('--ours', nargs='+', default=OURS)
    ap.add_argument('--peers', nargs='+', default=PEERS)
    ap.add_argument('--only-peers', action='store_true')
    ap.add_argument('--only-dpnotes', action='store_true')
    ap.add_argument('--timeout', type=float, default=1800)
    ap.add_argument('--sn-python', default='/work/venv-snsynth/bin/python')
    args, path, runs = parse_runs(driver_args(ap, HERE / 'results_peers.json'))
    if args.table:
        write_table(runs, path.with_suffix('.md'))
        return
    done = {(r['dataset'], r['system'], r['eps'], r['seed']) for r in runs if args.resume}
    command = 'python benchmarks/peers.py ' + ' '.join(sys.argv[1:])

    def record(dname, system, eps, seed, res):
        res.update(dataset=dname, system=system, eps=eps, seed=seed, command=command, scored='as released',
                   when=time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime()), load=os.getloadavg()[0])
        runs[:] = [r for r in runs if (r['dataset'], r['system'], r['eps'], r['seed']) != (dname, system, eps, seed)]
        runs.append(res)
        path.write_text(json.dumps(runs, indent=1))
        print(dname, system, eps, seed, {k: res[k] for k in ('status', 'rmse', 'seconds') if k in res}, flush=True)

    have_pgm = Path(args.pgm_python).exists() and (Path(args.pgm_src) / 'mechanisms').exists()
    have = {p: Path(args.sn_python).exists() if p in SN else have_pgm for p in PEERS}
    for p in args.peers:
        if not have.get(p):
            print(f"peer {p}: its virtualenv is absent, skipped")
    for dname, data, W, truth in present(args.datasets):
        todo = [(p, e, s) for p in args.peers if have.get(p) for e in args.eps for s in args.seeds
                if (dname, p, e, s) not in done]
        running = []
        if not args.only_dpnotes:
            while todo or running:
                while todo and len(running) < args.jobs:
                    p, e, s = todo.pop(0)
                    running.append((p, e, s) + start_peer(args, p, dname, e, s))
                time.sleep(2)
                for item in list(running):
                    p, e, s, proc, out, t0 = item
                    if proc.poll() is not None or time.time() - t0 > args.timeout:
                        record(dname, p, e, s, finish_peer(proc, out, t0, truth, args.timeout))
                        running.remove(item)
        if not args.only_peers:
            for name in args.ours:
                for e in args.eps:
                    for s in args.seeds:
                        if (dname, name, e, s) not in done:
                            res = run_ours(name, data, W, truth, e, s)
                            rec = res.pop('records', None)
                            record(dname, name, e, s, res)
                            if rec is not None:
                                record(dname, f"{name} (records)", e, s, rec)
    write_table(runs, Path(args.json).with_suffix('.md'))  # the table beside its JSON


def write_table(runs, out):
    lines = ["# dpnotes vs private-pgm and smartnoise-synth: RMSE over all cells of all workload marginals\n",
             "Add/remove neighbours for every system that supports them (the peers' own relation), "
             "(epsilon, 1e-9)-DP, mean ± sd over seeds; each row says when it ran, the load average then, "
             "and the relation used. Regenerated by `benchmarks/peers.py` from `results_peers.json`.\n"]
    for dname in DATASETS:
        rows = [r for r in runs if r['dataset'] == dname]
        if not rows:
            continue
        folder, csv, dom, attrs, k = DATASETS[dname]
        lines.append(f"\n## {dname}: {'attributes ' + ', '.join(attrs) if attrs else 'all attributes'} of "
                     f"{folder}, all {k}-way marginals\n")
        lines.append("| eps | system | relation | runs | RMSE | max error | seconds | measured (UTC, load) |")
        lines.append("|---|---|---|---|---|---|---|---|")
        for eps in sorted({r['eps'] for r in rows}):
            for system in dict.fromkeys(r['system'] for r in rows):
                rs = [r for r in rows if r['eps'] == eps and r['system'] == system]
                ok = [r for r in rs if r['status'] == 'ok']
                if not rs:
                    continue
                when = f"{rs[-1]['when']}, {rs[-1]['load']:.1f}"
                if not ok:
                    lines.append(f"| {eps} | {system} | | 0/{len(rs)} | {rs[-1]['status']} | | | {when} |")
                    continue
                f = lambda key, fmt: f"{_num(np.mean([r[key] for r in ok]), fmt)} ± {_num(np.std([r[key] for r in ok]), fmt)}"
                old = any(_old(r) for r in ok)  # records: one total already
                label = f"{system} (renormalised)" if old else system  # scored table by table (before 2026-11-28)
                lines.append(f"| {eps} | {label} | {ok[0]['neighbours']} | {len(ok)}/{len(rs)} | {f('rmse', '.3g')} | "
                             f"{f('max', '.3g')} | {f('seconds', '.1f')} | {when} |")
        lines += _verdicts(rows) + _bar(rows)
    out.write_text('\n'.join(lines) + '\n')


def _num(x, fmt) -> str:
    "x in fmt; with '.3g', three significant digits (5.12e-05, 0.00067, 0.0146), 0 as 0."
    return '0' if fmt == '.3g' and x == 0 else f"{x:{fmt}}"


def _old(r) -> bool:
    "A run of a dpnotes release (not its records) scored table by table, before 2026-11-28 ('renormalised')."
    return r['system'].split(' ')[0] not in PEERS and '(records)' not in r['system'] and r.get('scored') != 'as released'


def _means(rows, eps) -> dict:
    "{system: (mean RMSE, mean max error, mean seconds)} over the ok add/remove runs at eps scored as released."
    out = {}
    for r in rows:
        if r['eps'] == eps and r['status'] == 'ok' and r.get('neighbours') == 'add-remove' and not _old(r):
            out.setdefault(r['system'], []).append((r['rmse'], r['max'], r['seconds']))
    return {k: tuple(float(np.mean([x[i] for x in v])) for i in range(3)) for k, v in out.items()}


def _bar(rows, name='local') -> list:
    """Per epsilon, `name` against issue 33's bar: RMSE at most the lowest RMSE of every other system, max error
    at most 1.1x the lowest of theirs (its own records excluded: the same release); a miss says by how much."""
    out = []
    for eps in sorted({r['eps'] for r in rows}):
        m = _means(rows, eps)
        if name not in m:
            continue
        others = {k: v for k, v in m.items() if k.split(' ')[0] != name}
        if not others:
            continue
        (r, mx, sec), br, bm = m[name], min(others, key=lambda k: others[k][0]), min(others, key=lambda k: others[k][1])
        ok_r, ok_m = r <= others[br][0], mx <= 1.1 * others[bm][1]
        verdict = 'met' if ok_r and ok_m else 'missed: ' + ', '.join(
            [f"RMSE {r / others[br][0]:.2f}x the best"] * (not ok_r) + [f"max error {mx / others[bm][1]:.2f}x the best"] * (not ok_m))
        near = [k for k in others if k in PEERS and others[k][0] <= 1.1 * r]
        fast = min(near, key=lambda k: others[k][2]) if near else None
        speed = (f"the fastest peer within 10% of its RMSE, {fast}, takes {others[fast][2] / sec:.0f}x its time"
                 if fast else "no peer is within 10% of its RMSE")
        out.append(f"\neps={eps}: **{name}** RMSE {r:.3g} (lowest of the others: {br} {others[br][0]:.3g}), max error "
                   f"{mx:.3g} (lowest of the others: {bm} {others[bm][1]:.3g}); bar {verdict}; {speed}.")
    return out


def _verdicts(rows) -> list:
    "Per epsilon: the best dpnotes mechanism (add/remove runs only) against the best peer, error and time."
    out = []
    for eps in sorted({r['eps'] for r in rows}):
        mean = {}
        for r in rows:
            if r['eps'] == eps and r['status'] == 'ok':
                mean.setdefault(r['system'], []).append((r['rmse'], r['seconds'], r['neighbours']))
        ours = {k: v for k, v in mean.items() if k not in PEERS and v[0][2] == 'add-remove'}
        peers = {k: v for k, v in mean.items() if k in PEERS}
        if not ours or not peers:
            continue
        avg = lambda v, i: float(np.mean([x[i] for x in v]))
        a, b = min(ours, key=lambda k: avg(ours[k], 0)), min(peers, key=lambda k: avg(peers[k], 0))
        ra, rb = avg(ours[a], 0), avg(peers[b], 0)
        out.append(f"\neps={eps}: best dpnotes **{a}** RMSE {ra:.3g} vs best peer **{b}** {rb:.3g}: "
                   f"{'dpnotes ahead' if ra <= rb else 'dpnotes behind'} by {max(ra, rb) / min(ra, rb):.2f}x in error, "
                   f"{avg(peers[b], 1) / avg(ours[a], 1):.0f}x the peer's speed.")
    return out


if __name__ == '__main__':
    main()
