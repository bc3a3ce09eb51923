"""Benchmark of dpnotes.kron_unions against HDMM on unions of Kronecker products.

For each workload: our best strategy's L2 error constant ||M||_{1->2}^2 ||W M^+||_F^2 (the best of one
product strategy, the marginal family and the stacked "terms apart" strategies, each group of terms measured
by its own block and answered from it), its certified lower bound (which one), seconds; HDMM's three
templates with approx=True (its L2 / (eps, delta) variants), their error constants under the same norm and
seconds, run by benchmarks/hdmm_runner.py in HDMM's own virtualenv (skipped when that python is absent);
with --dense, the certified dense optimum (optimize_gram on the N x N Gram) where N <= 4096. Apart, timed on
its own: the dual bound at product weights with eigenvalue problems up to order 8192 (`product_dual_bound`),
the certificate where the symmetric dual does not apply (union_optimal's default stops at order 1024).

Run: python benchmarks/unions.py [--hdmm-python /work/venv-hdmm/bin/python] [--dense] [--out FILE] [--only NAMES]
"""
import argparse, json, math, os, platform, subprocess, sys, time
import numpy as np
from dpnotes.data import Domain
from dpnotes.workloads import Identity, Prefix, AllRange, Total, Kron
from dpnotes.kron_unions import Union, union_optimal, product_dual_bound
from dpnotes.union_strategies import kron_union_error
from dpnotes.strategy_optimization import optimize_gram

HERE = os.path.dirname(os.path.abspath(__file__))
KIND = {'P': Prefix, 'I': Identity, 'T': Total, 'R': AllRange}
M2 = lambda d: [['I' if k in (i, j) else 'T' for k in range(d)] for i in range(d) for j in range(i + 1, d)]
WORKLOADS = {  # name: (attributes, sizes, terms as one code per attribute)
    '2d-64 [PxI; IxP; PxP]': (('a', 'b'), (64, 64), [['P', 'I'], ['I', 'P'], ['P', 'P']]),
    '3d-16 2-way marginals + PxTxT': (('a', 'b', 'c'), (16,) * 3, M2(3) + [['P', 'T', 'T']]),
    'adult5 2-way marginals + P(age)xI(sex) + P(hours)xI(race)': (
        ('age', 'education', 'hours', 'sex', 'race'), (32, 16, 16, 2, 5),
        M2(5) + [['P', 'T', 'T', 'I', 'T'], ['T', 'T', 'P', 'T', 'I']]),
    'census5 prefix/identity union': (
        ('age', 'sex', 'race', 'hisp', 'region'), (64, 2, 8, 2, 16),
        [['P', 'I', 'T', 'T', 'T'], ['P', 'T', 'I', 'I', 'T'], ['I', 'T', 'T', 'T', 'I'], ['T', 'I', 'I', 'I', 'I']]),
    'big5 1e7 cells': (('a', 'b', 'c', 'd', 'e'), (100, 50, 40, 25, 2),
                       [['P', 'P', 'T', 'T', 'T'], ['T', 'I', 'I', 'T', 'T'], ['T', 'T', 'P', 'I', 'I'], ['I', 'T', 'T', 'T', 'I']]),
}


def build(attrs, sizes, terms):
    one = lambda c, a, n: KIND[c](Domain((a,), (n,)))
    return Union([Kron([one(c, a, n) for c, a, n in zip(t, attrs, sizes)]) for t in terms])


def hdmm(py, sizes, terms):
    if not py or not os.path.exists(py):
        return None
    out = {}
    for tpl in ('OPT_x', 'OPT_+', 'OPT_M'):  # one process each: a template may crash in LAPACK (memory)
        spec = json.dumps({'shape': list(sizes), 'terms': terms, 'template': tpl})
        try:
            r = subprocess.run([py, os.path.join(HERE, 'hdmm_runner.py')], input=spec, capture_output=True,
                               text=True, timeout=900)
            out[tpl] = json.loads(r.stdout.strip().splitlines()[-1])
        except Exception as e:
            out[tpl] = {'error': None, 'seconds': None, 'why': (r.stderr.strip()[-120:] if 'r' in dir() else '') or repr(e)[:120]}
    return out


