"""The checkers of the BERT chapter accept correct answers and reject the typical wrong ones."""

from __future__ import annotations

import math

import numpy as np
import pytest

from nlp_helpers.bert.exercises import (
    TINY_VOCAB,
    check_answer_span,
    check_c_tf_idf,
    check_corrupt,
    check_greedy_wordpiece,
    check_masked_mean,
)
from nlp_helpers.exercises.checker import STRICT_ENV
from tests.exercise_helpers import stub


# --------------------------------------------------------------------------- WordPiece
def wp_ok(word, vocab):
    pieces, start = [], 0
    while start < len(word):
        for end in range(len(word), start, -1):
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in vocab:
                break
        else:
            return ["[UNK]"]
        pieces.append(piece)
        start = end
    return pieces


def wp_partial_unk(word, vocab):
    """Keeps the pieces found so far and adds [UNK] for the rest."""
    pieces, start = [], 0
    while start < len(word):
        for end in range(len(word), start, -1):
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in vocab:
                break
        else:
            return pieces + ["[UNK]"]
        pieces.append(piece)
        start = end
    return pieces


def wp_shortest_first(word, vocab):
    pieces, start = [], 0
    while start < len(word):
        for end in range(start + 1, len(word) + 1):
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in vocab:
                break
        else:
            return ["[UNK]"]
        pieces.append(piece)
        start = end
    return pieces


def wp_no_hashes(word, vocab):
    return [p.removeprefix("##") for p in wp_ok(word, vocab)]


def test_wordpiece_checker():
    assert wp_ok("unaffable", TINY_VOCAB) == ["un", "##aff", "##able"]
    assert check_greedy_wordpiece(wp_ok).passed
    assert check_greedy_wordpiece(stub).status == "not yet"
    assert "whole word" in check_greedy_wordpiece(wp_partial_unk).message
    assert check_greedy_wordpiece(wp_shortest_first).status == "wrong"
    assert "'##" in check_greedy_wordpiece(wp_no_hashes).message


# --------------------------------------------------------------------------- 80/10/10
def corrupt_ok(ids, selected, u, random_ids, mask_id):
    out = np.array(ids, copy=True)
    out[selected & (u < 0.8)] = mask_id
    swap = selected & (u >= 0.8) & (u < 0.9)
    out[swap] = random_ids[swap]
    return out


def corrupt_ignores_selection(ids, selected, u, random_ids, mask_id):
    out = np.array(ids, copy=True)
    out[u < 0.8] = mask_id
    swap = (u >= 0.8) & (u < 0.9)
    out[swap] = random_ids[swap]
    return out


def corrupt_in_place(ids, selected, u, random_ids, mask_id):
    ids[selected & (u < 0.8)] = mask_id
    swap = selected & (u >= 0.8) & (u < 0.9)
    ids[swap] = random_ids[swap]
    return ids


def corrupt_wrong_boundary(ids, selected, u, random_ids, mask_id):
    out = np.array(ids, copy=True)
    out[selected & (u <= 0.8)] = mask_id
    swap = selected & (u > 0.8) & (u < 0.9)
    out[swap] = random_ids[swap]
    return out


def corrupt_one_position_loop(ids, selected, u, random_ids, mask_id):
    out = list(ids)  # 1-D only
    for i in range(len(out)):
        if selected[i] and u[i] < 0.8:
            out[i] = mask_id
        elif selected[i] and u[i] < 0.9:
            out[i] = random_ids[i]
    return out


def test_corrupt_checker():
    assert check_corrupt(corrupt_ok).passed
    assert check_corrupt(stub).status == "not yet"
    assert "Unselected positions never change" in check_corrupt(corrupt_ignores_selection).message
    assert "copy" in check_corrupt(corrupt_in_place).message
    assert check_corrupt(corrupt_wrong_boundary).status == "wrong"
    assert check_corrupt(corrupt_one_position_loop).status == "wrong"  # breaks on a (B, T) batch


