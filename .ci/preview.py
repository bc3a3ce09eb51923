"""Offline docs preview without Quarto: nbdev's notebook processing, then nbconvert to HTML in `_docs/`.

The real site is built with `nbdev_docs` where Quarto is installed. This renders the same processed
notebooks (directives applied, hidden cells dropped, `show_doc` tables) as plain HTML pages, so they can
be read and screenshotted on a machine without Quarto: the Quarto front matter becomes a title and
subtitle, and cells marked `echo: false` show only their output. MathJax loads from its CDN unless
`DPNOTES_MATHJAX` names a local `tex-mml-chtml.js` (e.g. from the npm package `mathjax@3`).
"""
import html, os, re, shutil, subprocess, sys
from pathlib import Path

import nbformat

root = Path(__file__).resolve().parent.parent


def tidy(path):
    "Front matter -> markdown title; `echo: false` cells -> output only."
    nb = nbformat.read(path, as_version=4)
    cells = []
    for c in nb.cells:
        if c.cell_type == "raw" and c.source.lstrip().startswith("---"):
            fm = dict(re.findall(r"^(\w[\w-]*):\s*(.*)$", c.source, re.M))
            title, desc = fm.get("title", path.stem), fm.get("description", "")
            cells.append(nbformat.v4.new_markdown_cell(f"# {title}\n\n*{desc}*" if desc else f"# {title}"))
            continue
        if c.cell_type == "code" and re.search(r"^#\|\s*echo:\s*false", c.source, re.M):
            c.metadata.setdefault("tags", []).append("remove_input")
        if c.cell_type == "code":
            c.source = "\n".join(l for l in c.source.splitlines() if not re.match(r"^#\|", l))
        cells.append(c)
    nb.cells = cells
    nbformat.write(nb, path)


def main():
    proc, docs = root / "_proc", root / "_docs"
    subprocess.run(["nbdev_proc_nbs"], cwd=root, check=True)
    if docs.exists(): shutil.rmtree(docs)
    docs.mkdir()
    nbs = sorted(proc.glob("*.ipynb"))
    if not nbs: sys.exit("no processed notebooks in _proc/")
    for p in nbs: tidy(p)
    args = [sys.executable, "-m", "jupyter", "nbconvert", "--to", "html", "--output-dir", str(docs),
            "--log-level", "WARN", "--TagRemovePreprocessor.enabled=True",
            "--TagRemovePreprocessor.remove_input_tags=remove_input"]
    mj = os.environ.get("DPNOTES_MATHJAX")
    if mj: args.append(f"--HTMLExporter.mathjax_url=file://{Path(mj).resolve()}")
    subprocess.run(args + [str(p) for p in nbs], check=True)
    for page in docs.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        text = text.replace('{target="_blank" style="float:right; font-size:smaller"}', "")
        if mj:  # MathJax 3 reads its settings from window.MathJax: enable $...$ for inline math
            cfg = "<script>window.MathJax={tex:{inlineMath:[['$','$'],['\\\\(','\\\\)']],processEscapes:true}};</script>"
            text = text.replace("<script src=\"file://", cfg + "<script src=\"file://", 1)
        page.write_text(text, encoding="utf-8")
    links = "\n".join(f'<li><a href="{html.escape(p.stem)}.html">{html.escape(p.stem)}</a></li>' for p in nbs)
    (docs / "pages.html").write_text(f"<html><body><h1>dpnotes pages</h1><ul>{links}</ul></body></html>\n")
    print(f"wrote {len(nbs)} pages to {docs}")


if __name__ == "__main__":
    main()
