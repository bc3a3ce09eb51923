"""Benchmark: where the time of nbs/08_audit.ipynb's default (non-slow) tier goes.

Usage: python benchmarks/audit_costs.py [--releases 40] [--threads as-is|1] [--only NAME ...]

The notebook's audits make 2 x 2,000 releases each of small workloads (n = 50 or 60 records, 4 or 6 cells; one
union on 16^7 cells read from its tables). Their cost is the mechanisms' per-release cost times the releases:
the audit's own statistics take milliseconds. For every audit of the default tier (its cell id, mechanism,
neighbours, budget, options) this script times `--releases` releases after 5 warm-up releases (numba's compile
or cache load is paid once per process, not per audit) in CPU seconds of this process (all its threads), and
prints the estimated CPU seconds of the audit's 4,000 releases, most expensive first, with the total.
`--threads as-is` keeps numba's and BLAS's threads as the process found them (what `release_answers` did
before it ran the releases on one thread); `--threads 1` is what it does now (`audit.one_thread`). CPU time
rather than wall time, because the machine is shared; a loaded machine inflates both.
"""

import argparse, contextlib, time
from dataclasses import replace

import numpy as np

from dpnotes import MECHANISMS
from dpnotes.audit import one_thread
from dpnotes.data import Dataset, Domain
from dpnotes.privacy import Budget
from dpnotes.workloads import Identity, Kron, Marginals, Prefix, Total
from dpnotes.kron_unions import Union
from dpnotes.histograms import gaussian_mechanism
from dpnotes.releases import Release
import dpnotes.adaptive, dpnotes.local  # noqa: F401 (register them)
import dpnotes.factorization as fz


def local_records(data, workload, budget, *, rng=None, **options):
    "As in the notebook: `local`'s release with the marginals of n records fitted to it."
    rel = MECHANISMS['local'](data, workload, budget, rng=rng, **options)
    return replace(rel, answers=workload.answer(rel.synthetic(int(rel.n), rng=rng)))


def broken_gaussian(data, workload, budget, *, rng=None):
    "As in the notebook: the Gaussian mechanism with a tenth of its noise."
    rel, truth = gaussian_mechanism(data, workload, budget, rng=rng), workload.answer(data)
    return Release(
        truth + (rel.answers - truth) / 10, 'broken', budget, rel.sigma / 10, rel.seconds, rel.info
    )


