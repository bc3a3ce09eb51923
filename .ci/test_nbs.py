"""Run the notebooks' tests cell by cell, one process per notebook, and count code cells.

Every code cell that runs is one test: it passes when it runs without an exception. The cells are
chosen as `nbdev_test` chooses them (`nbdev.test.test_nb`): markdown and raw cells, cells calling
`nbdev_export(`, cells with `#| eval: false`, and cells with a flag of settings.ini's `tst_flags`
(`#| slow`) are not run and not counted; `--slow` runs the `#| slow` cells too. Blank code cells are
not counted either. A notebook whose front matter says `skip_exec: true` is skipped whole. Each
notebook runs in a fresh process in an execnb `CaptureShell`, in the notebook's folder, with the
repository root on `sys.path` and `IN_TEST=1`, as nbdev runs it.

A failing cell stops its notebook: the failing cell counts as failed, and the notebook's later cells
are neither run nor counted as passed or failed; they are reported as "not run" (on the notebook's
line and in a closing "N cells not run" line), so a failure early in a notebook is visible in the
counts. For the failure it prints the notebook, the cell's index in the notebook's `cells` list
(0-based, markdown cells included, as `jq '.cells[N]'` finds it) and its cell id, the first lines
of the cell's source, the line of the cell that raised, the exception line and the end of the
traceback. A notebook process that dies (a crash in compiled code, or `DPNOTES_TEST_TIMEOUT`
seconds passed) counts its running cell as failed, named the same way.

Output: one line per notebook, `total N s`, and a closing line `N passed, N failed`. Exit status 1
on any failure or when no cell ran, else 0.

Usage: python .ci/test_nbs.py [--slow] [--durations=N] [NOTEBOOK ...]
  NOTEBOOK ...      notebook paths (default: every nbs/*.ipynb not starting with `_`)
  --slow            also run cells flagged `#| slow`
  --durations=N     print the N slowest cells
Environment: DPNOTES_TEST_WORKERS (notebooks run at once, default 2); DPNOTES_TEST_TIMEOUT (seconds
a notebook may take, default no limit).

Checked by hand (not committed, as a failing notebook would fail CI): a notebook in a temporary
folder with cells `y = 3`, `x = 1\nassert x == 2, 'x is not 2'` and `z = 1` gives

    FAIL  /tmp/tmp.GWf1QNTIyd/bad.ipynb  1 passed, 1 failed, 1 not run  (2.8 s)
      cell 2 (id c2) failed at line 2 of the cell:
        | x = 1
        | assert x == 2, 'x is not 2'
      AssertionError: x is not 2
      traceback (last 5 lines):
        ...
    1 cell not run after a failure
    total 2.8 s
    1 passed, 1 failed

and exit status 1 (cell 2: the markdown title is cell 0). A cell calling `os.abort()` is reported
the same way, with "the notebook's process exited with status -6"; a SyntaxError names its line.
"""
import json, os, subprocess, sys, tempfile, time, traceback
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

root = Path(__file__).resolve().parent.parent
SOURCE_LINES = 6    # lines of a failing cell's source shown
TB_LINES = 12       # lines of the end of a failing cell's traceback shown


def _skip_flags(slow:bool) -> set:
    "The flags of settings.ini's `tst_flags` whose cells are not run (`slow` is run with --slow)."
    from nbdev.config import get_config
    flags = set(get_config(path=root).get("tst_flags", "").split())
    return flags - {"slow"} if slow else flags


def _not_run_reason(cell, flags):
    "Why nbdev's test would not run `cell` (a processed code cell), or None: nbdev.test.test_nb's `_no_eval`."
    if "nbdev_export" + "(" in cell.source: return "nbdev_export"
    direc = getattr(cell, "directives_", {}) or {}
    if direc.get("eval:", [""])[0].lower() == "false": return "eval: false"
    hit = flags & direc.keys()
    if hit: return "#| " + " ".join(sorted(hit))
    if not cell.source.strip(): return "blank"
    return None


