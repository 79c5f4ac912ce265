"""Catalogue of the BERT chapter's exercises: requirements, correct answers in several styles (accepted)
and typical wrong answers (rejected with a hint naming the mistake).

* ``greedy_wordpiece``: longest match first; ``##`` on continuation pieces; ``["[UNK]"]`` for the whole word.
* ``apply_80_10_10``: u < 0.8 -> mask, 0.8 <= u < 0.9 -> random id, otherwise kept; only selected
  positions change; a new array (ids unchanged).
* ``masked_mean``: divide by the number of real tokens, not T; padding never counts, even inf.
* ``c_tf_idf_scores``: row-normalised tf times ln(1 + mean words per class / tf_w), natural log.
* ``answer_span``: maximise start_i + end_j jointly with i <= j, both allowed, j - i + 1 <= max_len, ties
  to the smallest i then j.
"""

from __future__ import annotations

import numpy as np

from nlp_helpers.bert import exercises as ex
from tests.bert.test_bert_exercises import (
    corrupt_ignores_selection,
    corrupt_in_place,
    corrupt_ok,
    corrupt_one_position_loop,
    corrupt_wrong_boundary,
    ctfidf_global_normalisation,
    ctfidf_log10,
    ctfidf_ok,
    ctfidf_raw_tf,
    mean_divides_by_T,
    mean_ignores_mask,
    mean_ok,
    span_ignores_allowed,
    span_max_len_off_by_one,
    span_ok,
    span_separate_argmax,
    wp_no_hashes,
    wp_ok,
    wp_partial_unk,
    wp_shortest_first,
)
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test


def wp_recursive(word, vocab, first=True):
    if not word:
        return []
    for end in range(len(word), 0, -1):
        piece = word[:end] if first else "##" + word[:end]
        if piece in vocab:
            rest = wp_recursive(word[end:], vocab, first=False)
            return ["[UNK]"] if rest == ["[UNK]"] else [piece, *rest]
    return ["[UNK]"]


def corrupt_np_select(ids, selected, u, random_ids, mask_id):
    return np.select([selected & (u < 0.8), selected & (u < 0.9)], [mask_id, random_ids], default=ids)


def mean_einsum(hidden, mask):
    m = np.asarray(mask, dtype=bool)
    safe = np.where(m[..., None], hidden, 0.0)
    return safe.sum(1) / m.sum(1, keepdims=True)


def mean_multiplies_by_mask(hidden, mask):  # inf * 0 = nan for huge padding values
    m = np.asarray(mask, dtype=float)[..., None]
    with np.errstate(invalid="ignore"):
        return (hidden * m).sum(1) / m.sum(1)


def ctfidf_loops(counts):
    counts = np.asarray(counts, dtype=float)
    C, V = counts.shape
    avg = counts.sum() / C
    out = np.zeros((C, V))
    for w in range(V):
        weight = np.log(1 + avg / counts[:, w].sum())
        for c in range(C):
            out[c, w] = counts[c, w] / counts[c].sum() * weight
    return out


def span_loops(start, end, allowed, max_len):
    best, best_score = None, -np.inf
    for i in range(len(start)):
        for j in range(i, min(len(end), i + max_len)):
            if allowed[i] and allowed[j] and start[i] + end[j] > best_score:
                best, best_score = (i, j), start[i] + end[j]
    return best


CATALOGUE = {
    ex.check_greedy_wordpiece: Catalogue(
        correct=[wp_ok, wp_recursive],
        wrong=[
            Wrong(wp_partial_unk, "whole word"),
            Wrong(wp_shortest_first, "longest"),
            Wrong(wp_no_hashes, "'##"),
        ],
    ),
    ex.check_corrupt: Catalogue(
        correct=[corrupt_ok, corrupt_np_select],
        wrong=[
            Wrong(corrupt_ignores_selection, "Unselected positions never change"),
            Wrong(corrupt_in_place, ("modified its input", "`ids`")),
            Wrong(corrupt_wrong_boundary, "0.8"),
            Wrong(corrupt_one_position_loop, ("shape=(4, 50)", "ValueError")),
        ],
    ),
    ex.check_masked_mean: Catalogue(
        correct=[mean_ok, mean_einsum],
        wrong=[
            Wrong(mean_divides_by_T, "not by T"),
            Wrong(mean_ignores_mask, "mask"),
            Wrong(mean_multiplies_by_mask, "inf * 0 = nan"),
        ],
    ),
    ex.check_c_tf_idf: Catalogue(
        correct=[ctfidf_ok, ctfidf_loops],
        wrong=[
            Wrong(ctfidf_log10, "natural logarithm"),
            Wrong(ctfidf_raw_tf, "words in class c"),
            Wrong(ctfidf_global_normalisation, "words in class c"),
        ],
    ),
    ex.check_answer_span: Catalogue(
        correct=[span_ok, span_loops],
        wrong=[
            Wrong(span_separate_argmax, "max_len"),
            Wrong(span_max_len_off_by_one, "max_len"),
            Wrong(span_ignores_allowed, "allowed"),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
