"""Command-line arguments shared by the peer runners (`pgm_runner.py`, `sn_runner.py`), which run in the peers'
own virtualenvs, and by the drivers that start them (`peers.py`, `small.py`): plain argparse, nothing from
dpnotes."""
import argparse, json
from pathlib import Path


def peer_args(mechs, **extra) -> argparse.Namespace:
    "Parse one peer run: data, workload order, mechanism (one of `mechs`), budget, seed, output file."
    ap = argparse.ArgumentParser()
    for name, required in extra.items():
        ap.add_argument(f'--{name}', required=required)
    ap.add_argument('--csv', required=True)
    ap.add_argument('--domain', required=True)
    ap.add_argument('--attrs', default='')
    ap.add_argument('--degree', type=int, default=2)
    ap.add_argument('--mech', choices=mechs, required=True)
    ap.add_argument('--epsilon', type=float, required=True)
    ap.add_argument('--delta', type=float, default=1e-9)
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('--out', required=True)
    return ap.parse_args()


def driver_args(ap: argparse.ArgumentParser, json_default) -> argparse.ArgumentParser:
    """The options the comparison drivers (`peers.py`, `small.py`) share: peers at once, resuming, the peers'
    virtualenv and source checkout, the results JSON and its table."""
    ap.add_argument('--jobs', type=int, default=1)
    ap.add_argument('--resume', action='store_true', help='skip runs already in the JSON')
    ap.add_argument('--pgm-python', default='/work/venv-pgm/bin/python')
    ap.add_argument('--pgm-src', default='/work/peers-src')
    ap.add_argument('--json', default=str(json_default))
    ap.add_argument('--table', action='store_true', help='rebuild the markdown table from the JSON and exit')
    return ap


def parse_runs(ap: argparse.ArgumentParser) -> tuple:
    "The driver's arguments, the path of its results JSON and the runs already in it."
    args = ap.parse_args()
    path = Path(args.json)
    return args, path, json.loads(path.read_text()) if path.exists() else []
