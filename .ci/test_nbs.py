"""Run the notebooks' tests cell by cell, one process per notebook, and count test cells.

Which cells run. The cells are chosen as `nbdev_test` chooses them (`nbdev.test.test_nb`): markdown and raw
cells, cells calling `nbdev_export(`, cells with `#| eval: false`, and cells with a flag of settings.ini's
`tst_flags` (`#| slow`) are not run; `--slow` runs the `#| slow` cells too. Blank code cells are not run
either. A notebook whose front matter says `skip_exec: true` is skipped whole. Each notebook runs in a fresh
process in an execnb `CaptureShell`, in the notebook's folder, with the repository root on `sys.path` and
`IN_TEST=1`, as nbdev runs it. Every other code cell runs, in order.

What is counted. A cell that runs is a *test cell* when its code asserts, as read from its syntax tree
(`ast`, after IPython turns magics and `!` lines into calls; a `%%` cell magic's body is read as code): an
`assert` statement, `raise AssertionError`, a call of a fastcore.test check (`TEST_CALLS`: test_eq, test_ne,
test_close, test_fail, test_is, test_warns, test_stdout, test_shuffled, test_eq_type, test_fig_exists,
test_sig, ExceptionExpected), a call of any function or method whose name starts with `assert`
(`np.testing.assert_allclose`, unittest's `assertEqual`), `pytest.raises`, or a call `f(...)` of a helper: a
function defined in a code cell of the same notebook, not in an exported cell, whose body asserts in one of
these ways (directly or through another helper; the name is matched, so a variable of the same name would be
taken for it). Code inside a function's body counts only where the function is called: a cell that only
defines a checking function is not a test cell, a cell that defines it and calls it is. A check under an `if`
counts even when the branch does not run. All other cells (imports, definitions, `show_doc`, plots, demos)
are *cells without assertions*; they run all the same, and an exception in one is a failure like any other.
`--classify` prints each code cell's class and skip reason without running anything.

Cells that skip themselves. A cell whose check cannot run here (an optional package such as polars, pyarrow or
dask is not installed, a data folder is absent) raises `unittest.SkipTest(reason)` (`from unittest import
SkipTest`; `raise SkipTest('polars is not installed')`) before its checks, instead of passing with nothing
checked. The runner counts such a cell as skipped, under its reason, not as passed or failed, and the notebook
goes on with its next cell; later cells must not need what the skipped cell would have defined. (In Jupyter
the exception stops a "Run All" there, which says the same.)

The quick tier. `--quick` also skips cells marked `#| heavy` (a directive of this runner only, deliberately
not in settings.ini's `tst_flags`, so that `nbdev_test` and the default run, which CI uses, run them), and
the cells `QUICK_SKIP` lists by notebook and cell id (heavy cells of notebooks that could not take the
directive when the tier was introduced; a listed id the notebook no longer has is reported as a note). A
heavy cell is a long check (statistical audits, cvxpy references, size sweeps with plots) whose names no
later cell needs; a cell that later cells depend on cannot be heavy, and `--quick` must still pass.
`--quick --slow` is refused: slow cells may use what heavy cells define. Threads. Each notebook process gets the machine's cores shared out among the notebooks running at once
(`os.cpu_count() // DPNOTES_TEST_WORKERS`, at least 1) as its numba and BLAS threads (`NUMBA_NUM_THREADS`,
`OPENBLAS_NUM_THREADS`, `OMP_NUM_THREADS`, `MKL_NUM_THREADS`), unless the caller set them; in every tier. Two
notebooks each starting two threads on two cores spin against each other: with threaded OpenBLAS, 02_factorization
and 97_kron_unions together took 152 s of wall time (149 s CPU) against 28 s (25 s CPU) with one thread, at load 3
(2026-11-28); a numba parallel loop started on a handful of cells per iteration cost `local` 160-314 ms of thread
start-up a release (08_audit, 2026-12-06). Floating-point results of BLAS may differ from a run with more threads
in the last bits; no check may depend on them.

The order. Notebooks start longest first, by `EXPECTED_SECONDS` (measured; the others after, in name order), so
that the longest does not start last; the results are printed in the order given all the same.

A failing cell stops its notebook: it counts as failed (a test cell or not: a definition that raises is a
failure), and the notebook's later cells are neither run nor counted as passed or failed; they are reported
as "not run" (on the notebook's line and in a closing "N cells not run" line), so a failure early in a
notebook is visible in the counts. For the failure it prints the notebook, the cell's kind and its index in
the notebook's `cells` list (0-based, markdown cells included, as `jq '.cells[N]'` finds it) and its cell
id, the first lines of the cell's source, the line of the cell that raised (the innermost frame in the
cell's code), the exception line and the end of the traceback. A notebook process that dies (a crash in
compiled code, or `DPNOTES_TEST_TIMEOUT` seconds passed) counts its running cell as failed, named the same
way.

Output: one line per notebook, `PASS|FAIL|EMPTY|SKIP  notebook  N passed[, N failed][, N not run], N without
assertions[, N skipped (reason: N, ...)]  (seconds)`, where the skipped cells are those not run (by a
directive, as above) and those that raised SkipTest (counted under the SkipTest's message), and EMPTY marks a notebook that ran without failure
but ran no test cell (it checks nothing); then a line naming the EMPTY notebooks, `total N s`, `(also ran N
cells without assertions)`, and the closing line `N passed, N failed[, N skipped]`: test cells that passed,
cells of any kind that failed (plus crashed processes), and cells skipped (either way; left out when none). Exit status 1 on any failure or when no test cell passed,
else 0.

Usage: python .ci/test_nbs.py [--quick | --slow] [--durations=N] [--classify] [NOTEBOOK ...]
  NOTEBOOK ...      notebook paths (default: every nbs/*.ipynb not starting with `_`)
  --quick           skip `#| heavy` cells and those of QUICK_SKIP (a developer's loop)
  --slow            also run cells flagged `#| slow`
  --durations=N     print the N slowest cells
  --classify        print each code cell as test / other / skip (reason); run nothing
Environment: DPNOTES_TEST_WORKERS (notebooks run at once, default 2); DPNOTES_TEST_TIMEOUT (seconds
a notebook may take, default no limit).

Checked by hand (not committed, as a failing notebook would fail CI): a notebook in a temporary
folder with cells `y = 3`, `x = 1\nassert x == 2, 'x is not 2'` and `z = 1` gives

    FAIL  /tmp/tn/nbt/bad.ipynb  0 passed, 1 failed, 1 not run, 1 without assertions  (6.7 s)
      test cell 2 (id c2) failed at line 2 of the cell:
        | x = 1
        | assert x == 2, 'x is not 2'
      AssertionError: x is not 2
      traceback (last 5 lines):
        ...
    1 cell not run after a failure
    total 6.7 s
    (also ran 1 cell without assertions)
    0 passed, 1 failed

and exit status 1 (cell 2: the markdown title is cell 0). With cells `x = 1`, `def f(): 1/0\nf()` and
`assert x == 1` the second cell, without assertions, fails the same way ("cell without assertions 2 ...
ZeroDivisionError"), and the test cell after it is not run. A notebook of `x = 1` and `y = 2` is EMPTY, 0
passed, exit status 1. `--classify` on cells `def helper(a): test_eq(a, 1)`, `def outer(a): helper(a)`, `%time
v = 1\nouter(v)`, `helper`, `%%time\nassert v == 1`, `def notrun(): assert False`,
`np.testing.assert_allclose(1.0, 1.0)`, `if v != 1: raise AssertionError('v')`, `!true\nw = 2`, an exported
`def lib(a): assert a > 0` and `lib(1)` gives test for the third, fifth, seventh and eighth, other for the
rest. A cell calling `os.abort()` is reported with "the notebook's process exited with status -6"; a
SyntaxError names its line.
"""
import ast, json, os, subprocess, sys, tempfile, time, traceback, unittest
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