def datasets():
    "The notebook's neighbours: the 2x2 universe (replace and add/remove), the 3x2 union, the 16^7 union."
    one = lambda kind, a, n: kind(Domain((a,), (n,)))
    dom = Domain(('a', 'b'), (2, 2))
    W = Marginals(dom, [('a',), ('a', 'b')])
    recs = np.array([(i % 2, (i // 2) % 2) for i in range(50)])
    D, D_plus = Dataset(recs, dom), Dataset(np.vstack([recs, [(1, 1)]]), dom)
    du = Domain(('a', 'b'), (3, 2))
    Wu = Union(
        [
            Kron([one(Prefix, 'a', 3), one(Identity, 'b', 2)]),
            Kron([one(Total, 'a', 3), one(Identity, 'b', 2)]),
        ]
    )
    Du = Dataset(np.array(list(np.ndindex(3, 2)))[np.arange(60) % 6], du)
    dt = Domain(tuple('abcdefg'), (16,) * 7)
    Wt = Union([Marginals(dt, [('b', 'c')]), Kron([one(Prefix, 'a', 16), one(Identity, 'b', 16)])], domain=dt)
    Dt = Dataset(np.random.default_rng(2053).integers(0, 16, (60, 7)), dt)
    return dict(small=(D, W), plus=(D_plus, W), union=(Du, Wu), tables=(Dt, Wt)), fz.optimal_strategy(
        Wt
    ).strategy


def audits(Mt):
    "(cell id, label, mechanism, data key, budget, options) of every audit of the default tier."
    A1, A4, ar = (
        Budget.approx(1.0, 1e-5),
        Budget.approx(4.0, 1e-5),
        dict(neighbours='add-remove', max_records=1000),
    )
    rows = [('recaud02', 'local_records', local_records, 'small', A4, {})]
    main = [
        ('gaussian', {}),
        ('laplace', {}),
        ('factorization', {}),
        ('projection', {}),
        ('mwem', {'rounds': 2}),
        ('mwem-hlm', {}),
        ('relaxation', {}),
        ('boosting', {}),
        ('local', {}),
        ('local', {'body': 'local', 'base': 'gaussian'}),
        ('local', {'body': 'local', 'base': 'gaussian', 'shrink': 'model'}),
    ]
    rows += [('a3543305', f"{m} {o or ''}", m, 'small', B, o) for B in (A1, A4) for m, o in main]
    model = [('mwem', {'rounds': 2, 'representation': 'model'}), ('mwem-hlm', {'representation': 'model'})]
    rows += [('149eb2d3', f"{m} (model)", m, 'small', B, o) for B in (A1, A4) for m, o in model]
    rows += [
        ('39692031', f"{m} add/remove", m, 'plus', B, ar)
        for B in (A1, A4)
        for m in ('gaussian', 'projection', 'factorization', 'boosting', 'local')
    ]
    rows += [
        ('39692031', 'laplace add/remove', 'laplace', 'plus', B, ar)
        for B in (Budget.pure(1.0), Budget.pure(4.0))
    ]
    rows += [
        ('39692031', f"{m} add/remove", m, 'plus', A4, dict(ar, **o))
        for m, o in (('mwem', {'rounds': 2}), ('mwem-hlm', {}), ('relaxation', {}), ('adaptive', {}))
    ]
    rows += [('38b24604', 'factorization (union)', 'factorization', 'union', B, {}) for B in (A1, A4)]
    rows += [
        ('a759ba38', 'factorization (tables)', 'factorization', 'tables', B, {'strategy': Mt})
        for B in (A1, A4)
    ]
    rows += [('a759ba38', 'gaussian (tables)', 'gaussian', 'tables', B, {}) for B in (A1, A4)]
    rows += [('f8e32a85', 'broken', broken_gaussian, 'small', B, {}) for B in (A1, A4)]
    rows += [('13dc4728', 'gaussian (os.urandom)', 'gaussian', 'small', A4, {'rng': None})]
    rows += [
        ('c280b237', f"{m} (pure)", m, 'small', Budget.pure(1.0), o)
        for m, o in (('laplace', {}), ('mwem', {'rounds': 2}), ('mwem-hlm', {'noise': 'laplace'}))
    ]
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--releases', type=int, default=40, help='timed releases per audit (after 5 warm-up)')
    p.add_argument('--threads', choices=('as-is', '1'), default='1')
    p.add_argument('--only', nargs='*', help='labels to time (substring match)')
    args = p.parse_args()
    data, Mt = datasets()
    out = []
    for cell, label, mech, key, B, opts in audits(Mt):
        if args.only and not any(s in label for s in args.only):
            continue
        fn = MECHANISMS[mech] if isinstance(mech, str) else mech
        opts = dict(opts)
        rng = opts.pop('rng', np.random.default_rng(0))
        d, w = data[key]
        ctx = one_thread() if args.threads == "1" else contextlib.nullcontext()
        with ctx:
            for _ in range(5):
                fn(d, w, B, rng=rng, **opts)
            t0 = time.process_time()
            for _ in range(args.releases):
                fn(d, w, B, rng=rng, **opts)
            per = (time.process_time() - t0) / args.releases
        out.append((per * 4000, per, cell, label, B))
        print(f"  {label:40s} {B!r:40s} {1e3 * per:7.2f} ms/release", flush=True)
    print(
        f"\nthreads: {args.threads}; estimated CPU seconds of each audit's 4,000 releases, "
        "most expensive first:"
    )
    for est, per, cell, label, B in sorted(out, key=lambda r: -r[0]):
        print(f"  {est:7.1f} s  {cell}  {label}  {B!r}")
    print(f"  {sum(r[0] for r in out):7.1f} s  total ({len(out)} audits)")


if __name__ == '__main__':
    main()
