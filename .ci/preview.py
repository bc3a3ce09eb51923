"""Offline docs preview without Quarto: nbdev's notebook processing, then nbconvert to HTML in `_docs/`.

The real site is built with `nbdev_docs` where Quarto is installed. This renders the same processed
notebooks (directives applied, hidden cells dropped, `show_doc` tables) as plain HTML pages, so they can
be read and screenshotted on a machine without Quarto and without a network:

- every page gets a bar linking the index and its previous and next pages (in the index's order), and a
  figure the alternative text of its cell's `#| fig-alt:` directive;
- it calls nbdev's `proc_nbs` directly: `nbdev_proc_nbs` would first try to install Quarto (with sudo)
  and re-install this package with pip, changing the environment it runs in;
- math renders with the MathJax 2 that the PyPI package `jupyter-server-mathjax` ships (a dev requirement),
  copied to `_docs/mathjax/`: no CDN;
- the Quarto front matter becomes a title and subtitle, cells marked `echo: false` show only their output,
  no `In [ ]:` prompts, and test cells (fastcore `test_*` calls or `assert`, not exported) are folded into a
  "tests" block that opens on a click;
- links between notebooks point at the pages, and links to the placeholder hosts of settings.ini (no real
  site or repository is published yet) are dropped, keeping their text.

`python .ci/preview.py --check` also checks every page: no remote script, MathJax local, every local link
and image present, the index links every page, every page's bar links the index and its neighbours, and
every image has alternative text. `.ci/docs_browser_check.py` then opens each page in
headless Chromium and checks that the math was typeset.
"""
import configparser, html, re, shutil, subprocess, sys, tempfile
from pathlib import Path

import nbformat
import yaml

root = Path(__file__).resolve().parent.parent
TEST = re.compile(r"^\s*(test_\w+\(|assert\b)", re.M)
FOLD = """<script>
document.querySelectorAll('.celltag_test').forEach(function (cell) {
  var d = document.createElement('details'), s = document.createElement('summary');
  s.textContent = 'tests'; d.className = 'dpnotes-tests'; d.appendChild(s);
  cell.parentNode.insertBefore(d, cell); d.appendChild(cell);
});
</script>
<style>details.dpnotes-tests > summary { cursor: pointer; color: #666; font-size: 90%; margin: 0.3em 0; }</style>
"""


# jupyter-server-mathjax ships the STIX-Web fonts only; MathJax 2 defaults to its TeX fonts
MATHJAX_FONTS = """<script type="text/x-mathjax-config">
MathJax.Hub.Config({"HTML-CSS": {availableFonts: [], preferredFont: null, webFont: "STIX-Web", imageFont: null},
                   SVG: {font: "STIX-Web"}});
</script>
"""


def tidy(path, out):
    """Front matter -> markdown title; `echo: false` cells -> output only; test cells tagged `test`.

    Reads nbdev's processed notebook `path` and writes the result to `out` (nbdev's `_proc/` is a cache)."""
    nb = nbformat.read(path, as_version=4)
    cells = []
    for c in nb.cells:
        if c.cell_type == "raw" and c.source.lstrip().startswith("---"):
            fm = yaml.safe_load(c.source.strip().strip("-")) or {}
            title, desc = fm.get("title", path.stem), " ".join(str(fm.get("description", "")).split())
            cells.append(nbformat.v4.new_markdown_cell(f"# {title}\n\n*{desc}*" if desc else f"# {title}"))
            continue
        if c.cell_type == "code":
            c.pop("has_sd", None)  # nbdev's mark, not in the notebook schema nbconvert validates against
            tags = c.metadata.setdefault("tags", [])
            if re.search(r"^#\|\s*echo:\s*false", c.source, re.M):
                tags.append("remove_input")
            if TEST.search(c.source) and not re.search(r"^#\|\s*export", c.source, re.M):
                tags.append("test")
            c.metadata["tags"] = sorted(set(tags))
            alt = re.search(r"^#\|\s*fig-alt:\s*(.+)$", c.source, re.M)  # Quarto's alternative text
            for o in c.get("outputs", []):  # nbconvert writes no alt: the image as HTML that carries it
                if alt and "image/png" in o.get("data", {}):
                    png = o.data.pop("image/png").strip()
                    o.data.pop("text/plain", None)
                    o.data["text/html"] = f'<img src="data:image/png;base64,{png}" alt="{html.escape(alt.group(1).strip())}">'
            c.source = "\n".join(l for l in c.source.splitlines() if not re.match(r"^#\|", l))
        cells.append(c)
    nb.cells = cells
    nbformat.write(nb, out)


