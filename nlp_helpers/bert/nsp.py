"""Next-sentence prediction (NSP) data, BERT's second pre-training objective.

For every pair of consecutive sentences (A, B) in a document, BERT keeps the true
next sentence half of the time (label ``IsNext``) and otherwise replaces B with a
random sentence from a *different* document (``NotNext``); the pair is fed as
``[CLS] A [SEP] B [SEP]`` with segment ids 0 for A and 1 for B, and a classifier on
the ``[CLS]`` vector predicts the label (Devlin et al., 2019, section 3.1).
RoBERTa (Liu et al., 2019) later found that dropping NSP does not hurt, or helps.

Left out: packing several sentences per segment up to 512 tokens (BERT's
segments are text spans, not single sentences).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from nlp_helpers._checks import check_float, check_nonempty, check_text

__all__ = ["nsp_pairs"]


def nsp_pairs(
    documents: Sequence[Sequence[str]], rng: np.random.Generator, p_next: float = 0.5
) -> list[tuple[str, str, bool]]:
    """Sentence pairs ``(A, B, is_next)`` from documents given as lists of sentences.

    Each consecutive pair of every document yields one example; with probability
    ``1 - p_next`` its B is replaced by a random sentence of another document.
    """
    docs = check_nonempty("documents", documents)
    for d, doc in enumerate(docs):
        if isinstance(doc, str):
            raise TypeError(f"documents[{d}] must be a list of sentences, not a str (split it into sentences)")
        for s, sentence in enumerate(doc):
            check_text(f"documents[{d}][{s}]", sentence, allow_empty=False)
    if sum(1 for doc in docs if len(doc) > 0) < 2:
        raise ValueError("documents must contain at least 2 non-empty documents (random B comes from another one)")
    if not any(len(doc) >= 2 for doc in docs):
        raise ValueError("documents must contain a document with at least 2 sentences (for a true next sentence)")
    p_next = check_float("p_next", p_next, minimum=0.0, maximum=1.0)
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy Generator (np.random.default_rng(seed)), got {type(rng).__name__}")
    non_empty = [d for d, doc in enumerate(docs) if len(doc) > 0]
    pairs = []
    for d, doc in enumerate(docs):
        for a, b in zip(doc[:-1], doc[1:]):
            if rng.random() < p_next:
                pairs.append((a, b, True))
                continue
            other = d
            while other == d:  # a different document, so B is (almost surely) unrelated to A
                other = non_empty[rng.integers(len(non_empty))]
            pairs.append((a, docs[other][rng.integers(len(docs[other]))], False))
    return pairs
