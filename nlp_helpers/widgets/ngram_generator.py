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

"New sentence" (``ng-new``) draws a sentence the page has never seen, in the browser: Python also ships,
for each order, a compact table of the model (``tables``): the contexts a sentence can reach from its
start, up to ``contexts`` of them, most probable first, each with its most probable continuations (the
top ``top`` words; 300 for the unigram model) and their probabilities under the full model (4 decimals).
Continuations that lead to a context outside the table are dropped, so every walk stays inside it. The
JavaScript samples among a context's shipped continuations in proportion to their probabilities, with a
seeded PRNG (the k-th press uses seed k), so each draw is a path of the model through its likelier turns.
The full sentence shown is in the ``data-sentence`` attribute of ``ng-sentence``.
"""

from __future__ import annotations

import heapq
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
UNIGRAM_TOP = 300  # the unigram table has one context; its 300 likeliest words make varied sentences
MAX_CONTEXTS = 3000


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
    contexts:
        For "New sentence": how many contexts per order the page's table of the model may hold, 1 to 3000
        (each costs one call of ``lm.distribution`` and about 60 bytes of page).
    """

    _esm = load_esm("ngram_generator.js")
    _css = load_css() + _CSS

    orders = traitlets.List(traitlets.Int()).tag(sync=True)
    seeds = traitlets.List(traitlets.Int()).tag(sync=True)
    paths = traitlets.Dict().tag(sync=True)  # str(order) -> one list of steps per sample
    vocab = traitlets.List(traitlets.Unicode()).tag(sync=True)  # the words of the tables
    tables = traitlets.Dict().tag(sync=True)  # str(order) -> {context ids: [word ids, probabilities]}
    max_words = traitlets.Int(20).tag(sync=True)
    top = traitlets.Int(8).tag(sync=True)
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
        contexts: int = 1000,
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
        contexts = check_int("contexts", contexts, minimum=1, maximum=MAX_CONTEXTS)
        seeds = list(range(seed, seed + n_sentences))
        paths = {str(o): [self._path(lm, o, s, max_words, top) for s in seeds] for o in orders}
        vocab: dict[str, int] = {BOS: 0}
        tables = {str(o): _table(lm, o, UNIGRAM_TOP if o == 1 else top, contexts, vocab) for o in orders}
        super().__init__(
            orders=orders,
            seeds=seeds,
            paths=paths,
            vocab=list(vocab),
            tables=tables,
            max_words=max_words,
            top=top,
            order=orders[-1],
            sample=0,
            step=0,
        )

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


def _table(lm: NGramLM, order: int, k: int, budget: int, ids: dict[str, int]) -> dict[str, list[list]]:
    """The contexts reachable from a sentence start through each context's ``k`` likeliest words.

    Contexts are taken most probable first (the probability of reaching them, each step renormalised over
    the ``k`` words) until ``budget`` are in; then every continuation into a context outside the table is
    dropped, and a context left with none is dropped too, until nothing changes. Keys and words are ids
    into ``ids`` (extended in place); probabilities are the full model's, rounded to 4 decimals.
    """
    vocab = lm.vocab
    start = (BOS,) * (order - 1)
    heap, table, pushed = [(-1.0, 0, start)], {}, 1
    while heap and len(table) < budget:
        neg, _, ctx = heapq.heappop(heap)
        if ctx in table:
            continue
        p = lm.distribution(list(ctx))
        p = p / p.sum()
        best = [int(i) for i in np.argsort(-p, kind="stable")[:k] if p[i] > 0]
        table[ctx] = [(vocab[i], float(p[i])) for i in best]
        mass = sum(q for _, q in table[ctx])
        for word, q in table[ctx] if order > 1 else []:
            nxt = (*ctx, word)[1:]
            if word != EOS and nxt not in table:
                heapq.heappush(heap, (neg * q / mass, pushed, nxt))
                pushed += 1
    changed = True
    while changed:
        changed = False
        for ctx, cands in list(table.items()):
            keep = [(w, q) for w, q in cands if order == 1 or w == EOS or (*ctx, w)[1:] in table]
            if len(keep) < len(cands):
                changed = True
                if keep:
                    table[ctx] = keep
                else:
                    del table[ctx]
    out = {}
    for ctx, cands in table.items():
        key = " ".join(str(ids.setdefault(w, len(ids))) for w in ctx)
        out[key] = [[ids.setdefault(w, len(ids)) for w, _ in cands], [round(q, 4) for _, q in cands]]
    return out
