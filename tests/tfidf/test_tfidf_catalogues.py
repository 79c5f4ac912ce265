"""Per exercise of the TF-IDF chapter: a catalogue of typical wrong answers (one or more per requirement the
statement names), each rejected with a hint naming the actual mistake, and correct answers in different
styles, all accepted. Every checker also handles None returns, errors, and answers that modify their input."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from nlp_helpers.tfidf.bm25_exercises import BM25_PLUS_DOCS, bm25_plus_reference, check_bm25_plus
from nlp_helpers.tfidf.by_hand_exercises import check_weights_by_hand
from nlp_helpers.tfidf.exercises import (
    check_bag_of_words_vector,
    check_cosine,
    check_search_precision_at_k,
    check_shifted_ppmi,
    check_window_counts,
)
from tests.exercise_helpers import assert_hint_tells_not
from tests.tfidf.test_tfidf_exercises import (
    bow_ok,
    cos_ok,
    search_ok,
)
from tests.tfidf.wrong_answers import (
    window_off_by_one,
    window_ok,
    window_right_only,
    window_unique_pairs,
)


def _rejected(check, answer, *needles):
    result = check(answer)
    assert result.status == "wrong", (answer.__name__, result.message)
    for needle in needles:
        assert needle in result.message, (answer.__name__, needle, result.message)
    assert_hint_tells_not(check, result.message)


# --------------------------------------------------------------------------- TF-IDF by hand
def hand_numpy():
    idf = np.log10(3 / np.array([2, 2, 1, 1]))
    return dict(zip(["the", "dog", "ran", "and"], (np.array([1, 1, 2, 1]) * idf).tolist()))


def hand_loops():
    docs = ["the cat sat on the mat".split(), "the dog ran and ran".split(), "a dog sat".split()]
    return {t: docs[1].count(t) * math.log10(3 / sum(t in d for d in docs)) for t in set(docs[1])}


def hand_ln():
    return {t: v / math.log10(math.e) for t, v in hand_numpy().items()}


def hand_ln_plus_one():
    return {
        t: math.log(3 / df) + 1 if t != "ran" else 2 * (math.log(3) + 1)
        for t, df in {"the": 2, "dog": 2, "ran": 1, "and": 1}.items()
    }


def hand_df_tokens():
    w = hand_numpy()
    w["the"] = 0.0  # 'the' occurs 3 times in all: log10(3/3)
    return w


def hand_relative():
    return {t: v / 5 for t, v in hand_numpy().items()}


def hand_binary():
    w = hand_numpy()
    w["ran"] /= 2
    return w


def hand_missing_key():
    w = hand_numpy()
    del w["and"]
    return w


def hand_print():
    print(hand_numpy())


def test_by_hand_catalogue():
    assert check_weights_by_hand(hand_numpy).passed and check_weights_by_hand(hand_loops).passed
    _rejected(check_weights_by_hand, hand_ln, "natural logarithm")
    _rejected(check_weights_by_hand, hand_ln_plus_one, "+ 1")
    _rejected(check_weights_by_hand, hand_df_tokens, "documents that contain")
    _rejected(check_weights_by_hand, hand_relative, "raw counts")
    _rejected(check_weights_by_hand, hand_binary, "raw TF is 2")
    _rejected(check_weights_by_hand, hand_missing_key, "exactly the terms")
    _rejected(check_weights_by_hand, hand_print, "returned None")


# --------------------------------------------------------------------------- bag of words
def bow_counter(tokens, vocabulary):
    known = set(vocabulary[:-1])
    c = Counter(t if t in known else vocabulary[-1] for t in tokens)
    return np.array([c[v] for v in vocabulary])


def bow_unk_name_counted_in_place(tokens, vocabulary):
    index = {t: j for j, t in enumerate(vocabulary)}  # '<unk>' itself maps to the last slot anyway
    out = np.zeros(len(vocabulary))
    for t in tokens:
        out[index.get(t, len(vocabulary) - 1)] += 1
    return out


def bow_drops_unknown(tokens, vocabulary):
    return np.array([tokens.count(t) for t in vocabulary], dtype=float)


def bow_set(tokens, vocabulary):
    return np.minimum(bow_counter(tokens, vocabulary), 1)


def bow_unk_first(tokens, vocabulary):
    return np.roll(bow_counter(tokens, vocabulary), 1)


def bow_empty_crash(tokens, vocabulary):
    if not tokens:
        return np.zeros(0)
    return bow_counter(tokens, vocabulary)


def bow_mutates(tokens, vocabulary):
    tokens.sort()
    return bow_counter(tokens, vocabulary)


def bow_no_return(tokens, vocabulary):
    bow_counter(tokens, vocabulary)


def test_bag_of_words_catalogue():
    for ok in (bow_ok, bow_counter, bow_unk_name_counted_in_place):
        assert check_bag_of_words_vector(ok).passed, ok.__name__
    _rejected(check_bag_of_words_vector, bow_drops_unknown, "UNK")
    _rejected(check_bag_of_words_vector, bow_set, "should be")
    _rejected(check_bag_of_words_vector, bow_unk_first, "last (UNK) slot")
    _rejected(check_bag_of_words_vector, bow_empty_crash, "empty document")
    _rejected(check_bag_of_words_vector, bow_mutates, "the argument `tokens` is not what it was")
    _rejected(check_bag_of_words_vector, bow_no_return, "returned None")


# --------------------------------------------------------------------------- cosine
def cos_loops(u, v):
    dot = sum(a * b for a, b in zip(u, v))
    nu, nv = math.sqrt(sum(a * a for a in u)), math.sqrt(sum(b * b for b in v))
    if nu == 0 or nv == 0:
        raise ValueError("zero vector")
    return dot / (nu * nv)


def cos_dot(u, v):
    return float(np.dot(u, v))


def cos_nan(u, v):
    u, v = np.asarray(u, float), np.asarray(v, float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return float(u @ v / (np.linalg.norm(u) * np.linalg.norm(v)))


def cos_one_norm(u, v):
    u, v = np.asarray(u, float), np.asarray(v, float)
    if not u.any() or not v.any():
        raise ValueError("zero")
    return float(u @ v / np.linalg.norm(u) ** 2)


def cos_returns_zero(u, v):
    u, v = np.asarray(u, float), np.asarray(v, float)
    if not u.any() or not v.any():
        return 0.0
    return cos_ok(u, v)


def cos_no_return(u, v):
    print(cos_ok(u, v))


def cos_arrays_only(u, v):  # "two vectors ... (lists or numpy arrays)": works on numpy arrays only
    norm_u, norm_v = math.sqrt(sum(x * x for x in u)), math.sqrt(sum(x * x for x in v))
    if norm_u == 0 or norm_v == 0:
        raise ValueError("zero vector")
    return float(u @ v) / (norm_u * norm_v)


def test_cosine_catalogue():
    assert check_cosine(cos_ok).passed and check_cosine(cos_loops).passed
    _rejected(check_cosine, cos_dot, "length")
    _rejected(check_cosine, cos_nan, "ValueError")
    _rejected(check_cosine, cos_one_norm, "product of the two vector lengths")
    _rejected(check_cosine, cos_returns_zero, "raise ValueError")
    _rejected(check_cosine, cos_no_return, "returned None")
    _rejected(check_cosine, cos_arrays_only, "may be lists")


# --------------------------------------------------------------------------- window counts
def window_zip(tokens, window):
    counts = Counter()
    for d in range(1, window + 1):
        for a, b in zip(tokens, tokens[d:]):
            counts[(a, b)] += 1
            counts[(b, a)] += 1
    return dict(counts)


def window_includes_self(tokens, window):
    counts = Counter(window_ok(tokens, window))
    for w in tokens:
        counts[(w, w)] += 1
    return dict(counts)


def window_wraps(tokens, window):
    counts = Counter()
    n = len(tokens)
    for i, w in enumerate(tokens):
        for d in range(1, window + 1):
            for j in {(i - d) % n, (i + d) % n} - {i}:
                counts[(w, tokens[j])] += 1
    return dict(counts)


def window_mutates(tokens, window):
    out = window_ok(tokens, window)
    tokens.clear()
    return out


def window_skips_same_word(tokens, window):  # "a repeated word next to itself counts as a pair (w, w)"
    return {pair: n for pair, n in window_ok(tokens, window).items() if pair[0] != pair[1]}


def test_window_catalogue():
    assert check_window_counts(window_ok).passed and check_window_counts(window_zip).passed
    _rejected(check_window_counts, window_right_only, "missing pairs")
    _rejected(check_window_counts, window_off_by_one, "missing pairs")
    _rejected(check_window_counts, window_unique_pairs, "wrong counts")
    _rejected(check_window_counts, window_includes_self, "1 <= |i - j|")
    _rejected(check_window_counts, window_wraps, "")
    _rejected(check_window_counts, window_mutates, "the argument `tokens` is not what it was")
    _rejected(check_window_counts, window_skips_same_word, "counts as a pair (w, w), like any other word")


# --------------------------------------------------------------------------- search + P@k
def search_ln_no_smoothing(docs, queries, relevant, k):
    """idf = ln(N / df): the same ranking as log10(N / df), so it gets one hint about the missing smoothing."""
    vocab = sorted({t for d in docs for t in d})
    n = len(docs)
    idf = {t: math.log(n / sum(t in d for d in docs)) for t in vocab}

    def vec(tokens):
        c = Counter(t for t in tokens if t in idf)
        v = {t: c[t] * idf[t] for t in c}
        s = math.sqrt(sum(x * x for x in v.values()))
        return {t: x / s for t, x in v.items()} if s else v

    dv = [vec(d) for d in docs]
    total = 0.0
    for q, rel in zip(queries, relevant):
        qv = vec(q)
        scores = [sum(x * d.get(t, 0.0) for t, x in qv.items()) for d in dv]
        order = sorted(range(n), key=lambda i: (-scores[i], i))
        total += sum(i in rel for i in order[:k]) / k
    return total / len(queries)


def search_mutates(docs, queries, relevant, k):
    value = search_ok(docs, queries, relevant, k)
    relevant[0].add(99)
    return value


def search_unknown_query_word_fails(docs, queries, relevant, k):  # "its words outside the vocabulary are ignored"
    vocab = {t for d in docs for t in d}
    for query in queries:
        for t in query:
            if t not in vocab:
                raise KeyError(t)
    return search_ok(docs, queries, relevant, k)


def search_no_return(docs, queries, relevant, k):
    search_ok(docs, queries, relevant, k)


@pytest.mark.parametrize(
    ("answer", "hint"),
    [
        (lambda d, q, r, k: search_ok(d, q, r, k, idf=None), "without the IDF"),
        (lambda d, q, r, k: search_ok(d, q, r, k, idf="log10"), "log(N / df) without smoothing"),
        (search_ln_no_smoothing, "log(N / df) without smoothing"),
        (lambda d, q, r, k: search_ok(d, q, r, k, unit=False), "dot product"),
        (lambda d, q, r, k: search_ok(d, q, r, k, denominator="relevant"), "recall at k"),
        (lambda d, q, r, k: search_ok(d, q, r, k, ties="reverse"), "lower index"),
        (search_mutates, "the argument `relevant` is not what it was"),
        (search_no_return, "returned None"),
        (search_unknown_query_word_fails, "outside the vocabulary are ignored"),
    ],
)
def test_search_catalogue(answer, hint):
    result = check_search_precision_at_k(answer)
    assert result.status == "wrong" and hint in result.message, result.message
    assert " Or: " not in result.message  # one diagnosis, not a list of guesses
    assert_hint_tells_not(check_search_precision_at_k, result.message)


def test_search_accepts_two_styles():
    from tests.tfidf.test_tfidf_exercises import search_ok as plain

    def numpy_style(docs, queries, relevant, k):
        vocab = {t: j for j, t in enumerate(sorted({t for d in docs for t in d}))}

        def count(lists):
            m = np.zeros((len(lists), len(vocab)))
            for i, toks in enumerate(lists):
                for t in toks:
                    if t in vocab:
                        m[i, vocab[t]] += 1
            return m

        d = count(docs)
        idf = np.log((1 + len(docs)) / (1 + (d > 0).sum(axis=0))) + 1

        def unit(m):
            n = np.linalg.norm(m, axis=1, keepdims=True)
            return m / np.where(n > 0, n, 1)

        s = unit(count(queries) * idf) @ unit(d * idf).T
        return float(
            np.mean(
                [sum(int(i) in rel for i in np.argsort(-row, kind="stable")[:k]) / k for row, rel in zip(s, relevant)]
            )
        )

    assert check_search_precision_at_k(plain).passed and check_search_precision_at_k(numpy_style).passed


# --------------------------------------------------------------------------- BM25+
def bm25p_numpy(docs, query, k1=1.2, b=0.75, delta=1.0):
    vocab = sorted({t for d in docs for t in d})
    col = {t: j for j, t in enumerate(vocab)}
    f = np.zeros((len(docs), len(vocab)))
    for i, d in enumerate(docs):
        for t in d:
            f[i, col[t]] += 1
    n, dl = len(docs), f.sum(axis=1)
    df = (f > 0).sum(axis=0)
    idf = np.log1p((n - df + 0.5) / (df + 0.5))
    norm = k1 * (1 - b + b * dl / dl.mean())
    tf = f * (k1 + 1) / (f + norm[:, None])
    per_term = np.where(f > 0, idf * (tf + delta), 0.0)  # (n, V)
    q = [col[t] for t in query if t in col]
    return per_term[:, q].sum(axis=1) if q else np.zeros(n)


def bm25p_loops(docs, query, k1=1.2, b=0.75, delta=1.0):
    n = len(docs)
    avgdl = sum(map(len, docs)) / n
    out = []
    for d in docs:
        s = 0.0
        for t in query:
            df = sum(t in x for x in docs)
            f = d.count(t)
            if f == 0 or df == 0:
                continue
            idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
            s += idf * (f * (k1 + 1) / (f + k1 * (1 - b + b * len(d) / avgdl)) + delta)
        out.append(s)
    return np.array(out)


def _variant(**mistake):
    def answer(docs, query, k1=1.2, b=0.75, delta=1.0):
        return bm25_plus_reference(docs, query, k1, b, delta, **mistake)

    return answer


def bm25p_defaults_only(docs, query, k1=1.2, b=0.75, delta=1.0):
    return bm25_plus_reference(docs, query)


def bm25p_no_b(docs, query, k1=1.2, b=0.75, delta=1.0):
    return bm25_plus_reference(docs, query, k1, 0.75, delta)


def bm25p_nan_unknown(docs, query, k1=1.2, b=0.75, delta=1.0):
    if any(all(t not in d for d in docs) for t in query):
        return np.full(len(docs), np.nan)
    return bm25_plus_reference(docs, query, k1, b, delta)


def bm25p_list(docs, query, k1=1.2, b=0.75, delta=1.0):
    return [float(x) for x in bm25_plus_reference(docs, query, k1, b, delta)[:-1]]


def bm25p_mutates(docs, query, k1=1.2, b=0.75, delta=1.0):
    out = bm25_plus_reference(docs, query, k1, b, delta)
    query.append("extra")
    return out


def bm25p_no_return(docs, query, k1=1.2, b=0.75, delta=1.0):
    bm25_plus_reference(docs, query, k1, b, delta)


def test_bm25_plus_catalogue():
    assert check_bm25_plus(bm25p_numpy).passed and check_bm25_plus(bm25p_loops).passed
    _rejected(check_bm25_plus, _variant(delta_everywhere=True), "only when f(t, d) > 0")
    _rejected(check_bm25_plus, _variant(delta_times_idf=False), "multiplied by idf")
    _rejected(check_bm25_plus, _variant(idf="ln"), "ln(N / df)")
    _rejected(check_bm25_plus, _variant(query_once=True), "once per occurrence")
    _rejected(check_bm25_plus, bm25p_defaults_only, "use the arguments")
    _rejected(check_bm25_plus, bm25p_no_b, "1 - b + b")
    _rejected(check_bm25_plus, bm25p_nan_unknown, "nan")
    _rejected(check_bm25_plus, bm25p_list, "shape")
    _rejected(check_bm25_plus, bm25p_mutates, "the argument `query` is not what it was")
    _rejected(check_bm25_plus, bm25p_no_return, "returned None")


def test_bm25_plus_reference_with_delta_zero_is_the_package_bm25():
    from nlp_helpers.tfidf.bm25 import BM25

    model = BM25(tokenizer=str.split, lowercase=False).fit([" ".join(d) for d in BM25_PLUS_DOCS])
    for q in (["qantas", "strike"], ["race", "race", "yacht"], ["the", "airline"]):
        np.testing.assert_allclose(
            bm25_plus_reference(BM25_PLUS_DOCS, q, delta=0.0), model.scores(" ".join(q)), rtol=1e-12
        )


# --------------------------------------------------------------------------- shifted PPMI
def sppmi_numpy(counts, k):
    f = np.asarray(counts, dtype=float)
    e = f.sum(axis=1, keepdims=True) * f.sum(axis=0, keepdims=True) / f.sum()
    with np.errstate(divide="ignore"):
        p = np.log2(f / e)
    return np.maximum(p - np.log2(k), 0.0)


def sppmi_loops(counts, k):
    f = [list(map(float, r)) for r in np.asarray(counts).tolist()]
    total = sum(map(sum, f))
    rows = [sum(r) for r in f]
    cols = [sum(c) for c in zip(*f)]
    return np.array(
        [
            [max(math.log2(x * total / (rows[i] * cols[j])) - math.log2(k), 0.0) if x else 0.0 for j, x in enumerate(r)]
            for i, r in enumerate(f)
        ]
    )


def sppmi_ln(counts, k):
    return (
        sppmi_numpy(counts, k)
        if False
        else np.maximum(np.log(np.where(np.asarray(counts) > 0, 2 ** (sppmi_raw(counts)), 1.0)) - np.log(k), 0.0)
    )


def sppmi_raw(counts):
    f = np.asarray(counts, dtype=float)
    e = f.sum(axis=1, keepdims=True) * f.sum(axis=0, keepdims=True) / f.sum()
    with np.errstate(divide="ignore"):
        return np.log2(f / e)


def sppmi_clip_first(counts, k):
    return np.maximum(sppmi_raw(counts), 0.0) - np.log2(k)


def sppmi_no_shift(counts, k):
    return np.maximum(sppmi_raw(counts), 0.0)


def sppmi_neg_inf(counts, k):
    return sppmi_raw(counts) - np.log2(k)


def sppmi_alpha(counts, k):
    f = np.asarray(counts, dtype=float)
    pc = f.sum(axis=0) ** 0.75
    pc /= pc.sum()
    with np.errstate(divide="ignore"):
        p = np.log2((f / f.sum()) / (f.sum(axis=1, keepdims=True) / f.sum() * pc))
    return np.maximum(p - np.log2(k), 0.0)


def sppmi_mutates(counts, k):
    counts /= counts.sum()
    return sppmi_numpy(counts * 1000, k)


def sppmi_no_return(counts, k):
    sppmi_numpy(counts, k)


def sppmi_arrays_only(counts, k):  # "a 2-D numpy array or nested list": works on arrays only
    e = counts.sum(axis=1, keepdims=True) * counts.sum(axis=0, keepdims=True) / counts.sum()
    with np.errstate(divide="ignore"):
        return np.maximum(np.log2(counts / e) - np.log2(k), 0.0)


def test_shifted_ppmi_catalogue():
    assert check_shifted_ppmi(sppmi_numpy).passed and check_shifted_ppmi(sppmi_loops).passed
    _rejected(check_shifted_ppmi, sppmi_ln, "natural logarithms")
    _rejected(check_shifted_ppmi, sppmi_clip_first, "subtract first")
    _rejected(check_shifted_ppmi, sppmi_no_shift, "plain PPMI")
    _rejected(check_shifted_ppmi, sppmi_neg_inf, "never seen together")
    _rejected(check_shifted_ppmi, sppmi_alpha, "PMI = log2")
    _rejected(check_shifted_ppmi, sppmi_mutates, "the argument `counts` is not what it was")
    _rejected(check_shifted_ppmi, sppmi_no_return, "returned None")
    _rejected(check_shifted_ppmi, sppmi_arrays_only, "nested list")


# --------------------------------------------------------------------------- by hand: P@5 and AP, PPMI
def test_retrieval_by_hand_catalogue():
    from nlp_helpers.tfidf.by_hand_exercises import check_retrieval_by_hand

    exact = (2 / 5, (1 / 2 + 2 / 3 + 3 / 7) / 4)  # hand-worked: relevant at ranks 2, 3, 7; 4 relevant in all
    assert check_retrieval_by_hand(lambda: exact).passed
    assert check_retrieval_by_hand(lambda: [0.4, 0.399]).passed  # rounded to 3 decimals, as a list
    _rejected(check_retrieval_by_hand, lambda: (2 / 4, exact[1]), "not by the number of relevant")
    _rejected(check_retrieval_by_hand, lambda: (0.6, exact[1]), "ranks 1 to 5")
    _rejected(check_retrieval_by_hand, lambda: (0.4, (1 / 2 + 2 / 3 + 3 / 7) / 3), "all 4 relevant")
    every_rank = (0 + 1 / 2 + 2 / 3 + 2 / 4 + 2 / 5 + 2 / 6 + 3 / 7 + 3 / 8) / 8
    _rejected(check_retrieval_by_hand, lambda: (0.4, every_rank), "not at every rank")
    _rejected(check_retrieval_by_hand, lambda: 0.4, "tuple of two numbers")
    _rejected(check_retrieval_by_hand, lambda: None, "returned None")


def test_ppmi_by_hand_catalogue():
    from nlp_helpers.tfidf.by_hand_exercises import check_ppmi_by_hand

    assert check_ppmi_by_hand(lambda: (1.0, 0.0)).passed  # log2(6*200/(20*30)) = 1; log2(1*200/(20*60)) < 0
    assert check_ppmi_by_hand(lambda: (math.log2(2), max(math.log2(1 / 6), 0))).passed
    _rejected(check_ppmi_by_hand, lambda: (math.log(2), 0.0), "natural log")
    _rejected(check_ppmi_by_hand, lambda: (1.0, math.log2(1 / 6)), "clips it at 0")
    _rejected(check_ppmi_by_hand, lambda: (math.log2(6 / 600), 0.0), "probabilities first")
    _rejected(check_ppmi_by_hand, lambda: (2.0, 0.0), "not right yet")
    _rejected(check_ppmi_by_hand, lambda: None, "returned None")