# --------------------------------------------------------------------------- mean pooling


def mean_ok(hidden, mask):
    m = np.asarray(mask, dtype=bool)[..., None]
    return np.where(m, hidden, 0.0).sum(1) / m.sum(1)


def mean_divides_by_T(hidden, mask):
    m = np.asarray(mask, dtype=float)[..., None]
    return (hidden * m).sum(1) / hidden.shape[1]


def mean_ignores_mask(hidden, mask):
    return hidden.mean(1)


def test_masked_mean_checker():
    assert check_masked_mean(mean_ok).passed
    assert check_masked_mean(stub).status == "not yet"
    assert "not by T" in check_masked_mean(mean_divides_by_T).message
    assert check_masked_mean(mean_ignores_mask).status == "wrong"


# --------------------------------------------------------------------------- c-TF-IDF
def ctfidf_ok(counts):
    counts = np.asarray(counts, dtype=float)
    size = counts.sum(1, keepdims=True)
    return counts / size * np.log(1 + size.mean() / counts.sum(0))


def ctfidf_log10(counts):
    counts = np.asarray(counts, dtype=float)
    size = counts.sum(1, keepdims=True)
    return counts / size * np.log10(1 + size.mean() / counts.sum(0))


def ctfidf_raw_tf(counts):
    counts = np.asarray(counts, dtype=float)
    return counts * np.log(1 + counts.sum(1).mean() / counts.sum(0))


def ctfidf_global_normalisation(counts):
    counts = np.asarray(counts, dtype=float)
    return counts / counts.sum() * np.log(1 + counts.sum(1).mean() / counts.sum(0))


def test_c_tf_idf_checker():
    # the checker's hand-worked first entry
    assert ctfidf_ok([[4, 0, 1], [1, 3, 1]])[0, 0] == pytest.approx(0.8 * math.log(2))
    assert check_c_tf_idf(ctfidf_ok).passed
    assert check_c_tf_idf(stub).status == "not yet"
    assert "natural logarithm" in check_c_tf_idf(ctfidf_log10).message
    assert check_c_tf_idf(ctfidf_raw_tf).status == "wrong"
    assert check_c_tf_idf(ctfidf_global_normalisation).status == "wrong"


def test_strict_mode_raises_on_a_wrong_answer(monkeypatch):
    monkeypatch.setenv(STRICT_ENV, "1")
    with pytest.raises(AssertionError, match="c-TF-IDF"):
        check_c_tf_idf(ctfidf_log10)
    assert check_c_tf_idf(ctfidf_ok).passed


# --------------------------------------------------------------------------- answer span
def span_ok(start, end, allowed, max_len):
    best, arg = -np.inf, None
    for i in range(len(start)):
        for j in range(i, min(len(start), i + max_len)):
            if allowed[i] and allowed[j] and start[i] + end[j] > best:
                best, arg = start[i] + end[j], (i, j)
    return arg


def span_separate_argmax(start, end, allowed, max_len):
    s = np.where(allowed, start, -np.inf)
    e = np.where(allowed, end, -np.inf)
    return int(np.argmax(s)), int(np.argmax(e))


def span_max_len_off_by_one(start, end, allowed, max_len):
    return span_ok(start, end, allowed, max_len + 1)  # allows j - i + 1 == max_len + 1


def span_ignores_allowed(start, end, allowed, max_len):
    return span_ok(start, end, np.ones(len(start), bool), max_len)


def test_answer_span_checker():
    # span_ok is the definition written as a double loop, independent of the checker's best_span
    assert check_answer_span(span_ok).passed
    assert check_answer_span(span_max_len_off_by_one).status == "wrong"
    assert check_answer_span(stub).status == "not yet"
    assert check_answer_span(span_ignores_allowed).status == "wrong"
    result = check_answer_span(span_separate_argmax)
    assert result.status == "wrong" and "max_len" in result.message
    assert check_answer_span(lambda *a: None).status == "wrong"
