"""Checkers for the exercises of the chapter *Tokenization* (``book/tokenization.ipynb``).

Each ``check_*`` calls the student's function on the chapter's examples, compares it
with an independent reference (a regular expression written here, Jurafsky & Martin's
worked examples, :mod:`nlp_helpers.tokenization.segmentation`, ``nltk.edit_distance``) and tries
the edge case students forget.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.seeds import seed as _seed
from nlp_helpers.tokenization.bpe import merge_pair
from nlp_helpers.tokenization.segmentation import max_match as _max_match

__all__ = ["check_find_prices", "check_bpe_merge_step", "check_max_match", "check_min_edit_distance"]

# Dollar amounts: digits, optional thousands groups ",ddd", optional decimal part ".d+".
_PRICE_RE = re.compile(r"\$\d+(?:,\d{3})*(?:\.\d+)?")
PRICE_TEXTS = [
    "Breakfast costs $45.55, lunch $12 and the hall $1,200.50.",
    "Tickets were $3 each, or $20 for ten.",
    "The price rose from 45.55 to 50 dollars.",
    "It cost $ 5 and then $1,000,000!",
]

# Jurafsky & Martin (3rd ed.), section 2.5.2: the BPE training corpus, "_" marks the end of a word.
JM_BPE_CORPUS = {
    ("l", "o", "w", "_"): 5,
    ("l", "o", "w", "e", "s", "t", "_"): 2,
    ("n", "e", "w", "e", "r", "_"): 6,
    ("w", "i", "d", "e", "r", "_"): 3,
    ("n", "e", "w", "_"): 2,
}

# Jurafsky & Martin, section 2.4: MaxMatch on a sentence written without spaces.
MAXMATCH_VOCAB = {"we", "can", "canon", "on", "only", "see", "a", "ash", "ort", "short", "distance", "ahead", "head"}


def check_find_prices(find_prices: Callable) -> CheckResult:
    """``find_prices(text)``: every dollar amount (``$45.55``, ``$12``, ``$1,200.50``) in order."""
    with Checker("A regular expression for prices") as ex:
        for text in PRICE_TEXTS:
            got = ex.call(find_prices, text)
            ex.expect(isinstance(got, list), f"find_prices should return a list of strings, got {type(got).__name__}.")
            ex.expect_equal(
                got,
                _PRICE_RE.findall(text),
                what=f"find_prices({text!r})",
                hint="A price is '$', digits, optional ',ddd' groups and an optional '.' with digits; "
                "a sentence-final '.' is not part of it, and a '$' without digits is no price.",
            )
        ex.expect_equal(ex.call(find_prices, ""), [], what='find_prices("")', hint="No text, no prices.")
    return ex.result


def _reference_merge_step(word_freqs: dict) -> tuple[tuple[str, str], dict]:
    counts: Counter = Counter()
    for word, freq in word_freqs.items():
        for pair in zip(word, word[1:]):
            counts[pair] += freq
    best = min(counts, key=lambda p: (-counts[p], p))
    return best, {tuple(merge_pair(w, best, best[0] + best[1])): f for w, f in word_freqs.items()}


def check_bpe_merge_step(bpe_merge_step: Callable) -> CheckResult:
    """``bpe_merge_step(word_freqs)`` -> ``(best_pair, new_word_freqs)``: one BPE training step."""
    with Checker("One BPE merge by hand") as ex:
        corpus = dict(JM_BPE_CORPUS)
        got = ex.call(bpe_merge_step, corpus)
        ex.expect(
            isinstance(got, tuple) and len(got) == 2,
            f"bpe_merge_step should return a pair (best_pair, new_word_freqs), got {type(got).__name__}.",
        )
        pair, new = got
        ex.expect_equal(
            tuple(pair),
            ("e", "r"),
            what="the first merge on J&M's corpus",
            hint="Count each adjacent pair once per occurrence, weighted by the word's frequency: "
            "('e', 'r') and ('r', '_') both occur 9 times; the tie goes to the smaller pair.",
        )
        ex.expect_equal(
            corpus,
            JM_BPE_CORPUS,
            what="the input word_freqs after the call",
            hint="Build a new dict; do not modify the one you were given.",
        )
        ex.expect_equal(
            dict(new),
            _reference_merge_step(JM_BPE_CORPUS)[1],
            what="new_word_freqs",
            hint="Replace every adjacent ('e', 'r') by the single symbol 'er' and keep the frequencies.",
        )
        pair, _ = ex.call(bpe_merge_step, {("a", "b"): 1, ("c", "d"): 5})
        ex.expect_equal(
            tuple(pair),
            ("c", "d"),
            what="the best pair of {('a','b'): 1, ('c','d'): 5}",
            hint="A pair inside a word that occurs 5 times occurs 5 times: weight the counts by the word's frequency.",
        )
        overlap = {("a", "a", "a"): 1, ("b", "a"): 1}
        pair, new = ex.call(bpe_merge_step, overlap)
        ex.expect_equal(
            (tuple(pair), dict(new)),
            (("a", "a"), {("aa", "a"): 1, ("b", "a"): 1}),
            what="bpe_merge_step({('a','a','a'): 1, ('b','a'): 1})",
            hint="'a a a' holds the pair ('a', 'a') twice, but merging scans left to right "
            "and cannot use the middle 'a' twice: the result is ('aa', 'a').",
        )
        ex.expect_raises(
            ValueError,
            bpe_merge_step,
            {("a",): 3},
            what="bpe_merge_step({('a',): 3})",
            hint="When no word has two symbols left there is nothing to merge: raise ValueError.",
        )
    return ex.result


def check_max_match(max_match: Callable) -> CheckResult:
    """``max_match(text, vocabulary)``: greedy longest-match-first segmentation."""
    with Checker("Forward maximum matching") as ex:
        cases = ["wecanonlyseeashortdistanceahead", "ashortdistance", "xyzwe", "aheadahead"]
        for text in cases:
            got = ex.call(max_match, text, MAXMATCH_VOCAB)
            ex.expect_equal(
                list(got),
                _max_match(text, MAXMATCH_VOCAB),
                what=f"max_match({text!r}, vocab)",
                hint="At each position try the longest candidate first and shrink it until it is in "
                "the vocabulary; if nothing matches, take one character.",
            )
        ex.expect_equal(
            list(ex.call(max_match, "", MAXMATCH_VOCAB)),
            [],
            what='max_match("", vocab)',
            hint="The empty string has no tokens.",
        )
    return ex.result


def check_min_edit_distance(min_edit_distance: Callable) -> CheckResult:
    """``min_edit_distance(source, target, sub_cost=1)``: Levenshtein distance by dynamic programming."""
    from nltk import edit_distance as nltk_edit_distance

    with Checker("Minimum edit distance") as ex:
        for a, b, sub, want, note in [
            ("intention", "execution", 2, 8, "J&M's example with substitution cost 2"),
            ("intention", "execution", 1, 5, "the same pair with substitution cost 1"),
            ("kitten", "sitting", 1, 3, "k->s, e->i, insert g"),
        ]:
            got = ex.call(min_edit_distance, a, b, sub_cost=sub)
            ex.expect_close(
                got,
                want,
                what=f"min_edit_distance({a!r}, {b!r}, sub_cost={sub})",
                hint=f"{note}. D[i, j] = min(D[i-1, j] + 1, D[i, j-1] + 1, D[i-1, j-1] + cost).",
            )
        ex.expect_close(
            ex.call(min_edit_distance, "", "abc"),
            3,
            what='min_edit_distance("", "abc")',
            hint="The first row and column of the table are 0, 1, 2, ...: insert or delete everything.",
        )
        rng = random.Random(_seed(0))
        for _ in range(5):
            a = "".join(rng.choice("abc") for _ in range(rng.randint(0, 7)))
            b = "".join(rng.choice("abc") for _ in range(rng.randint(0, 7)))
            ex.expect_close(
                ex.call(min_edit_distance, a, b, sub_cost=2),
                nltk_edit_distance(a, b, substitution_cost=2),
                what=f"min_edit_distance({a!r}, {b!r}, sub_cost=2)",
                hint="Compare with nltk.edit_distance; a substitution costs 0 when the symbols are equal.",
            )
    return ex.result
