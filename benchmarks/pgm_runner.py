"""Run one private-pgm mechanism (AIM or MWEM+PGM) on one dataset and print its workload marginals as JSON.

Runs in its own virtualenv (`/work/venv-pgm`: jax, pandas, scipy, matplotlib) against a checkout of the
private-pgm repository (`--src`, holding `src/mbi` and `mechanisms/` at the same commit), so the scripts run
unchanged with the library they were written for. Called by `benchmarks/peers.py`; not part of dpnotes.

One workaround, always on: `mbi.marginal_oracles.sum_product` asks jax's einsum for opt_einsum's 'dp'
contraction path, whose search grows exponentially with the number of factors; on 7 adult attributes, all
2-way marginals, AIM had shown no progress for 25 minutes when py-spy found it in that search
(`DynamicProgramming` in `contract_path`, called from `sum_product`), and earlier runs never finished in 45-75
minutes. Above `DP_FACTORS` factors the same contraction runs with opt_einsum's 'greedy' path instead: only
the order of the pairwise products changes, not the value computed (up to float rounding). At most
`DP_FACTORS` factors, the call is theirs unchanged.

    python pgm_runner.py --src DIR --csv data.csv --domain domain.json [--attrs a,b,c] --degree 2 \
        --mech aim --epsilon 1 --delta 1e-9 --seed 0 --out result.json
"""
import importlib.util, itertools, json, sys, time
from pathlib import Path

from runner_args import peer_args

a = peer_args(['aim', 'mwem+pgm'], src=True)
src = Path(a.src)
sys.path[:0] = [str(src / 'src'), str(src / 'mechanisms')]
import numpy as np  # noqa: E402
from mbi import Dataset  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import mbi.marginal_oracles as oracles  # noqa: E402

DP_FACTORS = 8
_sum_product = oracles.sum_product


def _greedy_einsum(formula, *ops, optimize=None, precision=None):
    return jnp.einsum(formula, *ops, optimize='greedy', precision=precision)


def sum_product(factors, dom, einsum_fn=jnp.einsum):
    if len(factors) > DP_FACTORS and einsum_fn is jnp.einsum:
        einsum_fn = _greedy_einsum
    return _sum_product(factors, dom, einsum_fn)


oracles.sum_product = sum_product  # looked up at call time by logspace_sum_product_fast

data = Dataset.load(a.csv, a.domain)
if a.attrs:
    data = data.project(a.attrs.split(','))
cliques = list(itertools.combinations(data.domain.attrs, a.degree))
np.random.seed(a.seed)  # both scripts draw from numpy's global generator
t0 = time.perf_counter()
if a.mech == 'aim':
    from aim import AIM

    model, _ = AIM(a.epsilon, a.delta).run(data, [(c, 1.0) for c in cliques])  # defaults: 80 MB, 1000 iters
    tables = [np.asarray(model.project(c).datavector(), float) for c in cliques]
else:
    spec = importlib.util.spec_from_file_location('mwem_pgm', src / 'mechanisms' / 'mwem+pgm.py')
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    synth = mod.mwem_pgm(data, a.epsilon, a.delta, workload=cliques)  # defaults: d rounds, 25 MB, gaussian
    tables = [np.asarray(synth.project(c).datavector(), float) for c in cliques]
sec = time.perf_counter() - t0
tables = [t / t.sum() for t in tables]  # each system's own totals: probability units
Path(a.out).write_text(json.dumps(dict(cliques=cliques, tables=[t.tolist() for t in tables], seconds=sec)))