def _better(x, y):
    "One HDMM template over two runs: the smaller error, the fewer seconds."
    if x.get('error') is None or y.get('error') is None:
        return x if x.get('error') is not None else y
    return dict(x, error=min(x['error'], y['error']), seconds=min(x['seconds'], y['seconds']))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--hdmm-python', default='/work/venv-hdmm/bin/python')
    ap.add_argument('--dense', action='store_true')
    ap.add_argument('--out', default=None)
    ap.add_argument('--only', nargs='*', default=None)
    ap.add_argument('--repeat', type=int, default=3, help='runs of each side: fastest seconds, best error kept')
    a = ap.parse_args()
    lines = []
    def say(s=''): print(s, flush=True); lines.append(s)
    say(f"Command: `python {' '.join(sys.argv)}`  ")
    say(f"Machine: {platform.machine()}, python {platform.python_version()}, numpy {np.__version__}; shared, 2 cores.")
    say()
    say('Error constants ||M||_{1->2}^2 ||W M^+||_F^2 (L2, the Gaussian mechanism\'s); HDMM templates with approx=True.')
    say(f'Seconds: the fastest of {a.repeat} runs of each side (HDMM: per template, and its best error of the runs).')
    say()
    say('| workload | N | identity | ours | lower bound (kind) | ours/lower | ours s | product-weights bound, order <= 8192 (s) | ours/best bound | HDMM best (template) | HDMM s (all 3) | ours/HDMM | dense optimum [lower, upper] (s) |')
    say('|---|---|---|---|---|---|---|---|---|---|---|---|---|')
    for name, (attrs, sizes, terms) in WORKLOADS.items():
        if a.only and not any(o in name for o in a.only):
            continue
        U = build(attrs, sizes, terms)
        N = U.shape[1]
        sec = math.inf
        for _ in range(a.repeat):  # the shared machine's load varies: the fastest of the runs
            t = time.perf_counter(); r = union_optimal(U); sec = min(sec, time.perf_counter() - t)
        ident = kron_union_error(U, [np.eye(n) for n in sizes])
        t = time.perf_counter(); pb = product_dual_bound(U, max_order=8192); pbs = time.perf_counter() - t
        pbt = '—' if pb is None else f"{pb:.6g} ({pbs:.2f})"
        best_low = max(r.lower, pb or 0.0)
        h = None
        for _ in range(a.repeat):  # per template: the best error and the fastest seconds of the runs
            h1 = hdmm(a.hdmm_python, sizes, terms)
            if h1 is None:
                break
            h = h1 if h is None else {k: _better(h[k], h1[k]) for k in h}
        if h is None:
            hs = 'not run (no HDMM virtualenv)'; hsec = '—'; rat = '—'
        else:
            ok = {k: v for k, v in h.items() if v.get('error') is not None}
            best = min(ok, key=lambda k: ok[k]['error']) if ok else None
            hs = f"{ok[best]['error']:.6g} ({best}{', bound' if ok[best].get('bound') else ''})" if best else 'failed: ' + '; '.join(f"{k}: {v.get('why', '')}" for k, v in h.items())
            hsec = f"{sum(v['seconds'] for v in ok.values()):.2f}" if ok else '—'
            rat = f"{r.upper / ok[best]['error']:.4f}" if best else '—'
            if ok:
                hsec += f" ({sum(v['seconds'] for v in ok.values()) / sec:.1f}x ours)"
            hs += ''.join(f"; {k} failed" for k, v in h.items() if v.get('error') is None)
            print(json.dumps(h), flush=True)
        dense = '—'
        if a.dense and N <= 4096:
            t = time.perf_counter(); d = optimize_gram(U.gram().dense(max_entries=N * N), tol=1e-4)
            dense = f"[{d.lower:.6g}, {d.upper:.6g}] ({time.perf_counter() - t:.0f} s)"
        kind = r.method.split('lower bound: ')[1]
        say(f"| {name} | {N} | {ident:.6g} | {r.upper:.6g} ({r.method.split(';')[0]}) | {r.lower:.6g} ({kind}) | "
            f"{r.ratio:.4f} | {sec:.2f} | {pbt} | {r.upper / best_low:.4f} | {hs} | {hsec} | {rat} | {dense} |")
    if a.out:
        open(a.out, 'w').write('\n'.join(lines) + '\n')


if __name__ == '__main__':
    main()
