"""``ViterbiTrellis``: step through the Viterbi algorithm word by word and see why each cell won.

Python checks the model (start, transition and emission log scores, ``-inf`` allowed for impossible
events) and ships it; ``viterbi.js`` runs the recursion itself, so it works on the static page with no
kernel. For slider position ``t`` it shows:

* the trellis ``v_t(j)`` for the first ``t`` words, as probabilities (``data-testid="vt-cell-t-j"``,
  attribute ``data-log`` the log score), with each cell's back-pointer drawn to the cell it came from;
* after the last word, the best path, traced back and outlined (``data-testid="vt-path"`` lists it);
* for a chosen cell (click or keyboard), the candidates ``v_{t-1}(i) + log a_ij + log b_j(w_t)`` for
  every previous tag ``i``, the winner marked (``data-testid="vt-candidates"``);
* the trellis as a table in a ``<details>``, the text alternative.

``tests/golden/viterbi_widget.json`` holds the trellis and path of the tagging chapter's example,
computed by :func:`nlp_helpers.tagging.viterbi.viterbi_trellis`; the tests replay the JavaScript against it.
"""

from __future__ import annotations

from collections.abc import Sequence

import anywidget
import numpy as np
import traitlets

from nlp_helpers._checks import check_array, check_int, check_nonempty, check_text
from nlp_helpers.widgets.assets import load_css, load_esm

__all__ = ["ViterbiTrellis"]

_CSS = """
.nlpw-viterbi .nlpw-vt-cell { cursor: pointer; }
.nlpw-viterbi .nlpw-vt-cell:focus-visible rect { stroke: var(--pst-color-primary, #0072b2); stroke-width: 3; }
.nlpw-viterbi table.nlpw-vt-cands td.win { font-weight: 700; }
"""
MAX_WORDS, MAX_TAGS = 12, 20  # the trellis must stay readable in the text column


def _none_to_minus_inf(values):
    if isinstance(values, (list, tuple)):
        return [_none_to_minus_inf(v) for v in values]
    return -np.inf if values is None else values


def _json_scores(name: str, values, shape: tuple[int, ...]) -> list:
    """Check log scores (finite or -inf; None also means -inf) and turn -inf into None, which JSON can carry."""
    arr = check_array(name, _none_to_minus_inf(values), shape=shape, finite=False)
    if np.isnan(arr).any() or np.isposinf(arr).any():
        raise ValueError(f"{name} must hold log scores: finite numbers or -inf, not NaN or +inf")
    return np.where(np.isneginf(arr), None, arr).tolist()


class ViterbiTrellis(anywidget.AnyWidget):
    """The Viterbi trellis of one sentence under a first-order tagging model.

    Parameters
    ----------
    words:
        The sentence, 1 to 12 words.
    tags:
        The tag names, 1 to 20 of them (the rows of the trellis).
    log_start, log_trans, log_emissions:
        Log scores of shape (K,), (K, K) with rows the previous tag, and (T, K); ``-inf`` marks an
        impossible start, transition or emission (an HMM's zero probabilities).
    step:
        Initial slider position: how many words are filled in (default all of them).
    """

    _esm = load_esm("viterbi.js")
    _css = load_css() + _CSS

    words = traitlets.List(traitlets.Unicode()).tag(sync=True)
    tags = traitlets.List(traitlets.Unicode()).tag(sync=True)
    log_start = traitlets.List().tag(sync=True)
    log_trans = traitlets.List().tag(sync=True)
    log_emissions = traitlets.List().tag(sync=True)
    step = traitlets.Int(1).tag(sync=True)

    def __init__(
        self,
        words: Sequence[str],
        tags: Sequence[str],
        log_start,
        log_trans,
        log_emissions,
        *,
        step: int | None = None,
    ) -> None:
        words = [check_text(f"words[{i}]", w, allow_empty=False) for i, w in enumerate(check_nonempty("words", words))]
        tags = [check_text(f"tags[{i}]", t, allow_empty=False) for i, t in enumerate(check_nonempty("tags", tags))]
        if len(words) > MAX_WORDS or len(tags) > MAX_TAGS:
            raise ValueError(
                f"words and tags must have at most {MAX_WORDS} and {MAX_TAGS} entries for a readable trellis, "
                f"got {len(words)} and {len(tags)}"
            )
        T, K = len(words), len(tags)
        step = T if step is None else check_int("step", step, minimum=1, maximum=T)
        super().__init__(
            words=words,
            tags=tags,
            log_start=_json_scores("log_start", log_start, (K,)),
            log_trans=_json_scores("log_trans", log_trans, (K, K)),
            log_emissions=_json_scores("log_emissions", log_emissions, (T, K)),
            step=step,
        )
