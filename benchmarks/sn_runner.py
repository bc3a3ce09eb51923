"""Run one smartnoise-synth synthesizer (AIM or MST) on one dataset and print its workload marginals as JSON.

Runs in its own virtualenv (`/work/venv-snsynth`: smartnoise-synth 1.0.8 with torch 2.13.0 CPU) and is called
by `benchmarks/peers.py`; not part of dpnotes. The synthesizer runs at its defaults except `degree`, set to the
workload's marginal order (AIM's default workload is all 2-way marginals). Every column is declared categorical
(no preprocessing budget). The tables are computed from `n` records sampled from the synthesizer (its public
output), on the dataset's own domain.

    python sn_runner.py --csv data.csv --domain domain.json [--attrs a,b,c] --degree 2 \
        --mech aim --epsilon 1 --delta 1e-9 --seed 0 --out result.json
"""
import itertools, json, time, warnings
from pathlib import Path

import numpy as np
import pandas as pd

from runner_args import peer_args

a = peer_args(['aim', 'mst'])
warnings.filterwarnings('ignore')
from snsynth import Synthesizer  # noqa: E402

dom = json.loads(Path(a.domain).read_text())
cols = a.attrs.split(',') if a.attrs else list(dom)
df = pd.read_csv(a.csv)[cols]
np.random.seed(a.seed)  # both synthesizers draw from numpy's global generator
t0 = time.perf_counter()
kw = dict(degree=a.degree) if a.mech == 'aim' else {}
synth = Synthesizer.create(a.mech, epsilon=a.epsilon, delta=a.delta, **kw)
synth.fit(df, categorical_columns=cols, preprocessor_eps=0.0)
rec = synth.sample(len(df))
sec = time.perf_counter() - t0
rec = rec if isinstance(rec, pd.DataFrame) else pd.DataFrame(rec, columns=cols)
X = rec[cols].to_numpy(dtype=np.int64)
tables = []
for c in itertools.combinations(range(len(cols)), a.degree):
    shape = [dom[cols[i]] for i in c]
    t = np.bincount(np.ravel_multi_index(X[:, list(c)].T, shape), minlength=int(np.prod(shape))).astype(float)
    tables.append((t / t.sum()).tolist())
cliques = list(itertools.combinations(cols, a.degree))
Path(a.out).write_text(json.dumps(dict(cliques=cliques, tables=tables, seconds=sec)))
