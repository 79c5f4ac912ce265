"""Checkers for the exercises of the BPE and Unigram pages of the chapter *Subword tokenization* (``book/tokenization/``).

Each ``check_*`` calls the student's function on the chapter's examples, compares it
with an independent reference (a byte-level encoder, the naive BPE trainer and a brute-force
sum over all segmentations written here) and tries the edge case students forget.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.tokenization.bpe import merge_pair, pretokenize, train_merges_naive

__all__ = [
    "check_bpe_encode",
    "check_unigram_log_likelihood",
    "check_first_merges",
    "BPE_ID_MERGES",
    "HAND_BPE_CORPUS",
]


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
