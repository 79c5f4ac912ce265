"""The n-gram chapter's checkers accept independent right answers and reject typical mistakes with a
specific hint. The right answers below are written from the formulas (dicts and Counters), not from
the package or the checkers' references."""

from __future__ import annotations

import math
from collections import Counter, defaultdict

import pytest

from nlp_helpers.exercises.checker import STRICT_ENV
from nlp_helpers.ngram.exercises import (
    CATS,
    CATS_HELD_OUT,
    check_mkn_discounts,
    check_modified_kn,
    check_ngram_mle,
    check_sentence_perplexity,
    check_tune_add_k,
)
from nlp_helpers.ngram.models import NGramLM
from tests.exercise_helpers import stub


# ----- independent right answers ------------------------------------------------------------
def _grams(sentences, n):
    """(context, word) of every predicted position, with n-1 <s> in front and one </s>."""
    for s in sentences:
        toks = ["<s>"] * (n - 1) + list(s) + ["</s>"]
        for i in range(n - 1, len(toks)):
            yield tuple(toks[i - n + 1 : i]), toks[i]


def ngram_mle(sentences, context, word):
    pairs = Counter(_grams(sentences, len(context) + 1))
    total = sum(c for (h, _), c in pairs.items() if h == tuple(context))
    return pairs[(tuple(context), word)] / total if total else 0.0


def _add_k_pp(train, held_out, k, *, extra_vocab=2, count_end=True):
    words = {w for s in train for w in s}
    pairs = Counter(_grams(train, 2))
    ctx = Counter()
    for (h, _), c in pairs.items():
        ctx[h] += c
    V = len(words) + extra_vocab
    logs = []
    for s in held_out:
        toks = ["<s>"] + [w if w in words else "<UNK>" for w in s] + (["</s>"] if count_end else [])
        for h, w in zip(toks, toks[1:]):
            logs.append(math.log2((pairs[((h,), w)] + k) / (ctx[(h,)] + k * V)))
    return 2 ** (-sum(logs) / len(logs))


def tune_add_k(train, held_out, ks):
    pps = [_add_k_pp(train, held_out, k) for k in ks]
    return ks[pps.index(min(pps))], pps


def sentence_perplexity(lm, sentence):
    toks = ["<s>"] * (lm.n - 1) + list(sentence) + ["</s>"]
    logs = [lm.logprob(toks[i], toks[i - lm.n + 1 : i] if lm.n > 1 else []) for i in range(lm.n - 1, len(toks))]
    return 2 ** (-sum(logs) / len(logs))


def mkn_discounts(counts):
    n = Counter(counts)
    y = n[1] / (n[1] + 2 * n[2])
    return 1 - 2 * y * n[2] / n[1], 2 - 3 * y * n[3] / n[2], 3 - 4 * y * n[4] / n[3]