def placeholder_hosts():
    "Link prefixes of settings.ini's doc_host and git_url (host-less ones when empty): links dropped."
    cfg = configparser.ConfigParser()
    cfg.read(root / "settings.ini")
    d = cfg["DEFAULT"]
    hosts = [u.rstrip("/") for u in (d.get("doc_host"), d.get("git_url")) if u]
    # no host configured: show_doc writes host-less links, /blob/<branch>/... and <doc_baseurl>/<module>.html
    if not d.get("git_url"):
        hosts.append(f"/blob/{d.get('branch', 'main')}/")
    if not d.get("doc_host") and d.get("doc_baseurl"):
        hosts.append(d.get("doc_baseurl").rstrip("/") + "/")
    return hosts


NAV = '<nav class="dpnotes-nav">{}</nav>'
NAV_CSS = ("<style>nav.dpnotes-nav { display: flex; gap: 1.5em; font-size: 90%; margin: 0.8em 0; }"
           " nav.dpnotes-nav a { text-decoration: none; }</style>")


def navigation(name, order):
    "The bar of page `name`: the index, and the previous and next pages in `order` (the index's order)."
    i = order.index(name)
    links = [] if name == "index" else ['<a href="index.html">&#8962; index</a>']
    if i > 0 and order[i - 1] != "index":
        links.append(f'<a href="{order[i - 1]}.html" rel="prev">&#8592; {html.escape(order[i - 1])}</a>')
    if i + 1 < len(order):
        links.append(f'<a href="{order[i + 1]}.html" rel="next">{html.escape(order[i + 1])} &#8594;</a>')
    return NAV.format(" ".join(links))


def fix_page(text, hosts):
    "Local links to pages, placeholder links unwrapped, nbdev's leftover attribute text removed."
    text = text.replace('{target="_blank" style="float:right; font-size:smaller"}', "")
    text = re.sub(r'<script[^>]+src="https?:[^"]*require[^"]*"[^>]*>\s*</script>', "", text)  # widgets only
    text = re.sub(r'href="(?!https?:)([\w./-]+)\.ipynb(#[^"]*)?"', r'href="\1.html\2"', text)
    for h in hosts:
        text = re.sub(rf'<a [^>]*href="{re.escape(h)}[^"]*"[^>]*>(.*?)</a>', r"\1", text, flags=re.S)
    text = text.replace('<script src="mathjax/', MATHJAX_FONTS + '<script src="mathjax/', 1)
    return text.replace("</body>", FOLD + "</body>", 1)


def process():
    """nbdev's processing of nbs/ into _proc/, without its Quarto install step, in this process.

    nbdev executes, to render `show_doc`, every cell with an import; a test cell that imports (e.g. mpmath)
    and uses names of earlier test cells then fails. Here such a mixed cell runs only if it also defines or
    documents something (an export or `show_doc`): tests are not needed to render the docs.
    """
    import ast
    import nbdev.processors as P
    from nbdev.serve import proc_nbs

    do_eval = P._do_eval

    def docs_only(cell):
        trees = cell.parsed_() if cell.cell_type == "code" and P.cell_lang(cell) == "python" else None
        mixed = trees and P._ast_contains(trees, (ast.Import, ast.ImportFrom)) and P._ast_contains(
            trees, (ast.Expr, ast.Assign, ast.For, ast.Assert, ast.With, ast.If))
        if mixed and not (cell.directives_.keys() & {"export", "exports", "exporti", "exec_doc"}):
            return bool(P._show_docs(trees))
        return do_eval(cell)

    P._do_eval = docs_only
    proc_nbs(n_workers=0)  # in this process, so that the patch applies


def mathjax(docs):
    "Copy the MathJax of jupyter-server-mathjax next to the pages; return the URL pages load it by."
    import jupyter_server_mathjax

    src = Path(jupyter_server_mathjax.__file__).parent / "static"
    shutil.copytree(src, docs / "mathjax")
    return "mathjax/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full,Safe"


