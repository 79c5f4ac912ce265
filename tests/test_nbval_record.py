"""tools/nbval_record.py against nbclient (what Jupyter Book executes notebooks with), on one small notebook.

CI builds the book from the outputs nbval recorded, instead of executing every notebook again. That is
only right if the recorded notebook is what nbclient would have written: the same outputs cell by cell,
the same widget state, and a cache entry the build finds. Each test here would fail if it were not.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from tools import execute_book, nbval_record

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
CELLS = [
    'print("hello")\nprint("world")',
    "from IPython.display import Markdown, display\ndisplay(Markdown('**bold**'))\n6 * 7",
    "import ipywidgets as w\nslider = w.IntSlider(value=3, description='k')\ndisplay(slider)",
    "slider.value = 5  # a state update after display: the recorded state must say 5",
    "import sys\nprint('to stderr', file=sys.stderr)\nprint('to stdout')",
    "answer = 6 * 7\nanswer;  # a trailing semicolon hides the value, as in Jupyter",
    "_",  # the last value shown (42 from the second cell): history is kept, as in Jupyter
]


def _notebook() -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# A page")]
    nb.cells += [nbformat.v4.new_code_cell(src) for src in CELLS]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return nb


def _environment() -> dict[str, str]:
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTEST_XDIST_WORKER", None)
    return env


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    folder = tmp_path_factory.mktemp("nbval_record")
    (folder / "book").mkdir()
    page = folder / "book" / "page.ipynb"
    nbformat.write(_notebook(), str(page))
    shutil.copy(ROOT / "tools" / "nbval_record.py", folder / "conftest.py")
    record = folder / "executed"
    env = _environment() | {nbval_record.RECORD_ENV: str(record)}
    cmd = [sys.executable, "-m", "pytest", "--nbval-lax", "-q", "-p", "no:cacheprovider", "--rootdir", str(folder)]
    done = subprocess.run([*cmd, "book/page.ipynb"], cwd=folder, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    reference = _notebook()
    NotebookClient(reference, kernel_name="python3", resources={"metadata": {"path": str(folder)}}).execute()
    return {"folder": folder, "recorded": nbformat.read(str(record / "book" / "page.ipynb"), 4), "reference": reference}


def _comparable(output: dict) -> dict:
    """An output without what differs between two runs of the same code: counts, widget model ids."""
    out = {k: v for k, v in output.items() if k != "execution_count"}
    data = dict(out.get("data", {}))
    if "application/vnd.jupyter.widget-view+json" in data:
        view = dict(data["application/vnd.jupyter.widget-view+json"])
        view.pop("model_id")
        data["application/vnd.jupyter.widget-view+json"] = view
    if data:
        out["data"] = data
    return out


def test_outputs_equal_nbclients_cell_by_cell(runs: dict) -> None:
    recorded, reference = runs["recorded"], runs["reference"]
    assert [c.cell_type for c in recorded.cells] == [c.cell_type for c in reference.cells]
    for got, want in zip(recorded.cells, reference.cells):
        if want.cell_type == "code":
            assert [_comparable(o) for o in got.outputs] == [_comparable(o) for o in want.outputs], want.source
    assert recorded.cells[1].outputs[0]["text"] == "hello\nworld\n"  # two prints, one merged stream
    assert [c.execution_count for c in recorded.cells[1:]] == [1, 2, 3, 4, 5, 6, 7]
    assert recorded.cells[6].outputs == []
    assert recorded.cells[7].outputs[0]["data"]["text/plain"] == "42"


def test_widget_state_equals_nbclients(runs: dict) -> None:
    def by_model(nb: nbformat.NotebookNode) -> dict:
        state = nb.metadata["widgets"][nbval_record.WIDGET_STATE]["state"]
        return {w["model_name"]: w["state"] for w in state.values()}

    got, want = by_model(runs["recorded"]), by_model(runs["reference"])
    assert got.keys() == want.keys() and "IntSliderModel" in got
    assert got["IntSliderModel"]["value"] == want["IntSliderModel"]["value"] == 5
    # the view in the output points at a model the state holds
    view = runs["recorded"].cells[3].outputs[0]["data"]["application/vnd.jupyter.widget-view+json"]
    assert view["model_id"] in runs["recorded"].metadata["widgets"][nbval_record.WIDGET_STATE]["state"]


def test_the_build_cache_finds_the_recorded_notebook(runs: dict, tmp_path: Path, monkeypatch) -> None:
    root = runs["folder"]
    monkeypatch.setattr(execute_book, "ROOT", root)
    monkeypatch.setattr(execute_book, "CACHE", tmp_path / "cache")
    page = root / "book" / "page.ipynb"
    assert execute_book.cache_recorded([page], root / "executed") == 0
    cache = execute_book.get_cache(str(tmp_path / "cache"))
    _, merged = cache.merge_match_into_notebook(nbformat.read(str(page), 4))
    assert merged.cells[2].outputs[-1]["data"]["text/plain"] == "42"
    assert "widgets" in merged.metadata


def test_a_changed_or_missing_notebook_is_an_error(runs: dict, tmp_path: Path, monkeypatch, capsys) -> None:
    root = tmp_path / "repo"
    (root / "book").mkdir(parents=True)
    changed = _notebook()
    changed.cells[1].source = 'print("changed")'
    nbformat.write(changed, str(root / "book" / "page.ipynb"))
    nbformat.write(_notebook(), str(root / "book" / "other.ipynb"))
    monkeypatch.setattr(execute_book, "ROOT", root)
    monkeypatch.setattr(execute_book, "CACHE", tmp_path / "cache")
    pages = [root / "book" / "page.ipynb", root / "book" / "other.ipynb"]
    assert execute_book.cache_recorded(pages, runs["folder"] / "executed") == 1
    err = capsys.readouterr().err
    assert "book/page.ipynb: the executed copy's code differs" in err
    assert "book/other.ipynb: no executed copy" in err


def test_a_failing_notebook_is_not_recorded(tmp_path: Path) -> None:
    nb = _notebook()
    nb.cells.append(nbformat.v4.new_code_cell("raise ValueError('broken page')"))
    nbformat.write(nb, str(tmp_path / "bad.ipynb"))
    shutil.copy(ROOT / "tools" / "nbval_record.py", tmp_path / "conftest.py")
    env = _environment() | {nbval_record.RECORD_ENV: str(tmp_path / "executed")}
    cmd = [sys.executable, "-m", "pytest", "--nbval-lax", "-q", "-p", "no:cacheprovider", "bad.ipynb"]
    done = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode != 0
    assert not (tmp_path / "executed" / "bad.ipynb").exists()


def test_a_kernel_that_dies_while_starting_is_started_again() -> None:
    calls: list[int] = []

    def dies_twice(*args, **kwargs):
        calls.append(1)
        if len(calls) < 3:
            raise RuntimeError("Kernel died before replying to kernel_info")
        return "km", "kc"

    assert nbval_record.retrying_kernel_start(dies_twice)(kernel_name="python3") == ("km", "kc")
    assert len(calls) == 3
    calls.clear()
    with pytest.raises(RuntimeError, match="kernel_info"):
        nbval_record.retrying_kernel_start(dies_twice, attempts=2)()
    assert len(calls) == 2
    with pytest.raises(ValueError, match="attempts"):
        nbval_record.retrying_kernel_start(dies_twice, attempts=0)


def test_the_plugin_makes_nbval_retry_its_kernel_start() -> None:
    import nbval.kernel

    config = type("Config", (), {"pluginmanager": type("PM", (), {"has_plugin": lambda self, n: True})()})()
    original = nbval.kernel.start_new_kernel
    try:
        nbval_record.pytest_configure(config)
        assert nbval.kernel.start_new_kernel.retries == 3
    finally:
        nbval.kernel.start_new_kernel = original
