"""Run every notebook's tests with nbdev's own runner, one process per notebook, and count them.

Prints one line per notebook and a closing `N passed, N failed` line; exits 1 on any failure or when
no notebook ran. Extra arguments are notebook paths (default: every notebook in nbs/).
"""
import os, sys, time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

root = Path(__file__).resolve().parent.parent


def run_one(path):
    os.environ.setdefault("MPLBACKEND", "Agg")
    from nbdev.test import test_nb
    ok, secs = test_nb(Path(path), skip_flags=["slow"] if "--slow" not in sys.argv else None)
    return str(path), ok, secs


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    nbs = [Path(a) for a in args] or sorted(p for p in (root / "nbs").glob("*.ipynb") if not p.name.startswith("_"))
    workers = int(os.environ.get("DPNOTES_TEST_WORKERS", "2"))
    passed = failed = 0
    t0 = time.time()
    with ProcessPoolExecutor(max_workers=workers, max_tasks_per_child=1) as ex:  # a fresh process per notebook
        for path, ok, secs in ex.map(run_one, nbs):
            name = Path(path).relative_to(root) if Path(path).is_absolute() else path
            print(f"{'PASS' if ok else 'FAIL'}  {name}  ({secs:.1f} s)", flush=True)
            passed += ok
            failed += not ok
    print(f"total {time.time() - t0:.1f} s")
    print(f"{passed} passed, {failed} failed")
    sys.exit(0 if failed == 0 and passed > 0 else 1)


if __name__ == "__main__":
    main()
