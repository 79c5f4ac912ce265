"""Run a widget's JavaScript under Node with the tiny DOM of ``widget_dom.mjs`` (no browser needed).

A fast smoke test of the drawing code; the browser tests check the real built pages.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

NODE_DOM = Path(__file__).with_name("widget_dom.mjs")


def node_binary() -> str:
    """Path of ``node``; skips the calling test if Node.js is not installed."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    return node


def run_widget_js(esm: str, state: dict[str, Any], actions: list[dict], tmp_path: Path) -> dict:
    """Render ``esm`` with a fake model holding ``state``, apply ``actions``, return every data-testid element."""
    (tmp_path / "w.mjs").write_text(esm, encoding="utf-8")
    (tmp_path / "s.json").write_text(json.dumps(state), encoding="utf-8")
    (tmp_path / "a.json").write_text(json.dumps(actions), encoding="utf-8")
    run = subprocess.run(
        [node_binary(), str(NODE_DOM), str(tmp_path / "w.mjs"), str(tmp_path / "s.json"), str(tmp_path / "a.json")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)