def _in_cell(filename): return filename.startswith("<ipython-input-") or "ipykernel_" in filename


def _cell_line(exc):
    "Line number, within the cell, of the innermost traceback frame that is in the cell's code."
    line = None
    for fr in traceback.extract_tb(exc.__traceback__):
        if _in_cell(fr.filename): line = fr.lineno
    return line


def run_notebook(path:Path, events:Path, slow:bool):
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
    flags = _skip_flags(slow)
    plan = []   # (processed cell, index in the file, reason not run or None)
    for c in nb.cells:
        if c.cell_type != "code": continue
        i = index.get(c.get("id"), c.idx_)
        plan.append((c, i, _not_run_reason(c, flags)))
    emit(event="plan", indices=[i for _, i, why in plan if not why])
    shell = CaptureShell(path)
    with working_directory(path.parent):
        for c, i, why in plan:
            cid = c.get("id")
            if why:
                emit(event="skip", index=i, id=cid, why=why); continue
            raw_lines = len("".join(raw[i]["source"]).splitlines()) if i < len(raw) else 0
            emit(event="start", index=i, id=cid)
            t0 = time.perf_counter()
            shell.cell(c)
            secs = time.perf_counter() - t0
            exc = shell.exc
            if exc is None:
                emit(event="pass", index=i, id=cid, secs=secs); continue
            frames = traceback.extract_tb(exc.__traceback__)
            first = next((k for k, fr in enumerate(frames) if _in_cell(fr.filename)), 0)   # drop IPython's own frames
            tb = "".join(["Traceback (most recent call last):\n"] + traceback.format_list(frames[first:])
                         + traceback.format_exception_only(type(exc), exc))
            line = _cell_line(exc)
            if isinstance(exc, SyntaxError):   # raised while compiling the cell: no frame of the cell, nothing to add
                tb, line = "", exc.lineno if _in_cell(exc.filename or "") else None   # in the cell as run, without the directive lines nbdev removed
            emit(event="fail", index=i, id=cid, secs=secs, line=None if line is None else line + max(0, raw_lines - len(c.source.splitlines())),
                 exception="".join(traceback.format_exception_only(type(exc), exc)).strip(), traceback=tb)
            return


def _source(path, index):
    try: return "".join(json.loads(Path(path).read_text(encoding="utf-8"))["cells"][index]["source"])
    except (OSError, ValueError, IndexError, KeyError): return ""


def _failure_report(path, ev, why=None) -> str:
    "Lines naming the failing cell of notebook `path`: index, id, first lines of source, exception."
    where = f"cell {ev['index']} (id {ev.get('id') or '-'})"
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


def run_one(path:Path, slow:bool, timeout):
    "Run notebook `path` in its own Python process; return its summary."
    t0 = time.time()
    with tempfile.TemporaryDirectory() as d:
        events = Path(d) / "events.jsonl"
        events.touch()
        cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", str(path), str(events)] + (["--slow"] if slow else [])
        crash = None
        try:
            proc = subprocess.run(cmd, cwd=root, capture_output=True, text=True, timeout=timeout)
            if proc.returncode != 0:
                crash = f"the notebook's process exited with status {proc.returncode}"
                tail = (proc.stderr or proc.stdout).strip().splitlines()[-TB_LINES:]
                if tail: crash += "; its output ends:\n" + "\n".join("    " + s for s in tail)
        except subprocess.TimeoutExpired:
            crash = f"timed out after {timeout} s (DPNOTES_TEST_TIMEOUT)"
        evs = [json.loads(l) for l in events.read_text(encoding="utf-8").splitlines() if l.strip()]
    res = dict(path=path, secs=time.time() - t0, passed=0, failed=0, skipped={}, not_run=0, reports=[], durations=[],
               skip_notebook=False)
    planned = 0
    running = None
    for ev in evs:
        kind = ev["event"]
        if kind == "skip_notebook": res["skip_notebook"] = True
        elif kind == "plan": planned = len(ev["indices"])
        elif kind == "skip": res["skipped"][ev["why"]] = res["skipped"].get(ev["why"], 0) + 1
        elif kind == "start": running = ev
        elif kind == "pass":
            res["passed"] += 1; running = None; res["durations"].append((ev["secs"], path, ev["index"], ev.get("id")))
        elif kind == "fail":
            res["failed"] += 1; running = None; res["reports"].append(_failure_report(path, ev))
    if crash:
        if running is not None:
            res["failed"] += 1; res["reports"].append(_failure_report(path, running, why=crash))
        else:
            res["failed"] += 1; res["reports"].append(f"  {crash}")
    elif not res["failed"] and not res["skip_notebook"] and running is not None:   # cannot happen: a cell started, no outcome
        res["failed"] += 1; res["reports"].append(_failure_report(path, running, why="no outcome recorded"))
    if res["failed"]: res["not_run"] = max(0, planned - res["passed"] - res["failed"])
    return res


