"""Write README.md from nbs/index.ipynb (nbdev_readme needs Quarto, which this toolchain cannot assume).

Markdown cells are copied, code cells become ```python blocks (directive lines and `#| hide` cells
dropped), and text outputs become plain blocks. `--check` exits 1 when README.md is out of date.
"""
import json, re, sys
from pathlib import Path

root = Path(__file__).resolve().parent.parent
directive = re.compile(r"^\s*#\s*\|")


def render(nb_path):
    nb = json.loads(Path(nb_path).read_text(encoding="utf-8"))
    out = []
    for cell in nb["cells"]:
        src = "".join(cell["source"])
        lines = src.splitlines()
        if any(re.match(r"^\s*#\s*\|\s*(hide|include:\s*false)\s*$", l) for l in lines):
            continue
        if cell["cell_type"] == "markdown":  # links to notebooks: relative to nbs/ on the site, to the root here
            out.append(re.sub(r"\]\((?![a-z]+:)([\w-]+\.ipynb)", r"](nbs/\1", src.strip()))
        elif cell["cell_type"] == "code":
            code = "\n".join(l for l in lines if not directive.match(l)).strip()
            if code:
                out.append(f"```python\n{code}\n```")
            for o in cell.get("outputs", []):
                text = o.get("text") or o.get("data", {}).get("text/plain")
                if text:
                    out.append("```\n" + "".join(text).rstrip() + "\n```")
    return "\n\n".join(out) + "\n"


def main():
    text = render(root / "nbs" / "index.ipynb")
    readme = root / "README.md"
    if "--check" in sys.argv:
        if not readme.exists() or readme.read_text(encoding="utf-8") != text:
            sys.exit("README.md is out of date with nbs/index.ipynb: run `python .ci/readme.py`")
        print("README.md is up to date")
    else:
        readme.write_text(text, encoding="utf-8")
        print("wrote README.md")


if __name__ == "__main__":
    main()