def check(docs):
    "Problems of the built pages: remote scripts, local links or images that do not exist, raw math."
    bad = []
    for page in sorted(p for p in docs.glob("*.html") if p.name != "pages.html"):
        text = page.read_text(encoding="utf-8")
        for src in re.findall(r'<script[^>]+src="(https?:[^"]+)"', text):
            bad.append(f"{page.name}: remote script {src}")
        for ref in re.findall(r'(?:href|src)="(?!https?:|mailto:|#|data:)([^"#?]+)', text):
            if not (docs / ref).exists():
                bad.append(f"{page.name}: missing {ref}")
        if "mathjax/MathJax.js" not in text:
            bad.append(f"{page.name}: no local MathJax")
    index = (docs / "index.html").read_text(encoding="utf-8") if (docs / "index.html").exists() else ""
    for page in sorted(docs.glob("*.html")):
        if page.name not in ("index.html", "pages.html") and f'href="{page.name}"' not in index:
            bad.append(f"index.html: no link to {page.name}")
    order = page_order(docs)
    for name in order:  # every page links the index and its neighbours, in the index's order
        nav = re.search(r'<nav class="dpnotes-nav">(.*?)</nav>', (docs / f"{name}.html").read_text(encoding="utf-8"))
        want = [f"{n}.html" for n in order[max(0, order.index(name) - 1): order.index(name) + 2] if n != name]
        want += [] if name == "index" else ["index.html"]
        missing = [w for w in set(want) if not nav or f'href="{w}"' not in nav.group(1)]
        if missing:
            bad.append(f"{name}.html: its navigation does not link {', '.join(sorted(missing))}")
    for page in sorted(docs.glob("*.html")):  # every image says what it shows
        for img in re.findall(r"<img\b[^>]*>", page.read_text(encoding="utf-8")):
            if not re.search(r'\balt="[^"]+"', img) or "No description has been provided" in img:
                bad.append(f"{page.name}: an image without alternative text (#| fig-alt: in its cell)")
    return bad


def page_order(docs):
    "The pages in the order the index links them (the index first), then any it does not link."
    index = (docs / "index.html").read_text(encoding="utf-8")
    linked = [m for m in dict.fromkeys(re.findall(r'href="([\w-]+)\.html"', index)) if (docs / f"{m}.html").exists()]
    rest = sorted(p.stem for p in docs.glob("*.html") if p.stem not in linked + ["index", "pages"])
    return ["index"] + [m for m in linked if m != "index"] + rest


def main():
    proc, docs = root / "_proc", root / "_docs"
    process()
    if docs.exists():
        shutil.rmtree(docs)
    docs.mkdir()
    staged = Path(tempfile.mkdtemp(prefix="dpnotes-preview-"))
    nbs = [staged / p.name for p in sorted(proc.glob("*.ipynb"))]
    if not nbs:
        sys.exit("no processed notebooks in _proc/")
    for p in nbs:
        tidy(proc / p.name, p)
    args = [sys.executable, "-m", "jupyter", "nbconvert", "--to", "html", "--output-dir", str(docs),
            "--log-level", "WARN", "--TagRemovePreprocessor.enabled=True",
            "--TagRemovePreprocessor.remove_input_tags=remove_input",
            "--HTMLExporter.exclude_input_prompt=True", "--HTMLExporter.exclude_output_prompt=True",
            f"--HTMLExporter.mathjax_url={mathjax(docs)}"]
    try:
        subprocess.run(args + [str(p) for p in nbs], check=True)
    finally:
        shutil.rmtree(staged)
    hosts = placeholder_hosts()
    for page in docs.glob("*.html"):  # links first: the order of the pages is read off the index's links
        page.write_text(fix_page(page.read_text(encoding="utf-8"), hosts), encoding="utf-8")
    order = page_order(docs)
    for name in order:
        page = docs / f"{name}.html"
        text = page.read_text(encoding="utf-8")
        text = re.sub(r"(<body[^>]*>)", lambda m: m.group(1) + NAV_CSS + navigation(name, order), text, count=1)
        page.write_text(text.replace("</body>", navigation(name, order) + "</body>", 1), encoding="utf-8")
    links = "\n".join(f'<li><a href="{html.escape(p.stem)}.html">{html.escape(p.stem)}</a></li>' for p in nbs)
    (docs / "pages.html").write_text(f"<html><body><h1>dpnotes pages</h1><ul>{links}</ul></body></html>\n")
    print(f"wrote {len(nbs)} pages to {docs}")
    if "--check" in sys.argv:
        bad = check(docs)
        print("\n".join(bad[:50]) or "every page: local MathJax, local links and images present")
        sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
