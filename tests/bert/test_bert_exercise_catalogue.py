"""Catalogue of the BERT chapter's exercises: requirements, correct answers in several styles (accepted)
and typical wrong answers (rejected with a hint naming the mistake).

* ``greedy_wordpiece``: longest match first; ``##`` on continuation pieces; ``["[UNK]"]`` (a list) for the whole
  word.
* ``mlm_by_hand``: only ordinary tokens are selected; 80 % of the *selected* become [MASK]; the visible
  targets are the unchanged 10 % of the selected, as a share of all ordinary tokens; three numbers.
* ``masked_max``: (B, d); padding never wins, even when larger than every real value (or inf); negative
  real values survive (no multiplication by the mask); a max, not a mean; ValueError for an empty mask, naming
  attention_mask; hidden unchanged.
* ``c_tf_idf_scores``: row-normalised tf times ln(1 + mean words per class / tf_w) (the mean, not the total),
  natural log.
* ``answer_or_abstain``: the best valid span (i <= j, both allowed, j - i + 1 <= max_len), or None when the
  [CLS] score start[0] + end[0] beats it by more than the threshold (strictly; a tie answers).
"""

from __future__ import annotations

import numpy as np

from nlp_helpers.bert import exercises as ex
from tests.bert.test_bert_exercises import (
    abstain_ignores_threshold,
    abstain_ok,
    abstain_on_tie,
    ctfidf_global_normalisation,
    ctfidf_log10,
    ctfidf_ok,
    ctfidf_raw_tf,
    max_ignores_mask,
    max_multiplies_by_mask,
    max_no_empty_check,
    max_ok,
    mlm_counts_special,
    mlm_mask_of_all,
    mlm_ok,
    mlm_random_counts_as_visible,
    mlm_share_of_selected,
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


def mlm_fractions():
    n_ordinary = 200 * 128 - 2 * 200
    selected = 0.15 * n_ordinary
    return (selected, 0.8 * selected, 0.1 * selected / n_ordinary)


def max_mean_instead(hidden, mask):
    m = np.asarray(mask, dtype=bool)[..., None]
    return np.where(m, hidden, 0.0).sum(1) / m.sum(1)


def max_loops(hidden, mask):
    hidden, mask = np.asarray(hidden, dtype=float), np.asarray(mask)
    out = np.empty((hidden.shape[0], hidden.shape[2]))
    for b in range(hidden.shape[0]):
        rows = [hidden[b, t] for t in range(hidden.shape[1]) if mask[b, t] == 1]
        if not rows:
            raise ValueError(f"attention_mask: sentence {b} has no real token")
        out[b] = np.max(rows, axis=0)
    return out


def abstain_vectorised(start, end, allowed, max_len, threshold):
    s, e, ok = np.asarray(start), np.asarray(end), np.asarray(allowed, dtype=bool)
    i, j = np.indices((len(s), len(s)))
    valid = (j >= i) & (j - i < max_len) & ok[:, None] & ok[None, :]
    scores = np.where(valid, s[:, None] + e[None, :], -np.inf)
    best = int(np.argmax(scores))
    if s[0] + e[0] > scores.flat[best] + threshold:
        return None
    return best // len(s), best % len(s)


def abstain_cls_span(start, end, allowed, max_len, threshold):
    got = abstain_ok(start, end, allowed, max_len, threshold)
    return (0, 0) if got is None else got


def abstain_separate_argmax(start, end, allowed, max_len, threshold):
    s = np.where(allowed, start, -np.inf)
    e = np.where(allowed, end, -np.inf)
    i, j = int(np.argmax(s)), int(np.argmax(e))
    return None if start[0] + end[0] > s[i] + e[j] + threshold else (i, j)


def abstain_ignores_max_len(start, end, allowed, max_len, threshold):
    return abstain_ok(start, end, allowed, len(start), threshold)


def abstain_ignores_allowed(start, end, allowed, max_len, threshold):
    ok = np.ones(len(start), bool)
    ok[0] = False
    return abstain_ok(start, end, ok, max_len, threshold)


def max_error_without_the_argument(hidden, mask):  # raises, but does not say which argument is wrong
    try:
        return max_loops(hidden, mask)
    except ValueError:
        raise ValueError("no real token") from None


def abstain_list(start, end, allowed, max_len, threshold):  # the statement asks for a tuple of two ints
    span = abstain_ok(start, end, allowed, max_len, threshold)
    return None if span is None else list(span)


def abstain_float_span(start, end, allowed, max_len, threshold):
    span = abstain_ok(start, end, allowed, max_len, threshold)
    return None if span is None else (float(span[0]), float(span[1]))


def abstain_by_the_helper(start, end, allowed, max_len, threshold):  # "do not use the page's span search"
    from nlp_helpers.bert.qa import best_span

    i, j = best_span(start, end, max_len, allowed)
    return None if start[0] + end[0] > start[i] + end[j] + threshold else (int(i), int(j))


# ----- second pass over the statements: each stated requirement broken alone
def ctfidf_total_words(counts):  # "n-bar, the AVERAGE number of words per cluster": the total instead
    counts = np.asarray(counts, dtype=float)
    size = counts.sum(1, keepdims=True)
    return counts / size * np.log(1 + size.sum() / counts.sum(0))


def max_fills_padding_in_place(
    hidden, attention_mask
):  # "leave the arguments unchanged": -inf into the caller's hidden
    m = np.asarray(attention_mask, dtype=bool)
    if not m.any(axis=1).all():
        raise ValueError("attention_mask: a sentence has no real token")
    hidden[~m] = -np.inf
    return hidden.max(axis=1)


def wp_list_of_unk_pieces(word, vocab):  # "return ["[UNK]"] for the whole word": a string, not a list
    pieces = wp_ok(word, vocab)
    return "[UNK]" if pieces == ["[UNK]"] else pieces


CATALOGUE = {
    ex.check_greedy_wordpiece: Catalogue(
        correct=[wp_ok, wp_recursive],
        wrong=[
            Wrong(wp_partial_unk, "whole word"),
            Wrong(wp_shortest_first, "longest"),
            Wrong(wp_no_hashes, "'##"),
            Wrong(wp_list_of_unk_pieces, "['[UNK]']"),
        ],
    ),
    ex.check_mlm_by_hand: Catalogue(
        correct=[mlm_ok, mlm_fractions],
        wrong=[
            Wrong(mlm_counts_special, "[CLS] and [SEP]"),
            Wrong(mlm_mask_of_all, "selected positions only"),
            Wrong(mlm_share_of_selected, "multiply by p"),
            Wrong(mlm_random_counts_as_visible, "randomly replaced"),
            Wrong(lambda: 3780, "tuple of three numbers"),
        ],
    ),
    ex.check_masked_max: Catalogue(
        correct=[max_ok, max_loops],
        wrong=[
            Wrong(max_ignores_mask, "padding position won"),
            Wrong(max_multiplies_by_mask, "never win"),
            Wrong(max_mean_instead, "mean of the real tokens"),
            Wrong(max_no_empty_check, "ValueError"),
            Wrong(max_error_without_the_argument, ("does not name", "attention_mask")),
            Wrong(max_fills_padding_in_place, ("modified its input", "`hidden`")),
        ],
    ),
    ex.check_c_tf_idf: Catalogue(
        correct=[ctfidf_ok, ctfidf_loops],
        wrong=[
            Wrong(ctfidf_log10, "natural logarithm"),
            Wrong(ctfidf_raw_tf, "words in class c"),
            Wrong(ctfidf_global_normalisation, "words in class c"),
            Wrong(ctfidf_total_words, "average words per class"),
        ],
    ),
    ex.check_answer_or_abstain: Catalogue(
        correct=[abstain_ok, abstain_vectorised],
        wrong=[
            Wrong(abstain_ignores_threshold, "threshold"),
            Wrong(abstain_on_tie, "tie"),
            Wrong(abstain_list, ("tuple of two ints", "list")),
            Wrong(abstain_float_span, ("tuple of two ints", "2.0")),
            Wrong(abstain_by_the_helper, ("`best_span`", "build it yourself")),
            Wrong(abstain_cls_span, "None"),
            Wrong(abstain_separate_argmax, "start <= end"),
            Wrong(abstain_ignores_max_len, "max_len"),
            Wrong(abstain_ignores_allowed, "question"),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