def _name(path):
    try: return str(Path(path).resolve().relative_to(root))
    except ValueError: return str(path)


def main():
    argv = sys.argv[1:]
    slow = "--slow" in argv
    if argv[:1] == ["--worker"]:
        run_notebook(Path(argv[1]).resolve(), Path(argv[2]), slow)
        return
    durations = 0
    for a in argv:
        if a.startswith("--durations="): durations = int(a.split("=", 1)[1])
    unknown = [a for a in argv if a.startswith("--") and a != "--slow" and not a.startswith("--durations=")]
    if unknown: sys.exit(f"unknown option(s) {unknown}; see the docstring of {__file__}")
    args = [a for a in argv if not a.startswith("--")]
    nbs = [Path(a).resolve() for a in args] or sorted(p for p in (root / "nbs").glob("*.ipynb") if not p.name.startswith("_"))
    missing = [str(p) for p in nbs if not p.is_file()]
    if missing: sys.exit(f"no such notebook: {', '.join(missing)}")
    workers = int(os.environ.get("DPNOTES_TEST_WORKERS", "2"))
    timeout = float(os.environ["DPNOTES_TEST_TIMEOUT"]) if os.environ.get("DPNOTES_TEST_TIMEOUT") else None
    passed = failed = not_run = 0
    times = []
    t0 = time.time()
    with ThreadPoolExecutor(max_workers=max(1, workers)) as ex:   # each thread drives one notebook process
        futures = [ex.submit(run_one, p, slow, timeout) for p in nbs]
        for fut in futures:   # printed in the order given, each as soon as it and those before it are done
            r = fut.result()
            counts = f"{r['passed']} passed" + (f", {r['failed']} failed" if r["failed"] else "") \
                     + (f", {r['not_run']} not run" if r["not_run"] else "") \
                     + (f", {sum(r['skipped'].values())} not counted ("
                        + ", ".join(f"{k}: {v}" for k, v in sorted(r["skipped"].items())) + ")" if r["skipped"] else "")
            status = "SKIP" if r["skip_notebook"] else "FAIL" if r["failed"] else "PASS"
            print(f"{status}  {_name(r['path'])}  {'skip_exec' if r['skip_notebook'] else counts}  ({r['secs']:.1f} s)", flush=True)
            for rep in r["reports"]: print(rep, flush=True)
            passed += r["passed"]; failed += r["failed"]; not_run += r["not_run"]
            times += r["durations"]
    if durations:
        print(f"slowest {min(durations, len(times))} cells:")
        for secs, path, i, cid in sorted(times, key=lambda t: -t[0])[:durations]:
            print(f"  {secs:7.1f} s  {_name(path)}  cell {i} (id {cid or '-'})")
    if not_run: print(f"{not_run} cell{'s' if not_run != 1 else ''} not run after a failure")
    print(f"total {time.time() - t0:.1f} s")
    print(f"{passed} passed, {failed} failed")
    sys.exit(0 if failed == 0 and passed > 0 else 1)


if __name__ == "__main__":
    main()