def modified_kn(
    sentences,
    n,
    discounts=None,
    *,
    lower_uses_counts=False,
    one_discount=False,
    gamma_one=False,
    none="estimate",
):
    """Interpolated modified Kneser-Ney from dicts (the wrong-answer switches make typical mistakes)."""
    words = {w for s in sentences for w in s}
    V = len(words | {"</s>", "<UNK>"})
    table = {n: Counter(h + (w,) for h, w in _grams(sentences, n))}
    left = defaultdict(set)
    for g in table[n]:
        for k in range(1, n):
            left[g[n - k :]].add(g[n - k - 1])
    for k in range(1, n):
        table[k] = Counter({g: len(s) for g, s in left.items() if len(g) == k})
        if lower_uses_counts:
            table[k] = Counter(h + (w,) for h, w in _grams(sentences, k))
    if discounts is None:
        if none == "raise":
            raise TypeError("'NoneType' object is not subscriptable")
        if none == "top":  # the top order's triple for every order
            discounts = [mkn_discounts(list(table[n].values()))] * n
        elif none == "raw":  # lower orders estimated from raw counts, not continuation counts
            discounts = [mkn_discounts([c for _, c in Counter(_grams(sentences, k)).items()]) for k in range(1, n)]
            discounts.append(mkn_discounts(list(table[n].values())))
        else:
            discounts = [mkn_discounts(list(table[k].values())) for k in range(1, n + 1)]
    stats = {}
    for k, t in table.items():
        total, by_class = Counter(), defaultdict(lambda: [0, 0, 0])
        for g, c in t.items():
            total[g[:-1]] += c
            by_class[g[:-1]][min(c, 3) - 1] += 1
        stats[k] = total, by_class

    def disc(k, c):
        d = discounts[k - 1]
        return 0.0 if c == 0 else d[0] if one_discount else d[min(c, 3) - 1]

    def prob(word, context):
        word = word if word in words or word == "</s>" else "<UNK>"
        context = [w if w in words or w in ("<s>", "</s>") else "<UNK>" for w in context]
        p = 1 / V
        for k in range(1, n + 1):
            h = tuple(context)[len(context) - k + 1 :] if k > 1 else ()
            total, by_class = stats[k]
            if total[h] == 0:
                continue
            c = table[k][h + (word,)]
            d = discounts[k - 1]
            gamma = sum(x * m for x, m in zip(d, by_class[h])) / total[h]
            if gamma_one:
                gamma = d[0] * sum(by_class[h]) / total[h]
            p = max(c - disc(k, c), 0) / total[h] + gamma * p
        return p

    return prob


# ----- the same answers in other styles (loops instead of Counters, numpy, natural logs) ---------------
def ngram_mle_loops(sentences, context, word):
    n = len(context) + 1
    hits = total = 0
    for s in sentences:
        toks = ["<s>"] * (n - 1) + list(s) + ["</s>"]
        for i in range(n - 1, len(toks)):
            if toks[i - n + 1 : i] == list(context):
                total += 1
                hits += toks[i] == word
    return hits / total if total > 0 else 0.0


def tune_add_k_natural_logs(train, held_out, ks):
    import numpy as np

    vocab = {w for s in train for w in s}
    V = len(vocab) + 2
    big, ctx = Counter(), Counter()
    for s in train:
        t = ["<s>", *s, "</s>"]
        big.update(zip(t[:-1], t[1:]))
        ctx.update(t[:-1])
    ev = [
        pair
        for s in held_out
        for pair in zip(
            ["<s>", *[w if w in vocab else "<UNK>" for w in s]], [*[w if w in vocab else "<UNK>" for w in s], "</s>"]
        )
    ]
    pps = []
    for k in ks:
        p = np.array([(big[e] + k) / (ctx[e[0]] + k * V) for e in ev])
        pps.append(float(np.exp(-np.log(p).mean())))  # e ** H with natural logs: the same perplexity
    return ks[int(np.argmin(pps))], pps


def sentence_perplexity_numpy(lm, sentence):
    import numpy as np

    toks = ["<s>"] * (lm.n - 1) + list(sentence) + ["</s>"]
    logs = np.array(
        [lm.logprob(toks[i], toks[i - lm.n + 1 : i] if lm.n > 1 else []) for i in range(lm.n - 1, len(toks))]
    )
    return float(np.exp2(-logs.mean()))


def mkn_discounts_numpy(counts):
    import numpy as np

    c = np.asarray(counts)
    n1, n2, n3, n4 = (int((c == r).sum()) for r in (1, 2, 3, 4))
    y = n1 / (n1 + 2 * n2)
    return (float(1 - 2 * y * n2 / n1), float(2 - 3 * y * n3 / n2), float(3 - 4 * y * n4 / n3))


