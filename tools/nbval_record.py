"""A pytest plugin that keeps what nbval's kernels produced, so the book is built from the run that tested it.

CI executes every notebook once: nbval runs each one top to bottom in a fresh kernel and fails on any
error (and, with ``NLP_EXERCISES_STRICT=1``, on any exercise solution its checker rejects). nbval reads
every output of every cell to do that, then throws them away. With ``NBVAL_RECORD_DIR`` set, this plugin
writes each notebook whose cells all passed, with those outputs, to ``$NBVAL_RECORD_DIR/<its path relative
to pytest's rootdir>``, the way ``nbclient`` (what Jupyter Book executes with) would have written it:

- every code cell's outputs (streams merged as nbval merges them) and an execution count;
- the state of every widget the kernel created (``metadata.widgets``, the
  ``application/vnd.jupyter.widget-state+json`` the built page renders widgets from), taken from the
  kernel's ``comm_open`` / ``comm_msg`` messages, binary buffers included;
- ``metadata.nbval_record.execution_seconds``: the notebook's wall time, first cell to last.

nbval sends each cell with ``store_history=False``; IPython then cannot see a cell's last line, so a
trailing ``;`` no longer hides the cell's value (``ax.legend();`` prints ``<matplotlib.legend.Legend at
0x…>``), and ``_`` and ``Out`` stay empty. With the plugin active, cells are sent as Jupyter and nbclient
send them (``store_history=True``): the notebook is tested the way a reader runs it.

``tools/execute_book.py --from DIR`` puts these notebooks into the build's execution cache, so
``jupyter-book build`` renders them instead of executing every notebook a second time.

It also retries a kernel that dies while starting (``retrying_kernel_start``).

Use: copy this file as ``conftest.py`` into the folder nbval runs from (``tools/run_tests.sh`` does), or
load it with ``-p``. Without ``NBVAL_RECORD_DIR`` it records nothing. It only imports pytest, nbformat and
nbval, so it runs in the Colab-style venv, which has no copy of this repository's ``tools``.
"""

from __future__ import annotations

import base64
import copy
import os
import time
from pathlib import Path
from typing import Any

import nbformat
import pytest

RECORD_ENV = "NBVAL_RECORD_DIR"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


class _Run:
    """What one notebook's kernel produced so far."""

    def __init__(self) -> None:
        self.outputs: dict[int, list[Any]] = {}  # id(cell) -> outputs
        self.widgets: dict[str, dict[str, Any]] = {}  # comm id -> widget state
        self.buffers: dict[str, dict[tuple[Any, ...], dict[str, Any]]] = {}
        self.failed = False
        self.started: float | None = None


def _observe(run: _Run, msg: dict[str, Any]) -> None:
    """Fold a kernel message into the widget state, as nbclient's ``handle_comm_msg`` does."""
    if msg.get("msg_type") not in ("comm_open", "comm_msg"):
        return
    content = msg.get("content", {})
    data = content.get("data", {})
    if "state" not in data:  # a custom message, not a state update
        return
    comm_id = content["comm_id"]
    run.widgets.setdefault(comm_id, {}).update(data["state"])
    for path, buffer in zip(data.get("buffer_paths") or [], msg.get("buffers") or []):
        encoded = base64.b64encode(bytes(buffer)).decode("ascii")
        run.buffers.setdefault(comm_id, {})[tuple(path)] = {"data": encoded, "encoding": "base64", "path": path}


def _widget_metadata(run: _Run) -> dict[str, Any]:
    state = {}
    for comm_id, values in run.widgets.items():
        if "_model_name" not in values:
            continue
        entry = {
            "model_name": values.get("_model_name"),
            "model_module": values.get("_model_module"),
            "model_module_version": values.get("_model_module_version"),
            "state": values,
        }
        if run.buffers.get(comm_id):
            entry["buffers"] = list(run.buffers[comm_id].values())
        state[comm_id] = entry
    return {WIDGET_STATE: {"state": state, "version_major": 2, "version_minor": 0}}


