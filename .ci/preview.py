"""Offline docs preview without Quarto: nbdev's notebook processing, then nbconvert to HTML in `_docs/`.

The real site is built with `nbdev_docs` where Quarto is installed; this renders the same processed
notebooks (directives applied, hidden cells dropped, `show_doc` tables) as plain HTML pages, with a
small index page linking them, so the pages can be read and screenshotted on a machine without Quarto.
"""
import html, shutil, subprocess, sys
from pathlib import Path

root = Path(__file__).resolve().parent.parent


def main():
    proc, docs = root / "_proc", root / "_docs"
    subprocess.run(["nbdev_proc_nbs"], cwd=root, check=True)
    if docs.exists(): shutil.rmtree(docs)
    docs.mkdir()
    nbs = sorted((proc).glob("*.ipynb"))
    if not nbs: sys.exit("no processed notebooks in _proc/")
    subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "html", "--output-dir", str(docs),
                    "--log-level", "WARN"] + [str(p) for p in nbs], check=True)
    links = "\n".join(f'<li><a href="{html.escape(p.stem)}.html">{html.escape(p.stem)}</a></li>' for p in nbs)
    (docs / "pages.html").write_text(f"<html><body><h1>dpnotes pages</h1><ul>{links}</ul></body></html>\n")
    print(f"wrote {len(nbs)} pages to {docs}")


if __name__ == "__main__":
    main()