root = Path(__file__).resolve().parent.parent
# Cells --quick skips without a `#| heavy` line, by notebook and cell id: heavy cells of notebooks that were being
# edited elsewhere when the quick tier was introduced. Move each to a `#| heavy` line in its notebook when it is free.
QUICK_SKIP = {
}
THREAD_VARS = ("NUMBA_NUM_THREADS", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")  # see "Threads"
# seconds of the longest notebooks in the fresh-clone CI of 2026-12-06 (two at once): started first
EXPECTED_SECONDS = {"08_audit": 1321, "19_local": 246, "07_cli": 64, "00_privacy": 60, "02_factorization": 41,
                    "05_relaxation": 41, "09_api": 35, "01_histograms": 34}
SOURCE_LINES = 6    # lines of a failing cell's source shown
TB_LINES = 12       # lines of the end of a failing cell's traceback shown


# What makes a cell a test cell (see the docstring): fastcore.test's checks, numpy's and unittest's assert*
# (matched by prefix), pytest.raises.
TEST_CALLS = {"test_eq", "test_ne", "test_close", "test_fail", "test_is", "test_warns", "test_stdout",
              "test_shuffled", "test_eq_type", "test_fig_exists", "test_sig", "ExceptionExpected", "raises"}


def _python(src:str) -> str:
    "`src` as Python: IPython's magics and `!` lines become calls; a cell magic's body is kept as code."
    if src.lstrip().startswith("%%"): return src.lstrip().split("\n", 1)[1] if "\n" in src.lstrip() else ""
    from IPython.core.inputtransformer2 import TransformerManager
    return TransformerManager().transform_cell(src)


def _parse(src:str):
    "The cell's syntax tree, or None when it does not parse (it will then fail when run)."
    try: return ast.parse(_python(src))
    except (SyntaxError, ValueError): return None


def _run_nodes(stmts):
    "Nodes of `stmts` that run when they run: function bodies are left out (a definition does not run them)."
    todo = list(stmts)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)): continue
        yield node
        todo.extend(ast.iter_child_nodes(node))


