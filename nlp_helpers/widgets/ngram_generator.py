"""``NGramGenerator``: step through the generation of a sentence by an n-gram model, word by word.

Python samples a few sentences from a fitted :class:`nlp_helpers.ngram.models.NGramLM` for each order
``n`` (with :meth:`~nlp_helpers.ngram.models.NGramLM.generate`, so they are the sentences the chapter's
sampler draws) and records, at every step, the context, the most probable next words with their
probabilities and the word that was drawn (rounded to 3 decimals: the display needs no more). The
JavaScript only draws these paths, so it works on the static page with no kernel. For the chosen order,
sample and step it shows:

* the sentence so far, the drawn word highlighted (``data-testid="ng-sentence"``);
* the context the model conditions on (``ng-context``);
* the top candidates as bars on a fixed 0-1 axis (``ng-bar-i``, attributes ``data-word`` and ``data-p``),
  the drawn word's bar highlighted, and the probability left to all other words;
* a "next word" and a "new sentence" button, a step slider (``ng-step``), an order and a sample menu
  (``ng-order``, ``ng-seed``): every control is a native, labelled, keyboard-operable element.
"""

from __future__ import annotations

from collections.abc import Sequence

import anywidget
import numpy as np
import traitlets

from nlp_helpers._checks import check_int
from nlp_helpers.ngram.models import BOS, EOS, NGramLM
from nlp_helpers.widgets.assets import load_css, load_esm

__all__ = ["NGramGenerator"]

_CSS = """
.nlpw-ngram .nlpw-ng-sentence { font-size: 1.05rem; line-height: 1.6; overflow-wrap: anywhere; }
.nlpw-ngram .nlpw-ng-sentence .ctx { text-decoration: underline; text-decoration-thickness: 2px; }
.nlpw-ngram .nlpw-ng-sentence .pick { background: #e69f00; color: #111; border-radius: 3px; padding: 0 0.2em; font-weight: 700; }
.nlpw-ngram .nlpw-ng-bars { display: grid; grid-template-columns: minmax(4em, 9em) 1fr 3.2em; gap: 0.25rem 0.5rem; align-items: center; max-width: 40rem; }
.nlpw-ngram .nlpw-ng-track { position: relative; height: 1.1rem; border: 1px solid currentColor; border-radius: 2px; }
.nlpw-ngram .nlpw-ng-fill { position: absolute; left: 0; top: 0; bottom: 0; background: #56b4e9; }
.nlpw-ngram .nlpw-ng-fill.pick { background: #e69f00; }
.nlpw-ngram .nlpw-ng-word { overflow-wrap: anywhere; text-align: right; }
.nlpw-ngram .nlpw-ng-word.pick { font-weight: 700; }
.nlpw-ngram .nlpw-ng-axis { display: flex; justify-content: space-between; font-size: 0.8rem; }
.nlpw-ngram button { min-height: 2.2rem; padding: 0.2rem 0.8rem; touch-action: manipulation; }
"""
MAX_ORDER, MAX_SENTENCES, MAX_WORDS, MAX_TOP = 4, 8, 30, 12


def _r3(x: float) -> float:
    return round(float(x), 3)


class NGramGenerator(anywidget.AnyWidget):
    """Sentences sampled from ``lm`` for each order, step by step, with the candidates at each step.

    Parameters
    ----------
    lm:
        A fitted :class:`NGramLM` (any smoothing that gives distributions; an MLE model is sampled only
        from seen n-grams, as the chapter's generator is).
    orders:
        The orders the reader can pick, each 1 to ``min(lm.n, 4)``.
    n_sentences:
        Samples per order (seeds ``seed``, ``seed + 1``, ...), 1 to 8.
    max_words:
        The longest sample, 1 to 30 words (a sample that reaches it stops without ``</s>``).
    top:
        Candidates shown per step, 1 to 12 (the drawn word is always shown, added if it is not among them).
    seed:
        The first seed (``nlp_helpers.seeds.rng`` adds ``$NLP_SEED_OFFSET``, as ``lm.generate`` does).
    """

    _esm = load_esm("ngram_generator.js")
    _css = load_css() + _CSS

    orders = traitlets.List(traitlets.Int()).tag(sync=True)
    seeds = traitlets.List(traitlets.Int()).tag(sync=True)
    paths = traitlets.Dict().tag(sync=True)  # str(order) -> one list of steps per sample
    order = traitlets.Int(1).tag(sync=True)
    sample = traitlets.Int(0).tag(sync=True)
    step = traitlets.Int(0).tag(sync=True)

    def __init__(
        self,
        lm: NGramLM,
        orders: Sequence[int] = (1, 2, 3, 4),
        *,
        n_sentences: int = 3,
        max_words: int = 20,
        top: int = 8,
        seed: int = 0,
    ) -> None:
        if not isinstance(lm, NGramLM):
            raise TypeError(f"lm must be a fitted NGramLM, got {type(lm).__name__}")
        try:
            lm.vocab
        except RuntimeError:
            raise ValueError("lm must be a fitted NGramLM: call lm.fit(sentences) first") from None
        if isinstance(orders, (str, bytes)) or not isinstance(orders, Sequence) or not orders:
            raise ValueError(f"orders must be a non-empty sequence of ints, got {orders!r}")
        top_order = min(lm.n, MAX_ORDER)
        orders = sorted({check_int("orders", o, minimum=1, maximum=top_order) for o in orders})
        n_sentences = check_int("n_sentences", n_sentences, minimum=1, maximum=MAX_SENTENCES)
        max_words = check_int("max_words", max_words, minimum=1, maximum=MAX_WORDS)
        top = check_int("top", top, minimum=1, maximum=MAX_TOP)
        seed = check_int("seed", seed, minimum=0)
        seeds = list(range(seed, seed + n_sentences))
        paths = {str(o): [self._path(lm, o, s, max_words, top) for s in seeds] for o in orders}
        super().__init__(orders=orders, seeds=seeds, paths=paths, order=orders[-1], sample=0, step=0)

    @staticmethod
    def _path(lm: NGramLM, order: int, seed: int, max_words: int, top: int) -> list[dict]:
        """The steps of one sample: context, top candidates with probabilities, the drawn word."""
        words = lm.generate(max_words, seed=seed, order=order)
        drawn = words + ([EOS] if len(words) < max_words else [])
        history, vocab, steps = [BOS] * (order - 1), lm.vocab, []
        index = {w: i for i, w in enumerate(vocab)}
        for word in drawn:
            ctx = history[len(history) - order + 1 :] if order > 1 else []
            p = lm.distribution(ctx)
            p = p / p.sum()
            best = [int(i) for i in np.argsort(-p, kind="stable")[:top]]
            pick = index[word]
            if pick not in best:
                best.append(pick)
            steps.append(
                {"c": ctx, "w": [vocab[i] for i in best], "p": [_r3(p[i]) for i in best], "s": best.index(pick)}
            )
            history.append(word)
        return steps
