"""Run HDMM (dpcomp-org/hdmm) on a union of Kronecker products, in HDMM's own virtualenv.

Reads JSON from stdin: {"shape": [n_1, ..., n_d], "terms": [[code per attribute], ...], "template": name},
codes P (prefix), I (identity), T (total), R (all ranges). Prints JSON: the L2 error constant
||A||_{1->2}^2 tr(W^T W (A^T A)^+) of the template's strategy and the seconds its optimisation took. For a
union strategy on more than 4096 cells the exact trace needs HDMM's dense pseudo-inverse, so the value is
HDMM's own objective (each term answered from its own part of the strategy), an upper bound, marked. Run by benchmarks/unions.py;
nothing of HDMM is imported by dpnotes.
"""

import json, sys, time
import numpy as np
from hdmm import error, matrix, templates, workload


def factor(code, n):
    return {'P': lambda: workload.Prefix(n), 'I': lambda: matrix.Identity(n), 'T': lambda: matrix.Ones(1, n),
            'R': lambda: workload.AllRange(n)}[code]()


def l2_error(W, A):
    "L2 error constant: HDMM's expected error is (L1 sensitivity)^2 * trace at eps = sqrt(2); swap the norm."
    trace = error.expected_error(W, A) / A.sensitivity() ** 2
    g = A.gram()
    try:
        col2 = float(np.max(g.diag()))
    except Exception:  # no structured diagonal: dense columns
        col2 = float(np.max(np.sum(A.dense_matrix() ** 2, axis=0)))
    return col2 * trace


spec = json.load(sys.stdin)
ns = spec['shape']
terms = [matrix.Kronecker([factor(c, n) for c, n in zip(t, ns)]) for t in spec['terms']]
W = matrix.VStack(terms)
make, target = {
    'OPT_x': (lambda: templates.DefaultKron(ns, approx=True), W),
    'OPT_+': (lambda: templates.DefaultUnionKron(ns, len(terms), approx=True), terms),
    'OPT_M': (lambda: templates.Marginals(ns, approx=True), W),
}[spec['template']]
t0 = time.perf_counter()
T = make()
loss = T.optimize(target)
secs = time.perf_counter() - t0
if spec['template'] == 'OPT_+' and np.prod(ns) > 4096:
    out = {'error': float(loss), 'seconds': secs, 'bound': True}
else:
    out = {'error': l2_error(W, T.strategy()), 'seconds': secs}
print(json.dumps(out))