def _called(node):
    "The name a Call calls: `f` for `f(...)` and `a.b.f(...)`."
    f = node.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def _checks(stmts, helpers) -> bool:
    "Whether running `stmts` asserts: an assert, a test call, `raise AssertionError`, or a call `f(...)` of a helper."
    for node in _run_nodes(stmts):
        if isinstance(node, ast.Assert): return True
        if isinstance(node, ast.Call):
            name = _called(node)
            if name and (name in TEST_CALLS or name.startswith("assert")): return True
            if isinstance(node.func, ast.Name) and node.func.id in helpers: return True
        if isinstance(node, ast.Raise) and node.exc is not None:
            exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            if isinstance(exc, ast.Name) and exc.id == "AssertionError": return True
    return False


def checking_helpers(trees) -> set:
    "Names of the functions defined in `trees` (cells) whose bodies assert, directly or by calling another."
    defs = {}
    for t in trees:
        for node in ast.walk(t):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)): defs.setdefault(node.name, []).append(node.body)
    helpers, grew = set(), True
    while grew:
        new = {name for name, bodies in defs.items() if name not in helpers and any(_checks(b, helpers) for b in bodies)}
        helpers |= new; grew = bool(new)
    return helpers


def _exported(cell) -> bool: return any(k.startswith("export") for k in (getattr(cell, "directives_", {}) or {}))


def test_cells(cells) -> list:
    "For each of a notebook's code cells (processed by nbdev), whether it is a test cell."
    trees = [_parse(c.source) for c in cells]
    helpers = checking_helpers([t for c, t in zip(cells, trees) if t is not None and not _exported(c)])
    return [t is not None and _checks(t.body, helpers) for t in trees]


