"""``nlp_helpers.display.glue`` writes exactly what myst-nb's own ``glue`` writes (which the build reads)."""

from __future__ import annotations

import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output
from myst_nb import glue as myst_glue

from nlp_helpers.display import glue


def _outputs(fn, *args, **kwargs):
    InteractiveShell.instance()  # as in a notebook kernel: display() goes to the shell's publisher
    with capture_output() as captured:
        fn(*args, **kwargs)
    return [(o.data, o.metadata) for o in captured.outputs]


@pytest.mark.parametrize("value", [142, 0.7734, "Paris", [1, 2]])
@pytest.mark.parametrize("display", [False, True])
def test_glue_matches_myst_nb(value, display):
    assert _outputs(glue, "x", value, display=display) == _outputs(myst_glue, "x", value, display=display)


def test_hidden_glue_shows_nothing_in_a_live_notebook():
    ((data, metadata),) = _outputs(glue, "n_words", 142)
    assert all(mime.startswith("application/papermill.record/") for mime in data)
    assert metadata["scrapbook"]["name"] == "n_words"


@pytest.mark.parametrize(
    ("name", "display", "error"),
    [("", False, ValueError), ("a b", False, ValueError), (3, False, ValueError), ("ok", "yes", TypeError)],
)
def test_bad_arguments_are_named(name, display, error):
    with pytest.raises(error, match="name|display"):
        glue(name, 1, display=display)


def test_numpy_scalars_are_glued_as_the_python_numbers_they_hold():
    """numpy 2 writes np.float64(0.5) as its text form, which {glue:text}`x:.2f` cannot format."""
    import numpy as np

    for value, plain in [(np.float64(0.9240057), 0.9240057), (np.int64(142), 142), (np.float32(0.5), 0.5)]:
        ((data, _),) = _outputs(glue, "x", value)
        assert data["application/papermill.record/text/plain"] == repr(plain)


def test_hide_progress_follows_the_build_environment(monkeypatch):
    from nlp_helpers.display import hide_progress

    for name in ("NLP_BOOK_BUILD", "TQDM_DISABLE"):
        monkeypatch.delenv(name, raising=False)
    assert hide_progress() is False
    monkeypatch.setenv("NLP_BOOK_BUILD", "1")
    assert hide_progress() is True
    monkeypatch.delenv("NLP_BOOK_BUILD")
    monkeypatch.setenv("TQDM_DISABLE", "1")
    assert hide_progress() is True
    monkeypatch.setenv("TQDM_DISABLE", "0")
    assert hide_progress() is False
