"""The install files agree with each other: what Binder/conda users get (environment.yml, postBuild)
matches what `make install` and CI get (pyproject.toml, constraints.txt, requirements-nodeps.txt)."""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

import yaml
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
ENV = yaml.safe_load((ROOT / "environment.yml").read_text())
# conda-forge names of packages whose PyPI name differs.
CONDA_TO_PYPI = {"pytorch-cpu": "torch", "matplotlib-base": "matplotlib"}


def conda_deps() -> dict[str, str]:
    deps = {}
    for dep in ENV["dependencies"]:
        if isinstance(dep, str):
            name, _, spec = re.match(r"([A-Za-z0-9_.-]+)\s*(([<>=!].*)?)", dep).groups()[0:3]
            deps[name] = spec or ""
    return deps


def pypi_requirements() -> dict[str, Requirement]:
    return {Requirement(r).name.lower(): Requirement(r) for r in PYPROJECT["project"]["dependencies"]}


def test_environment_installs_the_package_itself_and_runs_postbuild_steps():
    pip = next(d["pip"] for d in ENV["dependencies"] if isinstance(d, dict))
    assert "-e ." in pip
    post = (ROOT / "postBuild").read_text()
    assert "requirements-nodeps.txt" in post and "--no-deps" in post
    assert "nlp_helpers.data.smollm2 prepare" in post
    assert not (ROOT / "binder").exists(), "a binder/ folder would make repo2docker ignore the top-level files"


def test_python_and_torch_are_cpu_and_compatible():
    deps = conda_deps()
    assert "pytorch-cpu" in deps and "pytorch" not in deps and "cudatoolkit" not in deps
    python = deps["python"].lstrip("=")
    assert SpecifierSet(PYPROJECT["project"]["requires-python"]).contains(python + ".0")
    torch_pin = (ROOT / "constraints.txt").read_text()
    assert re.search(r"^torch==2\.13\.0$", torch_pin, re.M), "make install must pin the on-disk CPU build"
    assert pypi_requirements()["torch"].specifier.contains("2.13.0")


def test_conda_versions_satisfy_the_package_requirements():
    reqs = pypi_requirements()
    for name, spec in conda_deps().items():
        pypi = CONDA_TO_PYPI.get(name, name).lower()
        if pypi in reqs and spec.startswith(">="):
            floor = spec[2:].split(",")[0]
            assert reqs[pypi].specifier.contains(floor) or reqs[pypi].specifier.contains(floor + ".0"), (
                f"environment.yml asks {name}{spec} but pyproject.toml needs {reqs[pypi]}"
            )


def test_widgets_work_in_jupyterlab_from_the_environment():
    deps = conda_deps()
    for needed in ("jupyterlab", "ipywidgets", "anywidget", "ipykernel", "nbgitpuller"):
        assert needed in deps, f"environment.yml lacks {needed}"


def test_nodeps_requirements_are_pinned():
    lines = [
        line
        for line in (ROOT / "requirements-nodeps.txt").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert lines and all("==" in line for line in lines)


def test_every_install_route_asks_for_the_same_python():
    """pyproject, the README, the Makefile's check and environment.yml agree: Python 3.11-3.13."""
    spec = SpecifierSet(PYPROJECT["project"]["requires-python"])
    assert [v for v in ("3.10", "3.11", "3.12", "3.13", "3.14") if spec.contains(v + ".0")] == ["3.11", "3.12", "3.13"]
    assert "Python 3.11–3.13" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(3, 11) <= sys.version_info[:2] < (3, 14)" in (ROOT / "Makefile").read_text()
    assert spec.contains(conda_deps()["python"].lstrip("=") + ".0")


def test_the_book_toolchain_is_pinned():
    """tools/book_ext.py rewrites the theme's markup: Sphinx and the themes must be exact pins."""
    pins = {Requirement(r).name.lower(): Requirement(r) for r in PYPROJECT["project"]["optional-dependencies"]["book"]}
    for name in ("sphinx", "sphinx-book-theme", "pydata-sphinx-theme", "jupyter-book", "myst-nb"):
        assert str(pins[name].specifier).startswith("=="), f"{name} must be pinned exactly, got {pins[name]}"


def test_every_data_file_of_the_package_goes_into_the_wheel():
    """A stored study or data file the wheel leaves out works here and fails on Colab (step 2 of CI)."""
    globs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["nlp_helpers"]
    tracked = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "nlp_helpers"], cwd=ROOT, capture_output=True, text=True
    ).stdout.split()
    data = [Path(f).relative_to("nlp_helpers").as_posix() for f in tracked if not f.endswith((".py", ".pyc"))]
    # setuptools' globs: "*" stays inside one folder
    patterns = [re.compile(re.escape(g).replace(r"\*", "[^/]*") + "$") for g in globs]
    left_out = [f for f in data if not any(p.match(f) for p in patterns)]
    assert data and not left_out, f"not in [tool.setuptools.package-data] of pyproject.toml: {left_out}"