def _skip_flags(slow:bool, quick:bool=False) -> set:
    "Flags whose cells are not run: settings.ini's `tst_flags` (`slow` is run with --slow), and `heavy` with --quick."
    from nbdev.config import get_config
    flags = set(get_config(path=root).get("tst_flags", "").split())
    if slow: flags -= {"slow"}
    if quick: flags |= {"heavy"}
    return flags


def _not_run_reason(cell, flags, listed=()):
    "Why `cell` (a processed code cell) is not run, or None: nbdev.test.test_nb's `_no_eval`, then --quick's list."
    if "nbdev_export" + "(" in cell.source: return "nbdev_export"
    direc = getattr(cell, "directives_", {}) or {}
    if direc.get("eval:", [""])[0].lower() == "false": return "eval: false"
    hit = flags & direc.keys()
    if hit: return "#| " + " ".join(sorted(hit))
    if not cell.source.strip(): return "blank"
    if cell.get("id") in listed: return "heavy (QUICK_SKIP)"
    return None


def _in_cell(filename): return filename.startswith("<ipython-input-") or "ipykernel_" in filename


def _cell_line(exc):
    "Line number, within the cell, of the innermost traceback frame that is in the cell's code."
    line = None
    for fr in traceback.extract_tb(exc.__traceback__):
        if _in_cell(fr.filename): line = fr.lineno
    return line


def run_notebook(path:Path, events:Path, slow:bool, quick:bool=False):
    "Worker: run `path` cell by cell, appending one JSON line per event to `events`."
    os.environ.setdefault("MPLBACKEND", "Agg")
    os.environ["IN_TEST"] = "1"
    sys.path.insert(0, str(root))
    from fastcore.basics import str2bool
    from fastcore.xtras import working_directory
    from nbdev.frontmatter import FrontmatterProc
    from nbdev.process import NBProcessor, nb_lang
    from execnb.shell import CaptureShell

    out = open(events, "a", encoding="utf-8", buffering=1)
    emit = lambda **kw: (out.write(json.dumps(kw) + "\n"), out.flush(), os.fsync(out.fileno()))
    raw = json.loads(path.read_text(encoding="utf-8"))["cells"]
    index = {c.get("id"): i for i, c in enumerate(raw) if c.get("id")}
    nb = NBProcessor(path, procs=FrontmatterProc, process=True).nb
    fm = getattr(nb, "frontmatter_", {}) or {}
    if str2bool(fm.get("skip_exec", False)) or nb_lang(nb) != "python":
        return emit(event="skip_notebook")
    flags = _skip_flags(slow, quick)
    listed = QUICK_SKIP.get(path.name, set()) if quick else set()
    missing = sorted(listed - set(index))
    if missing: emit(event="note", text=f"QUICK_SKIP names cell id(s) {', '.join(missing)}, which this notebook no longer has")
    code = [c for c in nb.cells if c.cell_type == "code"]
    is_test = test_cells(code)   # helpers may be defined in any code cell of the notebook
    plan = []   # (processed cell, index in the file, reason not run or None, whether it is a test cell)
    for c, t in zip(code, is_test):
        i = index.get(c.get("id"), c.idx_)
        plan.append((c, i, _not_run_reason(c, flags, listed), t))
    emit(event="plan", indices=[i for _, i, why, _ in plan if not why], tests=[i for _, i, why, t in plan if not why and t])
    shell = CaptureShell(path)
    with working_directory(path.parent):
        for c, i, why, test in plan:
            cid = c.get("id")
            if why:
                emit(event="skip", index=i, id=cid, why=why); continue
            raw_lines = len("".join(raw[i]["source"]).splitlines()) if i < len(raw) else 0
            emit(event="start", index=i, id=cid, test=test)
            t0 = time.perf_counter()
            shell.cell(c)
            secs = time.perf_counter() - t0
            exc = shell.exc
            if exc is None:
                emit(event="pass", index=i, id=cid, secs=secs, test=test); continue
            if isinstance(exc, unittest.SkipTest):   # the cell skipped itself: counted under its reason, and on we go
                emit(event="skip", index=i, id=cid, why=str(exc) or "SkipTest", ran=True); continue
            frames = traceback.extract_tb(exc.__traceback__)
            first = next((k for k, fr in enumerate(frames) if _in_cell(fr.filename)), 0)   # drop IPython's own frames
            tb = "".join(["Traceback (most recent call last):\n"] + traceback.format_list(frames[first:])
                         + traceback.format_exception_only(type(exc), exc))
            line = _cell_line(exc)
            if isinstance(exc, SyntaxError):   # raised while compiling the cell: no frame of the cell, nothing to add
                tb, line = "", exc.lineno if _in_cell(exc.filename or "") else None   # in the cell as run, without the directive lines nbdev removed
            emit(event="fail", index=i, id=cid, secs=secs, test=test, line=None if line is None else line + max(0, raw_lines - len(c.source.splitlines())),
                 exception="".join(traceback.format_exception_only(type(exc), exc)).strip(), traceback=tb)
            return


