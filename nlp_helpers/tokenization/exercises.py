"""Checkers for the exercises of the chapter *Tokenization* (``book/tokenization.ipynb``).

Each ``check_*`` calls the student's function on the chapter's examples, compares it
with an independent reference (a regular expression written here, Jurafsky & Martin's
worked examples, :mod:`nlp_helpers.tokenization.segmentation`, ``nltk.edit_distance``,
:func:`~nlp_helpers.tokenization.bpe.apply_merges`, :mod:`nlp_helpers.tokenization.unigram`) and tries
the edge case students forget.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.seeds import seed as _seed
from nlp_helpers.tokenization.bpe import apply_merges
from nlp_helpers.tokenization.segmentation import max_match as _max_match
from nlp_helpers.tokenization.unigram import viterbi_segment as _viterbi_segment

__all__ = [
    "check_find_prices",
    "check_max_match",
    "check_osa_distance",
    "check_bpe_encode",
    "check_unigram_segment",
]

# Dollar amounts: digits, optional thousands groups ",ddd", optional decimal part ".d+".
_PRICE_RE = re.compile(r"\$\d+(?:,\d{3})*(?:\.\d+)?")
PRICE_TEXTS = [
    "Breakfast costs $45.55, lunch $12 and the hall $1,200.50.",
    "Tickets were $3 each, or $20 for ten.",
    "The price rose from 45.55 to 50 dollars.",
    "It cost $ 5 and then $1,000,000!",
]

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


def _osa_reference(a: str, b: str) -> int:
    # Optimal string alignment (Damerau 1964 as usually implemented): Levenshtein plus adjacent swaps.
    D = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            D[i][j] = min(D[i - 1][j] + 1, D[i][j - 1] + 1, D[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                D[i][j] = min(D[i][j], D[i - 2][j - 2] + 1)
    return D[-1][-1]


def check_osa_distance(osa_distance: Callable) -> CheckResult:
    """``osa_distance(source, target)``: edit distance where swapping two adjacent symbols costs 1."""
    with Checker("Edit distance with transpositions") as ex:
        for a, b, want, note in [
            ("form", "from", 1, "o and r are swapped: one transposition"),
            ("recieve", "receive", 1, "the classic spelling error ie/ei"),
            ("ca", "abc", 3, "no symbol may be edited twice, so the swap does not help here"),
            ("", "abc", 3, "three insertions"),
        ]:
            ex.expect_close(
                ex.call(osa_distance, a, b),
                want,
                what=f"osa_distance({a!r}, {b!r})",
                hint=f"{note}. Add the case D[i-2, j-2] + 1 when a[i-1] == b[j-2] and a[i-2] == b[j-1].",
            )
        rng = random.Random(_seed(0))
        for _ in range(8):
            a = "".join(rng.choice("abc") for _ in range(rng.randint(0, 7)))
            b = "".join(rng.choice("abc") for _ in range(rng.randint(0, 7)))
            ex.expect_close(
                ex.call(osa_distance, a, b),
                _osa_reference(a, b),
                what=f"osa_distance({a!r}, {b!r})",
                hint="Insertions, deletions and substitutions cost 1, copying costs 0, and a swap of two "
                "adjacent symbols costs 1 (a symbol already swapped is not edited again).",
            )
    return ex.result


def check_bpe_encode(bpe_encode: Callable) -> CheckResult:
    """``bpe_encode(text, merges)``: the tokens of ``text`` under an ordered merge list."""
    with Checker("BPE encoding from a merge list") as ex:
        merges = [("e", "r"), ("er", " "), ("n", "e"), ("ne", "w"), ("l", "o"), ("lo", "w"), (" ", "n")]
        for text in ["newer lower", "lowest", "a newer", ""]:
            got = ex.call(bpe_encode, text, merges)
            ex.expect_equal(
                list(got),
                apply_merges(text, merges),
                what=f"bpe_encode({text!r}, merges)",
                hint="Cut the text with pretokenize first, start each chunk from its characters and "
                "apply the merges in the order they were learned; merges never cross chunks.",
            )
        order = [("b", "c"), ("a", "b")]  # learned first wins, even though ("a", "b") comes first in the text
        ex.expect_equal(
            list(ex.call(bpe_encode, "abc", order)),
            ["a", "bc"],
            what='bpe_encode("abc", [("b", "c"), ("a", "b")])',
            hint="Apply the merge with the lowest rank (learned earliest) first, wherever it is in the "
            "chunk, not the leftmost pair.",
        )
        ex.expect_equal(
            list(ex.call(bpe_encode, "aaa", [("a", "a")])),
            ["aa", "a"],
            what='bpe_encode("aaa", [("a", "a")])',
            hint="Merge left to right and do not reuse a symbol: 'aaa' becomes 'aa' + 'a'.",
        )
        text = "I don't know"
        ex.expect_equal(
            list(ex.call(bpe_encode, text, [("o", "n"), ("'", "t"), ("d", "on")])),
            apply_merges(text, [("o", "n"), ("'", "t"), ("d", "on")]),
            what=f"bpe_encode({text!r}, [('o','n'), (\"'\",'t'), ('d','on')])",
            hint="GPT-2's pattern makes \"'t\" a chunk of its own and gives ' don' its space.",
        )
    return ex.result


def check_unigram_segment(unigram_segment: Callable) -> CheckResult:
    """``unigram_segment(text, log_probs)`` -> the most probable list of pieces (Viterbi)."""
    with Checker("Unigram segmentation by Viterbi") as ex:
        lp = {"a": -3.0, "b": -3.0, "c": -3.0, "ab": -2.0, "bc": -2.5, "abc": -6.0, "ca": -1.0}
        for text in ["abc", "cab", "abcabc", "cca", "b"]:
            got = ex.call(unigram_segment, text, lp)
            ex.expect_equal(
                list(got),
                _viterbi_segment(text, lp)[0],
                what=f"unigram_segment({text!r}, log_probs)",
                hint="best[j] = max over i < j of best[i] + log_probs[text[i:j]]; keep a back-pointer to "
                "the i that won and follow the pointers back from the end.",
            )
        greedy_trap = {"ab": -1.0, "c": -5.0, "a": -1.5, "bc": -1.0}
        ex.expect_equal(
            list(ex.call(unigram_segment, "abc", greedy_trap)),
            ["a", "bc"],
            what='unigram_segment("abc", {"ab": -1, "c": -5, "a": -1.5, "bc": -1})',
            hint="Greedy longest-match takes 'ab' (total -6); Viterbi compares every split: a + bc is -2.5.",
        )
        ex.expect_equal(list(ex.call(unigram_segment, "", lp)), [], what='unigram_segment("", log_probs)')
        ex.expect_raises(
            ValueError,
            unigram_segment,
            "abd",
            lp,
            what='unigram_segment("abd", log_probs) without a piece for "d"',
            hint="When best[len(text)] is still -inf no segmentation exists: raise ValueError.",
        )
    return ex.result