def modified_kn_recursive(sentences, n, discounts=None):
    """The same model as a recursion over orders, with discounts=None estimated order by order."""
    words = {w for s in sentences for w in s}
    V = len(words | {"</s>", "<UNK>"})  # <UNK> may be a training word already
    top = Counter(h + (w,) for h, w in _grams(sentences, n))
    tables = {n: top}
    for k in range(n - 1, 0, -1):  # continuation counts: distinct left extensions
        tables[k] = Counter(g[1:] for g in tables[k + 1])
    if discounts is None:
        discounts = [mkn_discounts(list(tables[k].values())) for k in range(1, n + 1)]

    def p(word, ctx, k):
        if k == 0:
            return 1 / V
        h = tuple(ctx[len(ctx) - k + 1 :]) if k > 1 else ()
        rows = {g: c for g, c in tables[k].items() if g[:-1] == h}
        lower = p(word, ctx, k - 1)
        if not rows:
            return lower
        total = sum(rows.values())
        d = discounts[k - 1]
        c = rows.get(h + (word,), 0)
        gamma = sum(d[min(v, 3) - 1] for v in rows.values()) / total
        return (max(c - (d[min(c, 3) - 1] if c else 0), 0)) / total + gamma * lower

    def prob(word, context):
        word = word if word in words or word == "</s>" else "<UNK>"
        context = [w if w in words or w in ("<s>", "</s>") else "<UNK>" for w in context]
        return p(word, context, n)

    return prob


def test_hand_worked_add_one():
    """P(the dog ran) under add-one on CATS, from the counts by hand: |V| = 7 words + </s> + <UNK>."""
    p = (3 + 1) / (5 + 9) * (1 + 1) / (4 + 9) * (0 + 1) / (2 + 9) * (1 + 1) / (1 + 9)
    assert NGramLM(2, "laplace").fit(CATS).perplexity([["the", "dog", "ran"]]) == pytest.approx(
        p ** (-1 / 4), rel=1e-12
    )
    assert _add_k_pp(CATS, [["the", "dog", "ran"]], 1.0) == pytest.approx(p ** (-1 / 4), rel=1e-12)
    assert len(CATS_HELD_OUT) == 3


@pytest.mark.parametrize(
    "checker", [check_ngram_mle, check_tune_add_k, check_sentence_perplexity, check_mkn_discounts, check_modified_kn]
)
def test_stubs_are_not_yet(checker):
    assert checker(stub).status == "not yet"


# ----- typical wrong answers -------------------------------------------------------------------
def ngram_mle_one_start(sentences, context, word):  # one <s> whatever the order
    pairs = Counter()
    for s in sentences:
        toks = ["<s>", *s, "</s>"]
        m = len(context)
        for i in range(max(m, 1), len(toks)):
            pairs[(tuple(toks[i - m : i]), toks[i])] += 1
    total = sum(c for (h, _), c in pairs.items() if h == tuple(context))
    return pairs[(tuple(context), word)] / total if total else 0.0


def ngram_mle_counts_start(sentences, context, word):  # the unigram denominator counts <s>
    if not context:
        toks = [t for s in sentences for t in ["<s>", *s, "</s>"]]
        return toks.count(word) / len(toks)
    return ngram_mle(sentences, context, word)


def ngram_mle_divides_by_zero(sentences, context, word):
    pairs = Counter(_grams(sentences, len(context) + 1))
    return pairs[(tuple(context), word)] / sum(c for (h, _), c in pairs.items() if h == tuple(context))


def ngram_mle_no_end(sentences, context, word):  # forgets </s>
    n, pairs = len(context) + 1, Counter()
    for s in sentences:
        toks = ["<s>"] * (n - 1) + list(s)
        for i in range(n - 1, len(toks)):
            pairs[(tuple(toks[i - n + 1 : i]), toks[i])] += 1
    total = sum(c for (h, _), c in pairs.items() if h == tuple(context))
    return pairs[(tuple(context), word)] / total if total else 0.0


def ngram_mle_prints(sentences, context, word):  # prints instead of returning
    print(ngram_mle(sentences, context, word))


def tune_add_k_counts_start(train, held_out, ks):  # |V| also counts <s>
    pps = [_add_k_pp(train, held_out, k, extra_vocab=3) for k in ks]
    return ks[pps.index(min(pps))], pps