def _source(path, index):
    try: return "".join(json.loads(Path(path).read_text(encoding="utf-8"))["cells"][index]["source"])
    except (OSError, ValueError, IndexError, KeyError): return ""


def _failure_report(path, ev, why=None) -> str:
    "Lines naming the failing cell of notebook `path`: index, id, first lines of source, exception."
    kind = "test cell" if ev.get("test") else "cell without assertions"
    where = f"{kind} {ev['index']} (id {ev.get('id') or '-'})"
    src = _source(path, ev["index"]).splitlines()
    line = ev.get("line")
    lines = [f"  {where} failed" + (f" at line {line} of the cell" if line else "") + (f": {why}" if why else "") + ":"]
    shown = src[:SOURCE_LINES]
    if line and line > SOURCE_LINES: shown += ["..."] + src[line - 1:line]   # the raising line, if further down
    lines += [f"    | {s}" for s in shown]
    if len(src) > max(line or 0, SOURCE_LINES): lines.append(f"    | ... ({len(src)} lines)")
    if ev.get("exception"):
        exc_lines = ev["exception"].splitlines()
        lines += ["  " + exc_lines[-1] if len(exc_lines) == 1 else "  " + "\n  ".join(exc_lines)]
    if ev.get("traceback"):
        tb = ev["traceback"].rstrip().splitlines()
        lines.append(f"  traceback (last {min(TB_LINES, len(tb))} lines):")
        lines += ["    " + s for s in tb[-TB_LINES:]]
    return "\n".join(lines)


