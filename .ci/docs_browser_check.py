"""Open every page of the offline docs (`python .ci/preview.py` first) in headless Chromium and check it.

For each `_docs/*.html`: the page loads, MathJax typeset its math (no "Math Processing Error", and no raw
`$` left in the text outside code, scripts and styles), and every image has a source that exists (a
`data:` URI or a file next to the page). `--screenshots DIR` also saves a PNG of each page's top.
Needs a `chromium` binary (Debian's package `chromium`); exits 1 listing the problems.
"""
import base64, re, shutil, subprocess, sys
from pathlib import Path

docs = Path(__file__).resolve().parent.parent / "_docs"
STRIP = re.compile(r"<(script|style|code|pre)\b.*?</\1>", re.S | re.I)


def chromium(*args):
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if not exe:
        sys.exit("no chromium: apt-get install chromium")
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=20000"]
    return subprocess.run([exe, *flags, *args], capture_output=True, text=True, timeout=120)


def problems(page):
    dom = chromium("--dump-dom", page.as_uri()).stdout
    if "</html>" not in dom:
        return [f"{page.name}: did not load"]
    bad = [f"{page.name}: {n} math errors" for n in [dom.count("Math Processing Error")] if n]
    text = re.sub(r"<[^>]+>", " ", STRIP.sub(" ", dom))
    raw = re.findall(r".{0,30}\$[^$\s][^$]{0,40}\$", text)
    bad += [f"{page.name}: raw math {r.strip()!r}" for r in raw[:3]]
    for src in re.findall(r'<img[^>]+src="([^"]+)"', dom):
        if src.startswith("data:"):
            ok = len(base64.b64decode(src.split(",", 1)[1])) > 0
        else:
            ok = (page.parent / src).exists()
        if not ok:
            bad.append(f"{page.name}: image {src[:60]} does not load")
    return bad


def main():
    pages = sorted(p for p in docs.glob("*.html") if p.name != "pages.html")
    if not pages:
        sys.exit("no pages in _docs/: run python .ci/preview.py")
    shots = sys.argv[sys.argv.index("--screenshots") + 1] if "--screenshots" in sys.argv else None
    bad = []
    for page in pages:
        bad += problems(page)
        if shots:
            Path(shots).mkdir(parents=True, exist_ok=True)
            chromium("--window-size=1200,1600", f"--screenshot={Path(shots, page.stem + '.png')}", page.as_uri())
    print("\n".join(bad) or f"{len(pages)} pages: loaded, math typeset, images present")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
