"""Checkers for the exercises of the chapter *Words and text normalization* (``book/words/``).

Each ``check_*`` calls the student's function on the chapter's examples, compares it
with an independent reference (a regular expression written here, Jurafsky & Martin's
worked example, :mod:`nlp_helpers.words.segmentation` and an optimal-string-alignment
recurrence written here) and tries the edge case students forget.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import numpy as np

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.seeds import seed as _seed
from nlp_helpers.words.segmentation import max_match as _max_match

__all__ = ["check_find_prices", "check_max_match", "check_osa_distance", "MAXMATCH_VOCAB", "PRICE_TEXTS"]

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


def _no_error(ex: Checker, error: Exception | None, call: str) -> None:
    if error is not None:
        ex.fail(f"calling {call} raised {type(error).__name__}: {error}.")


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
