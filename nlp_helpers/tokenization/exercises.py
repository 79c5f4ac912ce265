"""Checkers for the exercises of the chapter *Tokenization* (``book/tokenization.ipynb``).

Each ``check_*`` calls the student's function on the chapter's examples, compares it
with an independent reference (a regular expression written here, Jurafsky & Martin's
worked examples, :mod:`nlp_helpers.tokenization.segmentation`, ``nltk.edit_distance``,
a byte-level encoder and a brute-force sum over all segmentations written here) and tries
the edge case students forget.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.seeds import seed as _seed
from nlp_helpers.tokenization.bpe import merge_pair, pretokenize
from nlp_helpers.tokenization.segmentation import max_match as _max_match

__all__ = [
    "check_find_prices",
    "check_max_match",
    "check_osa_distance",
    "check_bpe_encode",
    "check_unigram_log_likelihood",
    "BPE_ID_MERGES",
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


def _encode_ids_reference(text: str, merges: dict) -> list[int]:
    # Byte-level BPE encoding with minbpe's merge table: UTF-8 bytes, lowest new id first, per chunk.
    out: list[int] = []
    for chunk in pretokenize(text):
        ids = list(chunk.encode("utf-8"))
        while len(ids) > 1:
            pair = min(zip(ids, ids[1:]), key=lambda p: merges.get(p, math.inf))
            if pair not in merges:
                break
            ids = merge_pair(ids, pair, merges[pair])
        out.extend(ids)
    return out


_L, _H, _E, _O, _W, _SP = (ord(c) for c in "lheow ")
BPE_ID_MERGES = {(_L, _L): 256, (_H, _E): 257, (257, 256): 258, (258, _O): 259, (_SP, _W): 260, (_SP, 259): 261}


def check_bpe_encode(bpe_encode: Callable) -> CheckResult:
    """``bpe_encode(text, merges)`` -> token ids: byte-level BPE with a minbpe merge table."""
    with Checker("Byte-level BPE encoding from a merge table") as ex:
        for text in ["hello", "hello hello world", "Hello!", ""]:
            got = ex.call(bpe_encode, text, BPE_ID_MERGES)
            ex.expect(isinstance(got, list), f"bpe_encode should return a list of ints, got {type(got).__name__}.")
            ex.expect_equal(
                [int(i) for i in got],
                _encode_ids_reference(text, BPE_ID_MERGES),
                what=f"bpe_encode({text!r}, BPE_ID_MERGES)",
                hint="Cut the text with pretokenize, turn each chunk into its UTF-8 bytes "
                "(list(chunk.encode('utf-8'))) and merge inside each chunk only.",
            )
        ex.expect_equal(
            list(ex.call(bpe_encode, "abc", {(98, 99): 256, (97, 98): 257})),
            [97, 256],
            what='bpe_encode("abc", {(98, 99): 256, (97, 98): 257})',
            hint="Apply the merge learned first (the smallest new id) wherever it is in the chunk, not "
            "the leftmost pair: (b, c) -> 256 comes before (a, b) -> 257.",
        )
        ex.expect_equal(
            list(ex.call(bpe_encode, "aaa", {(97, 97): 256})),
            [256, 97],
            what='bpe_encode("aaa", {(97, 97): 256})',
            hint="Merge left to right and do not reuse a symbol: 'aaa' becomes 256 + 97.",
        )
        ex.expect_equal(
            list(ex.call(bpe_encode, "café", {(195, 169): 256, (102, 256): 257})),
            [99, 97, 257],
            what='bpe_encode("café", {(195, 169): 256, (102, 256): 257})',
            hint="'é' is two UTF-8 bytes, 195 169: work on bytes, not on characters (ord('é') is 233).",
        )
        ex.expect_equal(
            list(ex.call(bpe_encode, "a b", {(97, 32): 256})),
            [97, 32, 98],
            what='bpe_encode("a b", {(97, 32): 256})',
            hint="'a' and ' b' are different chunks: a merge never crosses a chunk boundary.",
        )
    return ex.result


def _all_segmentations(text: str):
    for cuts in range(2 ** max(len(text) - 1, 0)):
        pieces, start = [], 0
        for i in range(1, len(text)):
            if cuts >> (i - 1) & 1:
                pieces.append(text[start:i])
                start = i
        yield [*pieces, text[start:]]


def _log_likelihood_reference(text: str, log_probs: dict) -> float:
    # Brute force: log of the sum, over every segmentation into known pieces, of their probability.
    scores = [sum(log_probs[p] for p in seg) for seg in _all_segmentations(text) if all(p in log_probs for p in seg)]
    if not scores:
        raise ValueError("no segmentation")
    top = max(scores)
    return top + math.log(sum(math.exp(x - top) for x in scores))


def check_unigram_log_likelihood(unigram_log_likelihood: Callable) -> CheckResult:
    """``unigram_log_likelihood(text, log_probs)``: log of the total probability of all segmentations."""
    with Checker("Unigram: the probability of a string, over all its segmentations") as ex:
        lp = {"a": -3.0, "b": -3.0, "c": -3.0, "ab": -2.0, "bc": -2.5, "abc": -6.0, "ca": -1.0}
        for text in ["abc", "cab", "abcabc", "cca", "b"]:
            ex.expect_close(
                ex.call(unigram_log_likelihood, text, lp),
                _log_likelihood_reference(text, lp),
                rtol=1e-9,
                what=f"unigram_log_likelihood({text!r}, log_probs)",
                hint="Viterbi's recursion with the max replaced by a sum: alpha[j] = logsumexp over "
                "i < j of alpha[i] + log_probs[text[i:j]], alpha[0] = 0.",
            )
        ex.expect_close(
            ex.call(unigram_log_likelihood, "", lp),
            0.0,
            what='unigram_log_likelihood("", log_probs)',
            hint="The empty string has exactly one segmentation, the empty one: probability 1, log 0.",
        )
        long = "abc" * 400  # probability about e**-1004 (underflows as a float): only log space works
        try:
            value = unigram_log_likelihood(long, lp)
        except ValueError:  # a product of raw probabilities underflows to 0: "no segmentation"
            value = -math.inf
        ex.expect(
            isinstance(value, (int, float)) and math.isfinite(value),
            "unigram_log_likelihood('abc' * 400, log_probs) should be a finite number (about -1004): add log "
            "probabilities with logsumexp, never multiply raw probabilities (they underflow to 0).",
        )
        ex.expect_raises(
            ValueError,
            unigram_log_likelihood,
            "abd",
            lp,
            what='unigram_log_likelihood("abd", log_probs) without a piece for "d"',
            hint="When no segmentation exists the probability is 0: raise ValueError instead of returning -inf.",
        )
    return ex.result
