"""Checkers for the exercises of the chapter *Tokenization* (``book/tokenization/``).

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

import numpy as np

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.seeds import seed as _seed
from nlp_helpers.tokenization.bpe import merge_pair, pretokenize, train_merges_naive
from nlp_helpers.tokenization.segmentation import max_match as _max_match

__all__ = [
    "check_find_prices",
    "check_max_match",
    "check_osa_distance",
    "check_bpe_encode",
    "check_unigram_log_likelihood",
    "check_first_merges",
    "BPE_ID_MERGES",
    "HAND_BPE_CORPUS",
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


def _price_hint(got: list, want: list) -> str:
    """Name the rule a wrong list of prices breaks (the first that applies)."""
    items = [g for g in got if isinstance(g, str)]
    if len(items) != len(got):
        return "Return the prices as strings, exactly as written in the text."
    if any(not g.startswith("$") for g in items):
        return "Every price starts with '$': a number without '$' is not a price."
    if any(not re.fullmatch(r"\$\d.*", g) for g in items):
        return "'$' must be followed immediately by a digit: '$ 5' is not a price."
    if any(g[-1] in ".," for g in items):
        return "A '.' or ',' after the amount that no digit follows is punctuation, not part of the price."
    if sorted(items) == sorted(want):
        return "Return the prices in the order they occur in the text."
    if any("," in w for w in want) and not any("," in g for g in items):
        return "Allow thousands separators: '$1,200' is one price, with optional ',ddd' groups."
    if any("." in w for w in want) and not any("." in g for g in items):
        return "Allow a decimal part: '$45.55' is one price ('.' followed by digits)."
    return "A price is '$', digits, optional ',ddd' groups and an optional '.' followed by digits."


def check_find_prices(find_prices: Callable) -> CheckResult:
    """``find_prices(text)``: every dollar amount (``$45.55``, ``$12``, ``$1,200.50``) in order."""
    with Checker("A regular expression for prices") as ex:
        for text in [*PRICE_TEXTS, "It costs $12.", "Pay $3, or $1,000, please.", "", "No prices: 45 and 12.50."]:
            got, error = ex.try_call(find_prices, text)
            if error is not None and not text:
                ex.fail(
                    f'find_prices("") raised {type(error).__name__}: a text with no prices, the empty string too, '
                    "gives an empty list."
                )
            _no_error(ex, error, f"find_prices({text!r})")
            ex.expect(isinstance(got, list), f"find_prices should return a list of strings, got {type(got).__name__}.")
            want = _PRICE_RE.findall(text)
            if got != want and not want:
                ex.fail(
                    f"find_prices({text!r}) should be [], got {got!r}: a text with no prices (the empty string "
                    f"too) gives an empty list. {_price_hint(got, want) if got and text else ''}".strip()
                )
            if got != want:
                ex.fail(f"find_prices({text!r}) should be {want!r}, got {got!r}. {_price_hint(got, want)}")
    return ex.result


def check_max_match(max_match: Callable) -> CheckResult:
    """``max_match(text, vocabulary)``: greedy longest-match-first segmentation."""
    with Checker("Forward maximum matching", forbidden={"max_match": _max_match}) as ex:
        cases = ["wecanonlyseeashortdistanceahead", "ashortdistance", "xyzwe", "aheadahead"]
        for text in cases:
            got = ex.call(max_match, text, MAXMATCH_VOCAB)
            ex.expect(
                isinstance(got, list),
                f"max_match should return a list of tokens, got {type(got).__name__}: "
                "append each token to a list instead of joining them.",
            )
            ex.expect(
                "".join(map(str, got)) == text,
                f"max_match({text!r}, vocab) returned {got!r}, which does not spell the text: every "
                "character must end up in a token. When no word matches, take one character (never drop it).",
            )
            ex.expect_equal(
                got,
                _max_match(text, MAXMATCH_VOCAB),
                what=f"max_match({text!r}, vocab)",
                hint="At each position try the longest candidate first and shrink it until it is in "
                "the vocabulary; if nothing matches, take one character.",
            )
        got, error = ex.try_call(max_match, "", MAXMATCH_VOCAB)
        if error is not None:
            ex.fail(f'max_match("", vocab) raised {type(error).__name__}: {error}. The empty string has no tokens.')
        ex.expect_equal(
            list(got),
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
            got = ex.call(osa_distance, a, b)
            ex.expect(
                isinstance(got, int | np.integer) and not isinstance(got, bool),
                f"osa_distance should return an int, got {type(got).__name__} ({got!r}): "
                "a count of edits is a whole number (convert with int(...)).",
            )
            ex.expect_close(
                got,
                want,
                what=f"osa_distance({a!r}, {b!r})",
                hint=f"{note}. A transposition is one more case of the recurrence: when may a cell look two "
                "characters back in both strings, and at what cost?",
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
            got, error = ex.try_call(bpe_encode, text, BPE_ID_MERGES)
            if error is not None and not text:
                ex.fail(
                    f'bpe_encode("", BPE_ID_MERGES) raised {type(error).__name__}: {error}. The empty string '
                    "has no chunks and no tokens: return an empty list."
                )
            _no_error(ex, error, f"bpe_encode({text!r}, BPE_ID_MERGES)")
            ex.expect(isinstance(got, list), f"bpe_encode should return a list of ints, got {type(got).__name__}.")
            ex.expect(
                text or list(got) == [],
                f'bpe_encode("", BPE_ID_MERGES) should be [], got {got!r}: the empty string has no chunks, so no '
                "tokens.",
            )
            ex.expect_equal(
                [int(i) for i in got],
                _encode_ids_reference(text, BPE_ID_MERGES),
                what=f"bpe_encode({text!r}, BPE_ID_MERGES)",
                hint="Cut the text with pretokenize, turn each chunk into its UTF-8 bytes and merge inside each "
                "chunk only.",
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


def _no_error(ex: Checker, error: Exception | None, call: str) -> None:
    if error is not None:
        ex.fail(f"calling {call} raised {type(error).__name__}: {error}.")


def check_unigram_log_likelihood(unigram_log_likelihood: Callable) -> CheckResult:
    """``unigram_log_likelihood(text, log_probs)``: log of the total probability of all segmentations."""
    with Checker("Unigram: the probability of a string, over all its segmentations") as ex:
        lp = {"a": -3.0, "b": -3.0, "c": -3.0, "ab": -2.0, "bc": -2.5, "abc": -6.0, "ca": -1.0}
        for text in ["abc", "cab", "abcabc", "cca", "b"]:
            got = ex.call(unigram_log_likelihood, text, lp)
            want = _log_likelihood_reference(text, lp)
            ex.expect(
                not isinstance(got, int | float) or not math.isclose(got, want / math.log(2), rel_tol=1e-6),
                f"unigram_log_likelihood({text!r}, log_probs) = {got:.4f} is log base 2; the exercise asks "
                f"for the natural log ({want:.4f}), like the log probabilities you are given.",
            )
            ex.expect_close(
                got,
                want,
                rtol=1e-9,
                what=f"unigram_log_likelihood({text!r}, log_probs)",
                hint="All segmentations count, not only the best: Viterbi's recursion with the max replaced by a "
                "sum (a log-sum-exp in log space) over where the last piece starts.",
            )
        got, error = ex.try_call(unigram_log_likelihood, "", lp)
        if isinstance(error, ValueError):
            ex.fail(
                f'unigram_log_likelihood("", log_probs) raised ValueError ({error}): the empty string has '
                "exactly one segmentation, the empty one, with probability 1: return 0.0."
            )
        _no_error(ex, error, 'unigram_log_likelihood("", log_probs)')
        ex.expect_close(
            got,
            0.0,
            what='unigram_log_likelihood("", log_probs)',
            hint="The empty string has exactly one segmentation, the empty one: probability 1, log 0.",
        )
        long = "abc" * 400  # probability about e**-1004 (underflows as a float): only log space works
        value, error = ex.try_call(unigram_log_likelihood, long, lp)
        if isinstance(error, ValueError):  # a product of raw probabilities underflows to 0: "no segmentation"
            value = -math.inf
        else:
            _no_error(ex, error, "unigram_log_likelihood('abc' * 400, log_probs)")
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


# The by-hand BPE exercise: the corpus of the Hugging Face course's BPE example (no end-of-word marker).
HAND_BPE_CORPUS = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}


def _not_yet() -> None:
    raise NotImplementedError


def _pair_counts(words: dict[tuple[str, ...], int]) -> dict[tuple[str, str], int]:
    counts: dict[tuple[str, str], int] = {}
    for symbols, c in words.items():
        for pair in zip(symbols, symbols[1:]):
            counts[pair] = counts.get(pair, 0) + c
    return counts


def check_first_merges(first_merges: object) -> CheckResult:
    """``first_merges``: the first three BPE merges of :data:`HAND_BPE_CORPUS`, worked out by hand.

    A list of three ``(left, right)`` tuples of strings, in the order learned.
    """
    want = train_merges_naive(HAND_BPE_CORPUS, 3)
    with Checker("BPE merges by hand") as ex:
        if first_merges is ...:
            ex.call(_not_yet)  # the stub: "not yet"
        ex.expect(
            first_merges is not None,
            "first_merges is None: assign your list of three merges, e.g. [('x', 'y'), ...].",
        )
        ex.expect(
            isinstance(first_merges, list),
            f"first_merges should be a list of three (left, right) tuples, got {type(first_merges).__name__}.",
        )
        ex.expect(
            not any(isinstance(m, str) for m in first_merges),
            "Write each merge as the pair it joins, ('x', 'y'), not as the new symbol 'xy': "
            "the new symbol does not say where the split was.",
        )
        ex.expect(
            all(isinstance(m, tuple) and len(m) == 2 and all(isinstance(x, str) for x in m) for m in first_merges),
            f"Each merge should be a tuple of two strings (left, right), e.g. ('x', 'y'); got {first_merges!r}.",
        )
        ex.expect(
            len(first_merges) == 3,
            f"The exercise asks for the first three merges, got {len(first_merges)}.",
        )
        words = {tuple(w): c for w, c in HAND_BPE_CORPUS.items()}
        initial = _pair_counts(words)
        no_recount = sorted(initial, key=lambda p: -initial[p])[:3]
        unweighted = train_merges_naive(dict.fromkeys(HAND_BPE_CORPUS, 1), 3)
        if first_merges != want and first_merges == no_recount:
            ex.fail(
                "These are the three most frequent pairs of the *unmerged* corpus. Recount after every "
                "merge: once 'u' and 'g' are one symbol, the pairs that overlapped them change."
            )
        if first_merges != want and first_merges == unweighted:
            ex.fail(
                "It looks like each word was counted once. Weight every pair by its word's count: "
                "'hug' occurs 10 times, so its pairs count 10 each."
            )
        for step, (got, right) in enumerate(zip(first_merges, want), start=1):
            counts = _pair_counts(words)
            if got != right:
                got_count = counts.get(got, 0)
                ex.fail(
                    f"Merge {step} should join the most frequent pair; yours occurs {got_count} times at that "
                    f"point, but another pair occurs {counts[right]} times. "
                    "Count each adjacent pair in every word, weighted by the word's count"
                    + (", after the earlier merges." if step > 1 else ".")
                )
            words = {tuple(merge_pair(list(w), right, right[0] + right[1])): c for w, c in words.items()}
    return ex.result
