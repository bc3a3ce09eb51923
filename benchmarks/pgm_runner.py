"""Run one private-pgm mechanism (AIM or MWEM+PGM) on one dataset and print its workload marginals as JSON.

Runs in its own virtualenv (`/work/venv-pgm`: jax, pandas, scipy, matplotlib) against a checkout of the
private-pgm repository (`--src`, holding `src/mbi` and `mechanisms/` at the same commit), so the scripts run
unchanged with the library they were written for. Called by `benchmarks/peers.py`; not part of dpnotes.

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
