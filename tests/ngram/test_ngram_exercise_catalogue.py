"""Catalogue of the n-gram chapter's exercises checked in ``nlp_helpers/ngram/exercises.py`` (the perplexity
page's second exercise has its own, ``test_ngram_perplexity_exercise_catalogue.py``): requirements, correct
answers in two styles (accepted) and one typical wrong answer or more per requirement (rejected with a hint
naming the mistake). The answers are written in ``test_ngram_exercises.py`` from the formulas, with dicts and
Counters, not from the package.

* ``ngram_mle(sentences, context, word)``: n - 1 ``<s>`` in front and one ``</s>`` per sentence; the
  denominator counts the predicted tokens after ``context`` (never ``<s>`` in the unigram model); 0.0 for a
  context never seen (no error); a Python float.
* ``sentence_perplexity(lm, sentence)``: only ``lm.n`` and ``lm.logprob``; ``lm.n - 1`` ``<s>`` and one
  ``</s>``, N counts the words and ``</s>``; base 2 kept; a zero probability gives inf, not an error.
* ``tune_add_k(train, held_out, ks)``: the pair ``(best_k, perplexities)``, the perplexities in the order of
  ``ks`` (not sorted); the best k has the lowest perplexity; |V| = the training words + ``</s>`` + ``<UNK>`` (not ``<s>``, not the held-out words); held-out
  words never seen are ``<UNK>``; every word and ``</s>`` predicted, ``<s>`` never; one log base.
* ``mkn_discounts(counts)``: a tuple of three floats; n_r are counts of counts (the list in any order); Chen
  and Goodman's Y and D1, D2, D3+ (counts above 4 play no part).
* ``modified_kn(sentences, n, discounts=None)``: continuation counts below the top order; a discount per
  count class; gamma from the count classes; ``discounts=None`` estimates each order's own triple (from
  continuation counts below the top); |V| = the words, ``</s>`` and ``<UNK>``; an unseen context passes all
  its mass down; an unknown word, in ``word`` or ``context``, is ``<UNK>``; only the last n - 1 context
  tokens count; n = 1 allowed.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

from nlp_helpers.ngram.exercises import (
    check_mkn_discounts,
    check_modified_kn,
    check_ngram_mle,
    check_sentence_perplexity,
    check_tune_add_k,
)
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test
from tests.ngram.test_ngram_exercises import (
    _add_k_pp,
    _grams,
    discounts_as_list,
    discounts_positional,
    discounts_wrong_d3,
    discounts_wrong_y,
    mkn_discounts,
    mkn_discounts_numpy,
    modified_kn,
    modified_kn_recursive,
    ngram_mle,
    ngram_mle_counts_start,
    ngram_mle_divides_by_zero,
    ngram_mle_loops,
    ngram_mle_no_end,
    ngram_mle_one_start,
    ngram_mle_prints,
    perplexity_counts_start,
    perplexity_from_probs,
    perplexity_mixed_base,
    perplexity_skips_zeros,
    perplexity_without_end,
    sentence_perplexity,
    sentence_perplexity_numpy,
    tune_add_k,
    tune_add_k_counts_start,
    tune_add_k_list,
    tune_add_k_max,
    tune_add_k_mixed_base,
    tune_add_k_natural_logs,
    tune_add_k_no_end,
    tune_add_k_no_unk,
)


# --------------------------------------------------------------------------------------------- ngram_mle
def ngram_mle_fraction(sentences, context, word):  # "return a Python float": an exact Fraction is not one
    pairs = Counter(_grams(sentences, len(context) + 1))
    total = sum(c for (h, _), c in pairs.items() if h == tuple(context))
    return Fraction(pairs[(tuple(context), word)], total) if total else Fraction(0)


# ----------------------------------------------------------------------------------- sentence_perplexity
def perplexity_by_the_model(lm, sentence):  # "using only lm.n and lm.logprob": one call of lm.perplexity
    return lm.perplexity([sentence])


def perplexity_zero_is_an_error(lm, sentence):  # "a zero probability must give inf, not an error"
    toks = ["<s>"] * (lm.n - 1) + list(sentence) + ["</s>"]
    bits = 0.0
    for i in range(lm.n - 1, len(toks)):
        p = 2 ** lm.logprob(toks[i], toks[i - lm.n + 1 : i] if lm.n > 1 else [])
        bits -= math.log2(p)  # math domain error for p = 0
    return 2 ** (bits / (len(toks) - lm.n + 1))


# ------------------------------------------------------------------------------------------ tune_add_k
def tune_add_k_held_out_vocabulary(train, held_out, ks):  # |V| also counts the held-out words never seen
    unseen = {w for s in held_out for w in s} - {w for s in train for w in s}
    pps = [_add_k_pp(train, held_out, k, extra_vocab=2 + len(unseen)) for k in ks]
    return ks[pps.index(min(pps))], pps


def tune_add_k_sorted_ks(train, held_out, ks):  # "in the order of ks": the ks sorted first
    ks = sorted(ks)
    pps = [_add_k_pp(train, held_out, k) for k in ks]
    return ks[pps.index(min(pps))], pps


def tune_add_k_predicts_start(train, held_out, ks):  # N also counts one <s> per held-out sentence
    n = sum(len(s) + 1 for s in held_out)
    pps = [_add_k_pp(train, held_out, k) ** (n / (n + len(held_out))) for k in ks]
    return ks[pps.index(min(pps))], pps


# ----------------------------------------------------------------------------------------- modified_kn
def kn_continuation_counts_nowhere(sentences, n, discounts=None):  # raw counts at every order
    return modified_kn(sentences, n, discounts, lower_uses_counts=True)


def kn_one_discount(sentences, n, discounts=None):  # D1 for every count
    return modified_kn(sentences, n, discounts, one_discount=True)


def kn_gamma_from_d1(sentences, n, discounts=None):  # gamma = D1 N1+(h .) / c(h)
    return modified_kn(sentences, n, discounts, gamma_one=True)


def kn_none_raises(sentences, n, discounts=None):  # discounts=None not handled
    return modified_kn(sentences, n, discounts, none="raise")


def kn_top_order_discounts(sentences, n, discounts=None):  # the top order's triple for every order
    return modified_kn(sentences, n, discounts, none="top")


def kn_raw_count_discounts(sentences, n, discounts=None):  # lower orders' triples from raw counts
    return modified_kn(sentences, n, discounts, none="raw")


def kn_written_out(sentences, n, discounts=None, *, vocab_extra=("</s>", "<UNK>"), unseen="down", unk=True, cut=True):
    """Interpolated modified Kneser-Ney, order by order (the switches make one typical slip each)."""
    words = {w for s in sentences for w in s}
    V = len(words | set(vocab_extra))
    tables = {n: Counter(h + (w,) for h, w in _grams(sentences, n))}
    for k in range(n - 1, 0, -1):
        tables[k] = Counter(g[1:] for g in tables[k + 1])
    if discounts is None:
        discounts = [mkn_discounts(list(tables[k].values())) for k in range(1, n + 1)]
    totals, removed = {k: Counter() for k in tables}, {k: Counter() for k in tables}
    for k, table in tables.items():
        for g, c in table.items():
            totals[k][g[:-1]] += c
            removed[k][g[:-1]] += discounts[k - 1][min(c, 3) - 1]

    def known(w):
        return w if not unk or w in words or w in ("<s>", "</s>") else "<UNK>"

    def prob(word, context):
        word, context = known(word), [known(w) for w in context]
        p = 1 / V
        for k in range(1, n + 1):
            if k == n and not cut:  # the whole context at the top order, however long
                h = tuple(context)
            else:
                h = tuple(context[len(context) - k + 1 :]) if k > 1 else ()
            if totals[k][h] == 0:
                if unseen == "zero":
                    return 0.0
                continue
            c = tables[k][h + (word,)]
            p = (max(c - (discounts[k - 1][min(c, 3) - 1] if c else 0), 0) + removed[k][h] * p) / totals[k][h]
        return p

    return prob


def kn_no_unk_in_vocabulary(sentences, n, discounts=None):  # |V| = the words and </s> only
    return kn_written_out(sentences, n, discounts, vocab_extra=("</s>",))


def kn_unseen_context_is_zero(sentences, n, discounts=None):  # "a context never seen passes all its mass down"
    return kn_written_out(sentences, n, discounts, unseen="zero")


def kn_no_unk_mapping(sentences, n, discounts=None):  # "an unknown word (in word or context) is <UNK>"
    return kn_written_out(sentences, n, discounts, unk=False)


def kn_whole_context(sentences, n, discounts=None):  # "only its last n - 1 are used": the whole context
    return kn_written_out(sentences, n, discounts, cut=False)


def kn_bigrams_and_up(sentences, n, discounts=None):  # "n >= 1": the unigram model refused
    if n < 2:
        raise ValueError("n must be at least 2")
    return kn_written_out(sentences, n, discounts)


CATALOGUE = {
    check_ngram_mle: Catalogue(
        correct=[ngram_mle, ngram_mle_loops],
        wrong=[
            Wrong(ngram_mle_one_start, "n - 1 <s>"),
            Wrong(ngram_mle_counts_start, "never <s>"),
            Wrong(ngram_mle_divides_by_zero, ("ZeroDivisionError", "return 0.0")),
            Wrong(ngram_mle_no_end, "</s>"),
            Wrong(ngram_mle_prints, "None"),
            Wrong(ngram_mle_fraction, "Python float"),
        ],
    ),
    check_sentence_perplexity: Catalogue(
        correct=[sentence_perplexity, sentence_perplexity_numpy],
        wrong=[
            Wrong(perplexity_without_end, "</s>"),
            Wrong(perplexity_from_probs, "only lm.n and lm.logprob"),
            Wrong(perplexity_by_the_model, "only lm.n and lm.logprob"),
            Wrong(perplexity_skips_zeros, "should be inf"),
            Wrong(perplexity_zero_is_an_error, ("['Sam', 'Sam']", "inf, not an error")),
            Wrong(perplexity_mixed_base, "log base"),
            Wrong(perplexity_counts_start, "N = 4"),
        ],
    ),
    check_tune_add_k: Catalogue(
        correct=[tune_add_k, tune_add_k_natural_logs],
        wrong=[
            Wrong(tune_add_k_no_unk, "<UNK>"),
            Wrong(tune_add_k_no_end, "</s>"),
            Wrong(tune_add_k_max, "LOWEST"),
            Wrong(tune_add_k_counts_start, "|V| = the training words + </s> + <UNK>"),
            Wrong(tune_add_k_held_out_vocabulary, "|V| = the training words + </s> + <UNK>"),
            Wrong(tune_add_k_predicts_start, "never <s>"),
            Wrong(tune_add_k_mixed_base, "log base"),
            Wrong(tune_add_k_list, "should return a pair"),
            Wrong(tune_add_k_sorted_ks, "in the order of ks"),
        ],
    ),
    check_mkn_discounts: Catalogue(
        correct=[mkn_discounts, mkn_discounts_numpy],
        wrong=[
            Wrong(discounts_wrong_y, "Y = n1 / (n1 + 2 n2)"),
            Wrong(discounts_wrong_d3, "counts above 4"),
            Wrong(discounts_positional, "counts of counts"),
            Wrong(discounts_as_list, "a tuple (D1, D2, D3+)"),
        ],
    ),
    check_modified_kn: Catalogue(
        correct=[modified_kn, modified_kn_recursive, kn_written_out],
        wrong=[
            Wrong(kn_continuation_counts_nowhere, "continuation counts"),
            Wrong(kn_one_discount, "Discount per count class"),
            Wrong(kn_gamma_from_d1, "gamma"),
            Wrong(kn_none_raises, "discounts=None"),
            Wrong(kn_top_order_discounts, "each order's own"),
            Wrong(kn_raw_count_discounts, "continuation counts"),
            Wrong(kn_no_unk_in_vocabulary, "|V| counts the words, </s> and <UNK>"),
            Wrong(kn_unseen_context_is_zero, "unseen context passes all its mass down"),
            Wrong(kn_no_unk_mapping, ("when the training sentences contain <UNK>", "is <UNK>")),
            Wrong(kn_whole_context, "last n - 1 tokens"),
            Wrong(kn_bigrams_and_up, "n = 1"),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
