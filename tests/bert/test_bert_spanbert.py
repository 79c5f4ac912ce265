"""SpanBERT's span masking and span-boundary objective (``nlp_helpers.bert.spanbert``).

References: scipy's geometric distribution (the length probabilities), the paper's mean span length (3.8
words), hand-worked spans and SBO targets, ``torch.nn.functional`` (the SBO head, written out again) and
``torch.nn.functional.cross_entropy`` (the loss), and statistical laws over many draws (4 sd margins).
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from scipy import stats

from nlp_helpers.bert import spanbert as sb
from nlp_helpers.bert.mlm import IGNORE_INDEX


def test_span_length_probs_are_the_truncated_geometric_distribution():
    probs = sb.span_length_probs(0.2, 10)
    k = np.arange(1, 11)
    want = stats.geom.pmf(k, 0.2) / stats.geom.cdf(10, 0.2)
    np.testing.assert_allclose(probs, want, rtol=1e-12)
    assert abs(probs @ k - 3.8) < 0.005  # the paper's mean span length
    assert probs[0] == pytest.approx(0.2 / (1 - 0.8**10))  # by hand
    assert sb.span_length_probs(1.0, 3).tolist() == [1.0, 0.0, 0.0]


def test_word_spans_by_hand():
    assert sb.word_spans([None, 0, 0, 1, 2, 2, 2, None]) == [(1, 3), (3, 4), (4, 7)]
    # a pair: the second segment's word ids start again at 0
    assert sb.word_spans([None, 0, 1, None, 0, None, None]) == [(1, 2), (2, 3), (4, 5)]


def test_sample_spans_masks_everything_at_rate_one():
    spans = sb.sample_spans([None, 0, 1, 1, None, 0, 1, None], np.random.default_rng(0), mask_rate=1.0)
    assert spans == [(1, 4), (5, 7)]  # touching spans are merged; [SEP] separates the segments


def test_sample_spans_one_word_gets_a_span():
    assert sb.sample_spans([None, 0, None], np.random.default_rng(0)) == [(1, 2)]


def _random_word_ids(rng: np.random.Generator, n_words: int) -> list[int | None]:
    ids: list[int | None] = [None]
    for w in range(n_words):
        ids += [w] * int(rng.choice([1, 1, 1, 2, 3]))
    return ids + [None, None]  # [SEP] and a pad


def test_spans_are_whole_words_sorted_and_apart():
    rng = np.random.default_rng(1)
    for _ in range(300):
        word_ids = _random_word_ids(rng, int(rng.integers(1, 40)))
        words = sb.word_spans(word_ids)
        starts, ends = {s for s, _ in words}, {e for _, e in words}
        spans = sb.sample_spans(word_ids, rng)
        assert spans, word_ids
        for (s, e), nxt in zip(spans, [*spans[1:], None]):
            assert s in starts and e in ends  # never inside a word
            assert all(word_ids[t] is not None for t in range(s, e))  # never a special token
            assert nxt is None or nxt[0] > e  # an unmasked token between two spans


def test_mask_rate_is_close_to_15_percent():
    rng = np.random.default_rng(2)
    masked = total = 0
    for _ in range(2000):
        word_ids = _random_word_ids(rng, 40)
        words = sb.word_spans(word_ids)
        masked += sum(e - s for s, e in sb.sample_spans(word_ids, rng))
        total += sum(e - s for s, e in words)
    # the budget is round(0.15 * n) tokens; a whole last word may overshoot it by a piece or two
    assert 0.15 <= masked / total < 0.165, masked / total


def test_span_lengths_follow_the_distribution():
    """Spans in a long text of one-token words with a small budget rarely merge or get cut: their lengths in
    words follow the truncated geometric distribution (mean 3.8); the budget cuts some last spans short."""
    rng = np.random.default_rng(3)
    word_ids = [None, *range(2000), None]
    lengths = [e - s for _ in range(40) for s, e in sb.sample_spans(word_ids, rng, mask_rate=0.05)]
    assert len(lengths) > 900 and max(lengths) <= 20
    assert 3.4 < np.mean(lengths) < 3.9, np.mean(lengths)


def test_corrupt_spans_decides_once_per_span():
    ids = np.arange(10, 40)
    spans = [(1, 4), (6, 9), (12, 16), (20, 21), (25, 29)]
    rng = np.random.default_rng(4)
    fates = {"mask": 0, "random": 0, "kept": 0}
    for _ in range(2000):
        inputs, labels = sb.corrupt_spans(ids, spans, 50, 1, [0, 2], rng)
        inside = np.zeros(len(ids), bool)
        for s, e in spans:
            inside[s:e] = True
            part = inputs[s:e]
            if (part == 1).all():
                fates["mask"] += 1
            elif (part == ids[s:e]).all():
                fates["kept"] += 1
            else:
                assert not (part == 1).any() and not np.isin(part, [0, 2]).any()
                fates["random"] += 1
        assert (inputs[~inside] == ids[~inside]).all()
        assert (labels[inside] == ids[inside]).all() and (labels[~inside] == IGNORE_INDEX).all()
    n = sum(fates.values())  # ignoring the (tiny) chance that random draws give back the span itself
    for fate, p in [("mask", 0.8), ("random", 0.1), ("kept", 0.1)]:
        assert abs(fates[fate] / n - p) < 4 * np.sqrt(p * (1 - p) / n), fates


def test_span_mask_is_sample_then_corrupt():
    word_ids = [None, 0, 1, 1, 2, 3, 4, 5, 6, 7, None]
    ids = np.arange(20, 31)
    a = sb.span_mask(ids, word_ids, 40, 1, [0], np.random.default_rng(5))
    rng = np.random.default_rng(5)
    spans = sb.sample_spans(word_ids, rng)
    inputs, labels = sb.corrupt_spans(ids, spans, 40, 1, [0], rng)
    assert a[2] == spans and (a[0] == inputs).all() and (a[1] == labels).all()


def test_sbo_targets_by_hand():
    t = sb.sbo_targets([[(2, 4)], [(0, 1), (3, 4)]], 5)
    got = torch.stack(list(t), dim=1).tolist()
    # row 1's first span starts at 0: no left boundary, so it is skipped
    assert got == [[0, 2, 1, 4, 0], [0, 3, 1, 4, 1], [1, 3, 2, 4, 0]]
    assert len(sb.sbo_targets([[(3, 5)]], 5).rows) == 0  # ends at the last token: no right boundary


def test_head_equals_its_formula_written_out():
    torch.manual_seed(0)
    head = sb.SpanBoundaryHead(8, 6, d_pos=4)
    hidden = torch.randn(2, 7, 8)
    t = sb.sbo_targets([[(1, 3)], [(2, 6)]], 7)
    y = head(hidden, t)
    assert y.shape == (6, 8)
    # the same targets written by hand: row 0's span (1, 3), row 1's span (2, 6)
    by_hand = sb.SBOTargets(
        rows=torch.tensor([0, 0, 1, 1, 1, 1]),
        positions=torch.tensor([1, 2, 2, 3, 4, 5]),
        left=torch.tensor([0, 0, 1, 1, 1, 1]),
        right=torch.tensor([3, 3, 6, 6, 6, 6]),
        offsets=torch.tensor([0, 1, 0, 1, 2, 3]),
    )
    assert all(torch.equal(a, b) for a, b in zip(t, by_hand))
    torch.testing.assert_close(head(hidden, by_hand), y)
    with pytest.raises(TypeError, match="targets"):
        head(hidden, tuple(t))
    F = torch.nn.functional
    for k in range(6):
        r, left, right, off = int(t.rows[k]), int(t.left[k]), int(t.right[k]), int(t.offsets[k])
        x = torch.cat([hidden[r, left], hidden[r, right], head.pos.weight[off]])
        h = F.layer_norm(F.gelu(x @ head.dense1.weight.T + head.dense1.bias), (8,), head.norm1.weight, head.norm1.bias)
        h = F.layer_norm(F.gelu(h @ head.dense2.weight.T + head.dense2.bias), (8,), head.norm2.weight, head.norm2.bias)
        torch.testing.assert_close(y[k], h, rtol=1e-5, atol=1e-6)


def test_spanbert_loss_equals_torch_cross_entropy():
    torch.manual_seed(1)
    logits, sbo_logits = torch.randn(2, 6, 11), torch.randn(4, 11)
    labels = torch.full((2, 6), IGNORE_INDEX)
    labels[0, 2:4], labels[1, 1:3] = torch.tensor([3, 0]), torch.tensor([7, 10])
    sbo_labels = torch.tensor([3, 0, 7, 10])
    total, mlm, sbo = sb.spanbert_loss(logits, labels, sbo_logits, sbo_labels)
    F = torch.nn.functional
    want_mlm = F.cross_entropy(logits.reshape(-1, 11), labels.reshape(-1), ignore_index=-100)
    torch.testing.assert_close(mlm, want_mlm, rtol=1e-6, atol=0)
    torch.testing.assert_close(sbo, F.cross_entropy(sbo_logits, sbo_labels), rtol=1e-6, atol=0)
    torch.testing.assert_close(total, mlm + sbo, rtol=1e-6, atol=0)


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: sb.span_length_probs(0.0), ValueError, "p"),
        (lambda: sb.span_length_probs(0.2, 0), ValueError, "max_len"),
        (lambda: sb.word_spans("abc"), TypeError, "word_ids"),
        (lambda: sb.word_spans([0, -1]), ValueError, "word_ids"),
        (lambda: sb.sample_spans([None, None], np.random.default_rng(0)), ValueError, "word_ids"),
        (lambda: sb.sample_spans([0, 1], 0), TypeError, "rng"),
        (lambda: sb.sample_spans([0, 1], np.random.default_rng(0), mask_rate=0), ValueError, "mask_rate"),
        (lambda: sb.corrupt_spans(np.arange(5), [(3, 2)], 9, 1, [0], np.random.default_rng(0)), ValueError, "spans"),
        (
            lambda: sb.corrupt_spans(np.arange(5), [(0, 3), (2, 4)], 9, 1, [0], np.random.default_rng(0)),
            ValueError,
            "spans",
        ),
        (lambda: sb.corrupt_spans(np.arange(5), [(0, 6)], 9, 1, [0], np.random.default_rng(0)), ValueError, "spans"),
        (lambda: sb.corrupt_spans(np.arange(5), [], 9, 9, [0], np.random.default_rng(0)), ValueError, "mask_id"),
        (lambda: sb.corrupt_spans(np.arange(5.0), [], 9, 1, [0], np.random.default_rng(0)), ValueError, "ids"),
        (lambda: sb.span_mask(np.arange(5), [0, 1], 9, 1, [0], np.random.default_rng(0)), ValueError, "word_ids"),
        (lambda: sb.sbo_targets([[(1, 2)]], 0), ValueError, "seq_len"),
        (lambda: sb.sbo_targets("ab", 3), TypeError, "spans_per_row"),
        (lambda: sb.SpanBoundaryHead(4, 0), ValueError, "max_offset"),
        (lambda: sb.SpanBoundaryHead(4, 2)(torch.zeros(1, 5, 3), sb.sbo_targets([[(1, 2)]], 5)), ValueError, "hidden"),
        (
            lambda: sb.SpanBoundaryHead(4, 2)(torch.zeros(1, 9, 4), sb.sbo_targets([[(1, 5)]], 9)),
            ValueError,
            "max_offset",
        ),
        (
            lambda: sb.spanbert_loss(
                torch.zeros(1, 3, 4), torch.tensor([[1, -100, -100]]), torch.zeros(2, 4), torch.tensor([1])
            ),
            ValueError,
            "sbo_labels",
        ),
        (
            lambda: sb.spanbert_loss(
                torch.zeros(1, 3, 4), torch.tensor([[1, -100, -100]]), torch.zeros(1, 4), torch.tensor([4])
            ),
            ValueError,
            "sbo_labels",
        ),
    ],
)
def test_bad_input_names_the_argument(call, error, match):
    with pytest.raises(error, match=match):
        call()