class _Recorder:
    def __init__(self, directory: Path, root: Path) -> None:
        self.directory = directory
        self.root = root
        self.runs: dict[int, _Run] = {}  # id(IPyNbFile) -> run

    def run_of(self, nb_file: Any) -> _Run:
        return self.runs.setdefault(id(nb_file), _Run())

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item: Any, call: Any):  # noqa: ANN201 (a hook wrapper)
        outcome = yield
        if not _is_cell(item):
            return
        run = self.run_of(item.parent)
        report = outcome.get_result()
        if call.when == "setup" and run.started is None:
            run.started = time.perf_counter()
        if report.failed or report.skipped:
            run.failed = True
        if call.when == "call" and item.test_outputs is not None:
            run.outputs[id(item.cell)] = copy.deepcopy(item.test_outputs)

    def pytest_runtest_teardown(self, item: Any, nextitem: Any) -> None:
        if not _is_cell(item) or (nextitem is not None and nextitem.parent is item.parent):
            return
        run = self.runs.pop(id(item.parent), None)
        if run is not None and not run.failed:
            self._write(item.parent, run)

    def _write(self, nb_file: Any, run: _Run) -> None:
        nb = copy.deepcopy(nb_file.nb)
        count = 0
        for cell, original in zip(nb.cells, nb_file.nb.cells):
            if cell.cell_type != "code":
                continue
            outputs = run.outputs.get(id(original))
            if outputs is None:  # not executed: the notebook is not complete, so write nothing
                return
            count += 1
            cell.outputs = [nbformat.from_dict(dict(out)) for out in outputs]
            cell.execution_count = count
        if run.widgets:
            nb.metadata["widgets"] = _widget_metadata(run)
        seconds = time.perf_counter() - run.started if run.started is not None else None
        nb.metadata["nbval_record"] = {"execution_seconds": seconds}
        target = self.directory / Path(str(nb_file.fspath)).resolve().relative_to(self.root)
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, str(target))


def _is_cell(item: Any) -> bool:
    return type(item).__name__ == "IPyNbCell" and hasattr(item, "test_outputs")


def retrying_kernel_start(start: Any, attempts: int = 3) -> Any:
    """``start`` (nbval's ``start_new_kernel``) tried up to ``attempts`` times while it raises RuntimeError.

    jupyter_client picks free TCP ports, closes them and hands them to the new kernel; a kernel that another
    test worker starts at the same moment can take one of them first, and the new kernel dies before it
    replies ("Kernel died before replying to kernel_info", jupyter/jupyter_client#154: seen here once in
    about 1,400 kernel starts). nbval shuts the dead kernel down before it raises; each attempt picks new ports.
    """
    if isinstance(attempts, bool) or not isinstance(attempts, int) or attempts < 1:
        raise ValueError(f"attempts: expected a positive int, got {attempts!r}")

    def start_new_kernel(*args: Any, **kwargs: Any) -> Any:
        for attempt in range(1, attempts + 1):
            try:
                return start(*args, **kwargs)
            except RuntimeError:
                if attempt == attempts:
                    raise

    start_new_kernel.retries = attempts
    return start_new_kernel


def pytest_configure(config: Any) -> None:
    import nbval.kernel

    if not hasattr(nbval.kernel.start_new_kernel, "retries"):  # always, recording or not
        nbval.kernel.start_new_kernel = retrying_kernel_start(nbval.kernel.start_new_kernel)
    directory = os.environ.get(RECORD_ENV)
    if not directory or config.pluginmanager.has_plugin("nbval-record"):
        return
    from nbval.kernel import RunningKernel
    from nbval.plugin import IPyNbFile

    recorder = _Recorder(Path(directory).resolve(), Path(str(config.rootpath)).resolve())
    original = IPyNbFile.get_kernel_message

    def get_kernel_message(self: Any, timeout: float | None = None, stream: str = "iopub") -> Any:
        msg = original(self, timeout=timeout, stream=stream)
        if stream == "iopub":
            _observe(recorder.run_of(self), msg)
        return msg

    def execute_cell_input(self: Any, cell_input: str, allow_stdin: bool | None = None) -> str:
        return self.kc.execute(cell_input, store_history=True, allow_stdin=allow_stdin, stop_on_error=False)

    IPyNbFile.get_kernel_message = get_kernel_message
    RunningKernel.execute_cell_input = execute_cell_input
    config.pluginmanager.register(recorder, "nbval-record")
