"""Package metadata for dpnotes, read from settings.ini (nbdev 2 layout)."""
from configparser import ConfigParser
from pathlib import Path

import setuptools
from packaging.requirements import Requirement

here = Path(__file__).parent
config = ConfigParser(delimiters=["="])
config.read(here / "settings.ini", encoding="utf-8")
cfg = config["DEFAULT"]

for key in "version description keywords author author_email license min_python lib_name user".split():
    if key not in cfg:
        raise ValueError(f"settings.ini is missing the key {key!r}")


def reqs(key):
    "Requirement strings from a space-separated settings.ini entry, validated by `packaging`."
    return [str(Requirement(r)) for r in cfg.get(key, "").split()]


licenses = {"apache2": ("Apache Software License 2.0", "OSI Approved :: Apache Software License")}
statuses = ["1 - Planning", "2 - Pre-Alpha", "3 - Alpha", "4 - Beta", "5 - Production/Stable", "6 - Mature"]
lic = licenses[cfg["license"].lower()]
py_versions = ["3.11", "3.12", "3.13"]
min_python = cfg["min_python"]

setuptools.setup(
    name=cfg["lib_name"],
    version=cfg["version"],
    license=lic[0],
    classifiers=[
        "Development Status :: " + statuses[int(cfg["status"])],
        "Intended Audience :: " + cfg["audience"].title(),
        "License :: " + lic[1],
        "Natural Language :: " + cfg["language"].title(),
    ]
    + [f"Programming Language :: Python :: {v}" for v in py_versions[py_versions.index(min_python):]],
    url=cfg["git_url"],
    packages=setuptools.find_packages(include=["dpnotes", "dpnotes.*"]),
    include_package_data=True,
    install_requires=reqs("requirements"),
    extras_require={
        "dev": reqs("dev_requirements"),
        "scale": reqs("scale_requirements"),
        "frames": reqs("frames_requirements"),
        "widgets": reqs("widgets_requirements"),
        "solvers": reqs("solvers_requirements"),
        "all": reqs("frames_requirements") + reqs("widgets_requirements") + reqs("scale_requirements")
        + reqs("solvers_requirements") + ["polars>=1.0"],
    },
    python_requires=">=" + min_python,
    long_description=(here / "README.md").read_text(encoding="utf-8"),
    long_description_content_type="text/markdown",
    zip_safe=False,
    entry_points={
        "console_scripts": cfg.get("console_scripts", "").split(),
        "nbdev": [f"{cfg['lib_name']}={cfg['lib_name']}._modidx:d"],
    },
    author=cfg["author"],
    author_email=cfg["author_email"],
    description=cfg["description"],
    keywords=cfg["keywords"],
)
