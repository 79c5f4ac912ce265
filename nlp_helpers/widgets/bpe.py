"""``BPEStepper``: step through the merges of a BPE model and watch a text's tokens grow.

Python validates the text and the merge list and ships them (the text already
split into BPE chunks by :func:`nlp_helpers.tokenization.bpe.pretokenize`). ``bpe.js`` replays
the merges itself, so the slider works on the static page with no kernel. For
slider position ``k`` it shows:

* the tokens after the first ``k`` merges as chips (``data-testid="bpe-tokens"``,
  each chip's ``textContent`` is the exact token, spaces included);
* the merge applied at this step and how often it fires in the text
  (``data-testid="bpe-merge"``) and the token count (``data-testid="bpe-count"``);
* the list of all merges in a ``<details>`` table, the text alternative.

``tests/golden/bpe_widget.json`` holds :meth:`BPEStepper.state` for the chapter's
text at a few slider positions; the browser test moves the slider and compares.
"""

from __future__ import annotations

from collections.abc import Sequence

import anywidget
import traitlets

from nlp_helpers._checks import check_int, check_text
from nlp_helpers.tokenization.bpe import BPE, check_merges, merge_pair, pretokenize
from nlp_helpers.widgets.assets import load_css, load_esm

__all__ = ["BPEStepper"]

_BPE_CSS = """
.nlpw-bpe .nlpw-bpe-tokens { line-height: 1.9; margin: 0.4rem 0; }
.nlpw-bpe tr[aria-current="step"] { outline: 2px solid var(--pst-color-primary, #0072b2); font-weight: 600; }
.nlpw-bpe details > table { display: block; max-height: 18rem; overflow-y: auto; }
.nlpw-bpe button { padding: 0.1rem 0.6rem; }
.nlpw-bpe .nlpw-bpe-controls { flex-direction: column; align-items: stretch; gap: 0.4rem; }
.nlpw-bpe .nlpw-bpe-slider { width: 100%; flex-wrap: wrap; }
.nlpw-bpe .nlpw-bpe-slider input[type="range"] { flex: 1 1 12rem; min-width: 10rem; }
.nlpw-bpe .nlpw-bpe-slider output { min-width: 13ch; }
.nlpw-bpe .nlpw-bpe-buttons { display: flex; flex-wrap: wrap; gap: 0.5rem; }
.nlpw-bpe .nlpw-space { position: relative; }
.nlpw-bpe .nlpw-space::after { content: "␣"; position: absolute; left: 0; right: 0; text-align: center; opacity: 0.75; }
"""
MAX_MERGES = 2000  # the JS keeps one segmentation per step; more would be slow to step through anyway


class BPEStepper(anywidget.AnyWidget):
    """A slider over the merges of a BPE model, showing the segmentation of ``text`` after each step.

    Parameters
    ----------
    text:
        The text to segment (non-empty; at most 2000 characters so the page stays light).
    merges:
        The ordered merge list, e.g. ``BPE.train(...).merges``; each part must be a
        character or the result of an earlier merge.
    step:
        Initial slider position (number of merges applied), default 0.
    """

    _esm = load_esm("bpe.js")
    _css = load_css() + _BPE_CSS

    chunks = traitlets.List(traitlets.Unicode()).tag(sync=True)
    merges = traitlets.List(traitlets.List(traitlets.Unicode())).tag(sync=True)
    step = traitlets.Int(0).tag(sync=True)

    def __init__(self, text: str, merges: Sequence[tuple[str, str]], *, step: int = 0) -> None:
        text = check_text("text", text, allow_empty=False)
        if len(text) > 2000:
            raise ValueError(f"text must be at most 2000 characters for the widget, got {len(text)}")
        pairs = check_merges(merges)
        if len(pairs) > MAX_MERGES:
            raise ValueError(f"merges must hold at most {MAX_MERGES} merges for the widget, got {len(pairs)}")
        BPE(pairs, alphabet=set(text) | {ch for p in pairs for part in p for ch in part})  # checks merge order
        step = check_int("step", step, minimum=0, maximum=len(pairs))
        super().__init__(chunks=pretokenize(text), merges=[list(p) for p in pairs], step=step)

    @classmethod
    def from_bpe(cls, bpe: BPE, text: str, *, num_merges: int | None = None, step: int = 0) -> BPEStepper:
        """A stepper over the first ``num_merges`` merges (default all) of a trained :class:`~nlp_helpers.tokenization.bpe.BPE`."""
        if not isinstance(bpe, BPE):
            raise TypeError(f"bpe must be a trained nlp_helpers.tokenization.bpe.BPE, got {type(bpe).__name__}")
        n = (
            len(bpe.merges)
            if num_merges is None
            else check_int("num_merges", num_merges, minimum=0, maximum=len(bpe.merges))
        )
        return cls(text, bpe.merges[:n], step=step)

    @property
    def text(self) -> str:
        return "".join(self.chunks)

    def __repr__(self) -> str:
        # The plain-text form of the widget (shown where widgets cannot render): no object address.
        text = self.text if len(self.text) <= 40 else self.text[:37] + "..."
        return f"BPEStepper(text={text!r}, merges={len(self.merges)}, step={self.step})"

    def state(self, step: int | None = None) -> dict:
        """What the widget shows at slider position ``step`` (default: the current one).

        Returns ``{"step", "tokens", "token_count", "merge", "merge_count"}`` where
        ``merge`` is ``[left, right]`` of the merge applied at this step (``None`` at
        step 0) and ``merge_count`` how many times it fired in the text.
        """
        step = check_int("step", self.step if step is None else step, minimum=0, maximum=len(self.merges))
        chunks = [list(c) for c in self.chunks]
        fired = 0
        for left, right in self.merges[:step]:
            before = sum(len(c) for c in chunks)
            chunks = [merge_pair(c, (left, right), left + right) for c in chunks]
            fired = before - sum(len(c) for c in chunks)
        tokens = [t for c in chunks for t in c]
        merge = list(self.merges[step - 1]) if step else None
        return {
            "step": step,
            "tokens": tokens,
            "token_count": len(tokens),
            "merge": merge,
            "merge_count": fired if step else 0,
        }