def run_one(path:Path, slow:bool, timeout, quick:bool=False, threads:int=1):
    "Run notebook `path` in its own Python process; return its summary."
    t0 = time.time()
    with tempfile.TemporaryDirectory() as d:
        events = Path(d) / "events.jsonl"
        events.touch()
        cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", str(path), str(events)] + (["--slow"] if slow else []) + (["--quick"] if quick else [])
        crash = None
        try:
            env = dict(os.environ)
            for var in THREAD_VARS:   # the cores shared out among the notebooks at once (see "Threads")
                env.setdefault(var, str(threads))
            proc = subprocess.run(cmd, cwd=root, capture_output=True, text=True, timeout=timeout, env=env)
            if proc.returncode != 0:
                crash = f"the notebook's process exited with status {proc.returncode}"
                tail = (proc.stderr or proc.stdout).strip().splitlines()[-TB_LINES:]
                if tail: crash += "; its output ends:\n" + "\n".join("    " + s for s in tail)
        except subprocess.TimeoutExpired:
            crash = f"timed out after {timeout} s (DPNOTES_TEST_TIMEOUT)"
        evs = [json.loads(l) for l in events.read_text(encoding="utf-8").splitlines() if l.strip()]
    res = dict(path=path, secs=time.time() - t0, passed=0, other=0, failed=0, skipped={}, not_run=0, reports=[],
               durations=[], skip_notebook=False, planned_tests=0, self_skipped=0)
    planned = 0
    running = None
    for ev in evs:
        kind = ev["event"]
        if kind == "skip_notebook": res["skip_notebook"] = True
        elif kind == "plan": planned, res["planned_tests"] = len(ev["indices"]), len(ev.get("tests", []))
        elif kind == "note": res["reports"].append("  note: " + ev["text"])
        elif kind == "skip":
            res["skipped"][ev["why"]] = res["skipped"].get(ev["why"], 0) + 1
            if ev.get("ran"): res["self_skipped"] += 1; running = None
        elif kind == "start": running = ev
        elif kind == "pass":
            res["passed" if ev.get("test") else "other"] += 1; running = None
            res["durations"].append((ev["secs"], path, ev["index"], ev.get("id"), ev.get("test")))
        elif kind == "fail":
            res["failed"] += 1; running = None; res["reports"].append(_failure_report(path, ev))
    if crash:
        if running is not None:
            res["failed"] += 1; res["reports"].append(_failure_report(path, running, why=crash))
        else:
            res["failed"] += 1; res["reports"].append(f"  {crash}")
    elif not res["failed"] and not res["skip_notebook"] and running is not None:   # cannot happen: a cell started, no outcome
        res["failed"] += 1; res["reports"].append(_failure_report(path, running, why="no outcome recorded"))
    if res["failed"]: res["not_run"] = max(0, planned - res["passed"] - res["other"] - res["failed"] - res["self_skipped"])
    return res


def _name(path):
    try: return str(Path(path).resolve().relative_to(root))
    except ValueError: return str(path)


def classify(path:Path, slow:bool, quick:bool):
    "Print, without running anything, how each code cell of notebook `path` would be run and counted."
    from nbdev.process import NBProcessor
    from nbdev.frontmatter import FrontmatterProc
    raw = json.loads(path.read_text(encoding="utf-8"))["cells"]
    index = {c.get("id"): i for i, c in enumerate(raw) if c.get("id")}
    code = [c for c in NBProcessor(path, procs=FrontmatterProc, process=True).nb.cells if c.cell_type == "code"]
    flags = _skip_flags(slow, quick)
    listed = QUICK_SKIP.get(path.name, set()) if quick else set()
    for c, t in zip(code, test_cells(code)):
        why = _not_run_reason(c, flags, listed)
        first = next((l for l in c.source.splitlines() if l.strip()), "")[:70]
        kind = f"skip ({why})" if why else "test" if t else "other"
        print(f"{_name(path)}  cell {index.get(c.get('id'), c.idx_):3d}  {kind:20s}  {first}")


def _counts(r) -> str:
    "A notebook's counts: test cells passed, failed cells, cells not run, cells without assertions, cells skipped."
    parts = [f"{r['passed']} passed"]
    if r["failed"]: parts.append(f"{r['failed']} failed")
    if r["not_run"]: parts.append(f"{r['not_run']} not run")
    parts.append(f"{r['other']} without assertions")
    if r["skipped"]:
        parts.append(f"{sum(r['skipped'].values())} skipped ("
                     + ", ".join(f"{k}: {v}" for k, v in sorted(r["skipped"].items())) + ")")
    return ", ".join(parts)


def clear_cell_caches():
    """Remove numba's cache of functions compiled in notebook cells (IPython's cache folder, numba_cache). Such an
    entry is keyed by its cell's text alone: after an edit of a kernel that a cached cell calls, the cell's entry
    would still hold the old kernel compiled in, and the notebook would test stale code."""
    try:
        from IPython.paths import get_ipython_cache_dir
    except ImportError:
        return
    import shutil
    shutil.rmtree(Path(get_ipython_cache_dir()) / "numba_cache", ignore_errors=True)