def tune_add_k_mixed_base(train, held_out, ks):  # log2 inside, e ** outside
    pps = [math.exp(math.log2(_add_k_pp(train, held_out, k))) for k in ks]
    return ks[pps.index(min(pps))], pps


def tune_add_k_list(train, held_out, ks):  # returns a list, not the pair
    return tune_add_k(train, held_out, ks)[1]


def perplexity_mixed_base(lm, sentence):  # log2 from lm.logprob, then math.exp
    toks = ["<s>"] * (lm.n - 1) + list(sentence) + ["</s>"]
    logs = [lm.logprob(toks[i], toks[i - lm.n + 1 : i] if lm.n > 1 else []) for i in range(lm.n - 1, len(toks))]
    return math.exp(-sum(logs) / len(logs))


def perplexity_counts_start(lm, sentence):  # N also counts the <s> padding
    toks = ["<s>"] * (lm.n - 1) + list(sentence) + ["</s>"]
    logs = [lm.logprob(toks[i], toks[i - lm.n + 1 : i] if lm.n > 1 else []) for i in range(lm.n - 1, len(toks))]
    return 2 ** (-sum(logs) / (len(logs) + lm.n - 1))


def discounts_positional(counts):  # n_r read from the list of counts, not counted
    y = counts[0] / (counts[0] + 2 * counts[1])
    return 1 - 2 * y * counts[1] / counts[0], 2 - 3 * y * counts[2] / counts[1], 3 - 4 * y * counts[3] / counts[2]


def discounts_as_list(counts):
    return list(mkn_discounts(counts))


def tune_add_k_no_unk(train, held_out, ks):
    pps = [_add_k_pp(train, held_out, k, extra_vocab=1) for k in ks]
    return ks[pps.index(min(pps))], pps


def tune_add_k_no_end(train, held_out, ks):
    pps = [_add_k_pp(train, held_out, k, count_end=False) for k in ks]
    return ks[pps.index(min(pps))], pps


def tune_add_k_max(train, held_out, ks):
    pps = [_add_k_pp(train, held_out, k) for k in ks]
    return ks[pps.index(max(pps))], pps


def perplexity_without_end(lm, sentence):
    toks = ["<s>"] * (lm.n - 1) + list(sentence)
    logs = [lm.logprob(toks[i], toks[i - lm.n + 1 : i] if lm.n > 1 else []) for i in range(lm.n - 1, len(toks))]
    return 2 ** (-sum(logs) / len(logs))


def perplexity_from_probs(lm, sentence):
    toks = ["<s>"] * (lm.n - 1) + list(sentence) + ["</s>"]
    logs = [math.log2(lm.prob(toks[i], toks[i - lm.n + 1 : i] if lm.n > 1 else [])) for i in range(lm.n - 1, len(toks))]
    return 2 ** (-sum(logs) / len(logs))


def perplexity_skips_zeros(lm, sentence):
    toks = ["<s>"] * (lm.n - 1) + list(sentence) + ["</s>"]
    logs = [lm.logprob(toks[i], toks[i - lm.n + 1 : i] if lm.n > 1 else []) for i in range(lm.n - 1, len(toks))]
    logs = [x for x in logs if x > -math.inf]
    return 2 ** (-sum(logs) / len(logs))


def discounts_wrong_y(counts):
    n = Counter(counts)
    y = n[1] / (n[1] + n[2])
    return 1 - 2 * y * n[2] / n[1], 2 - 3 * y * n[3] / n[2], 3 - 4 * y * n[4] / n[3]


def discounts_wrong_d3(counts):
    d1, d2, _ = mkn_discounts(counts)
    n = Counter(counts)
    y = n[1] / (n[1] + 2 * n[2])
    return d1, d2, 3 - 4 * y * sum(v for c, v in n.items() if c >= 4) / n[3]


# The right and wrong answers above are judged in test_ngram_exercise_catalogue.py (CATALOGUE).


def test_strict_mode_raises(monkeypatch):
    monkeypatch.setenv(STRICT_ENV, "1")
    with pytest.raises(AssertionError):
        check_tune_add_k(tune_add_k_max)
