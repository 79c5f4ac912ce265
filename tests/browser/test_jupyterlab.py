"""The Binder/JupyterHub path: JupyterLab from the book's environment serves a chapter-style
notebook, runs a widget cell with a live kernel, and the widget renders and reacts.

repo2docker cannot run here (no Docker engine), so this tests what it would serve: the same
packages (`pyproject.toml`, installed as `environment.yml`'s `-e .` does) under JupyterLab.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def lab_url(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(
            "import numpy as np\n"
            "from nlp_helpers.widgets.attention import AttentionExplorer\n"
            "w = np.array([[1.0, 0.0, 0.0], [0.5, 0.5, 0.0], [0.2, 0.3, 0.5]])\n"
            "display(AttentionExplorer(['the', 'cat', '<img src=x onerror=alert(1)>'], w))\n"
            "from nlp_helpers.widgets.quick_check import Choice, QuickCheck\n"
            "QuickCheck('lab-check', [Choice('Which?', options=['a', 'b'], answer=1, feedback=['not a', 'b it is'])])"
        )
    ]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, tmp_path / "widget_check.ipynb")
    port = _free_port()
    env = {**os.environ, "JUPYTER_PLATFORM_DIRS": "1", "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [
            str(BIN / "jupyter-lab"),
            "--no-browser",
            f"--port={port}",
            "--ServerApp.ip=127.0.0.1",
            "--IdentityProvider.token=",
            "--ServerApp.password=",
            "--allow-root",
            f"--ServerApp.root_dir={tmp_path}",
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:  # the server is up once its port accepts connections (on this machine only)
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.5)
        else:
            pytest.fail("JupyterLab did not start within 60 s")
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_widget_runs_in_jupyterlab(browser, lab_url):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(f"{lab_url}/lab/tree/widget_check.ipynb", wait_until="load")
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=60_000)
    # Wait until the kernel is connected and idle, then run the cell (retry once if the
    # key press raced the kernel start-up and nothing was queued).
    page.get_by_text(re.compile(r"^Python 3.* \| Idle$")).wait_for(timeout=60_000)
    for _attempt in range(2):
        page.locator(".jp-Notebook .jp-Cell .jp-InputArea-editor").first.click()
        page.keyboard.press("Shift+Enter")
        try:
            page.wait_for_selector(".jp-Cell .jp-InputPrompt:has-text('[1]')", timeout=30_000)
            break
        except Exception:
            continue
    root = page.locator("[data-testid='attn-root']")
    try:
        root.wait_for(timeout=60_000)
    except Exception:
        page.screenshot(path="/tmp/lab_fail.png")
        raise
    # The malicious token is shown as text, never executed.
    assert page.get_by_text("<img src=x onerror=alert(1)>").count() >= 1
    # A quick check is judged in the notebook too (by its JavaScript, as on the static page).
    check = page.locator(".nlpw-qc fieldset.quick-check")
    check.wait_for(timeout=30_000)
    check.locator("label.qc-option").nth(0).click()
    assert check.locator("[data-testid='qc-feedback']").get_attribute("data-verdict") == "wrong"
    check.locator("label.qc-option").nth(1).click()
    assert check.locator("[data-testid='qc-feedback']").get_attribute("data-verdict") == "right"
    assert dialogs == []
    context.close()