def main():
    argv = sys.argv[1:]
    slow, quick = "--slow" in argv, "--quick" in argv
    if argv[:1] == ["--worker"]:
        run_notebook(Path(argv[1]).resolve(), Path(argv[2]), slow, quick)
        return
    durations = 0
    for a in argv:
        if a.startswith("--durations="): durations = int(a.split("=", 1)[1])
    unknown = [a for a in argv if a.startswith("--") and a not in ("--slow", "--quick", "--classify")
               and not a.startswith("--durations=")]
    if unknown: sys.exit(f"unknown option(s) {unknown}; see the docstring of {__file__}")
    if slow and quick: sys.exit("--quick and --slow exclude each other (slow cells may use what heavy cells define)")
    args = [a for a in argv if not a.startswith("--")]
    nbs = [Path(a).resolve() for a in args] or sorted(p for p in (root / "nbs").glob("*.ipynb") if not p.name.startswith("_"))
    missing = [str(p) for p in nbs if not p.is_file()]
    if missing: sys.exit(f"no such notebook: {', '.join(missing)}")
    if "--classify" in argv:
        for p in nbs: classify(p, slow, quick)
        return
    clear_cell_caches()
    workers = int(os.environ.get("DPNOTES_TEST_WORKERS", "2"))
    timeout = float(os.environ["DPNOTES_TEST_TIMEOUT"]) if os.environ.get("DPNOTES_TEST_TIMEOUT") else None
    passed = other = failed = not_run = skipped = 0
    times, untested = [], []
    t0 = time.time()
    with ThreadPoolExecutor(max_workers=max(1, workers)) as ex:   # each thread drives one notebook process
        threads = max(1, (os.cpu_count() or 1) // max(1, workers))
        first = sorted(nbs, key=lambda p: -EXPECTED_SECONDS.get(p.stem, 0))   # stable: name order after
        started = {p: ex.submit(run_one, p, slow, timeout, quick, threads) for p in first}
        futures = [started[p] for p in nbs]
        for fut in futures:   # printed in the order given, each as soon as it and those before it are done
            r = fut.result()
            empty = not r["skip_notebook"] and not r["failed"] and r["passed"] == 0
            if empty: untested.append(_name(r["path"]))
            status = "SKIP" if r["skip_notebook"] else "FAIL" if r["failed"] else "EMPTY" if empty else "PASS"
            print(f"{status}  {_name(r['path'])}  {'skip_exec' if r['skip_notebook'] else _counts(r)}  ({r['secs']:.1f} s)"
                  + ("  no test cell ran: it checks nothing" if empty else ""), flush=True)
            for rep in r["reports"]: print(rep, flush=True)
            passed += r["passed"]; other += r["other"]; failed += r["failed"]; not_run += r["not_run"]
            skipped += sum(r["skipped"].values())
            times += r["durations"]
    if durations:
        print(f"slowest {min(durations, len(times))} cells:")
        for secs, path, i, cid, test in sorted(times, key=lambda t: -t[0])[:durations]:
            print(f"  {secs:7.1f} s  {_name(path)}  {'test cell' if test else 'cell'} {i} (id {cid or '-'})")
    if not_run: print(f"{not_run} cell{'s' if not_run != 1 else ''} not run after a failure")
    if untested:
        print(f"{len(untested)} notebook{'s' if len(untested) != 1 else ''} in which no test cell ran: {', '.join(untested)}")
    print(f"total {time.time() - t0:.1f} s")
    print(f"(also ran {other} cell{'s' if other != 1 else ''} without assertions)")
    print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
    sys.exit(0 if failed == 0 and passed > 0 else 1)


if __name__ == "__main__":
    main()
