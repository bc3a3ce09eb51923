"""Command-line arguments shared by the peer runners (`pgm_runner.py`, `sn_runner.py`), which run in the peers'
own virtualenvs: plain argparse, nothing from dpnotes."""
import argparse


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
