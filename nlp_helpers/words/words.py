"""Rule-based word tokenization, word normalization and Heaps' law.

What it implements
    * :func:`word_tokenize`: a regular-expression tokenizer in the spirit of the
      Penn Treebank (PTB) conventions: punctuation becomes its own token and
      clitics are split off (``don't`` -> ``do n't``, ``John's`` -> ``John 's``).
      Unlike the PTB it keeps the units the lecture notes ask for in one piece:
      times ``6:00``, prices ``$45.55``, dates ``01/01/2020``, ``Covid-19``,
      e-mail addresses, URLs and abbreviations such as ``U.S.A.``.
    * normalizers: :func:`case_fold`, :func:`stem` (Porter, via nltk, which needs
      no data download) and :func:`lemmatize` (rule-based, see
      :mod:`nlp_helpers.words.lemmas`) plus :func:`merged_forms`, which
      shows what a normalizer throws away.
    * :func:`heaps_law_fit`: fits ``V = k N^b`` to the vocabulary-growth curve.

What it leaves out
    Sentence splitting (so, unlike nltk's Treebank tokenizer, it does not need
    sentence-split input), PTB's quote rewriting (``"`` stays ``"`` instead of
    becoming ``` `` ``` / ``''``) and PTB's splitting of ``$`` from amounts.

Word segmentation and edit distance live in their own modules
(:mod:`nlp_helpers.words.segmentation`, :mod:`nlp_helpers.words.edit_distance`), subword
tokenizers in the next chapter's :mod:`nlp_helpers.tokenization.bpe`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from nlp_helpers._checks import check_int, check_nonempty, check_text, check_type
from nlp_helpers.words.lemmas import lemmatize_word

__all__ = [
    "TOKEN_RE",
    "word_tokenize",
    "word_spans",
    "is_punctuation",
    "case_fold",
    "stem",
    "lemmatize",
    "merged_forms",
    "vocabulary_growth",
    "heaps_law_fit",
    "HeapsFit",
]

# --------------------------------------------------------------------------- tokenizer
# The alternatives are tried in order at every position, so the specific patterns
# (URL, e-mail, price, ...) come before the general word pattern. `(?=(?P<x>...))(?P=x)`
# is the classic "atomic group" idiom: once the lookahead has matched, the regex engine
# cannot backtrack into it, so "6:00am" gives "6:00" + "am" rather than "6" + ":" + "00am".
# [^\W_] is "a letter or digit" in any script; the clitics are 's 'm 'd 'll 're 've.
TOKEN_RE = re.compile(
    r"""
    (?:https?://|www\.)[^\s<>"]*[^\s<>"'.,;:!?)\]}’”]      # URL, minus trailing punctuation
  | [\w.+-]+@[\w-]+(?:\.[\w-]+)+                           # e-mail address
  | [$€£¥](?=(?P<price>\d+(?:[.,]\d+)*))(?P=price)         # price: $45.55, €3
  | (?=(?P<num>\d+(?:[:/.,]\d+)+))(?P=num)                 # 6:00, 01/01/2020, 45.55, 1,000
  | (?:[^\W\d_]\.){2,}                                     # U.S.A., e.g.
  | (?:Mrs|Mr|Ms|Dr|Prof|Jr|Sr|St|vs|etc)\.                # common abbreviations
  | [^\W_]+(?=[nN]['’][tT]\b)                              # "do" of "don't"
  | [nN]['’][tT]\b                                         # "n't"
  | ['’](?i:s|m|d|ll|re|ve)\b                              # 's 'm 'd 'll 're 've
  | [^\W_]+(?:(?:-|['’](?!(?i:s|m|d|ll|re|ve|t)\b))[^\W_]+)*   # words: Covid-19, O'Neil, 1998
  | \.\.\. | --                                            # ellipsis, dash
  | \S                                                     # any other symbol on its own
    """,
    re.VERBOSE,
)


def word_spans(text: str) -> list[tuple[int, int]]:
    """Character offsets ``(start, end)`` of the tokens of :func:`word_tokenize` (punctuation included).

    ``text[start:end]`` is the token; only whitespace lies between consecutive spans.
    """
    check_text("text", text)
    return [m.span() for m in TOKEN_RE.finditer(text)]


def is_punctuation(token: str) -> bool:
    """True if every character of ``token`` is Unicode punctuation (P*) or a symbol (S*)."""
    check_text("token", token)
    return bool(token) and all(unicodedata.category(ch)[0] in "PS" for ch in token)


def word_tokenize(text: str, *, lowercase: bool = False, keep_punct: bool = True) -> list[str]:
    """Split ``text`` into Penn-Treebank-style word tokens.

    Args:
        text: the text to tokenize (any length; need not be one sentence).
        lowercase: case-fold every token (``str.casefold``), see :func:`case_fold`.
        keep_punct: if False, drop tokens made only of punctuation and symbols
            (``","``, ``"$"``, ``"..."``); ``"$45.55"`` and ``"n't"`` stay.

    Returns:
        The tokens in order, e.g.
        ``word_tokenize("It's $45.55 at 6:00.")`` -> ``['It', "'s", '$45.55', 'at', '6:00', '.']``.
    """
    check_text("text", text)
    check_type("lowercase", lowercase, bool)
    check_type("keep_punct", keep_punct, bool)
    tokens = [m.group() for m in TOKEN_RE.finditer(text)]
    if not keep_punct:
        tokens = [t for t in tokens if not is_punctuation(t)]
    if lowercase:
        tokens = case_fold(tokens)
    return tokens


# --------------------------------------------------------------------------- normalization
def _check_tokens(tokens: Iterable[str]) -> list[str]:
    if isinstance(tokens, str):
        raise TypeError("tokens must be a list of str, not a single str (tokenize the text first)")
    items = list(tokens)
    for i, tok in enumerate(items):
        if not isinstance(tok, str):
            raise TypeError(f"tokens must contain only str, got {type(tok).__name__} at position {i}")
    return items


def case_fold(tokens: Iterable[str]) -> list[str]:
    """Lower-case every token with Unicode case folding (``"Straße"`` -> ``"strasse"``)."""
    return [t.casefold() for t in _check_tokens(tokens)]


def stem(tokens: Iterable[str]) -> list[str]:
    """Porter stems of ``tokens`` (nltk's ``PorterStemmer``; it lower-cases too).

    A stemmer chops suffixes by rule, so stems need not be words:
    ``studies`` -> ``studi``, ``university`` -> ``univers``.
    """
    from nltk.stem import PorterStemmer  # pure code, no data download

    stemmer = PorterStemmer()
    return [stemmer.stem(t) for t in _check_tokens(tokens)]


def lemmatize(
    tokens: Iterable[str], table: Mapping[str, str] | None = None, lexicon: Collection[str] | None = None
) -> list[str]:
    """Lemmas of ``tokens`` by :func:`~nlp_helpers.words.lemmas.lemmatize_word` (lower case).

    A rule-based lemmatizer in the manner of WordNet's Morphy: ``table`` (default
    :data:`~nlp_helpers.words.lemmas.IRREGULAR`) lists irregular forms, suffix rules
    propose candidates for the rest, and a candidate must be a word of ``lexicon``
    (default: the whole words of BERT's vocabulary). Tokens no rule explains come back case-folded.
    """
    items = _check_tokens(tokens)
    if table is not None and not isinstance(table, Mapping):
        raise TypeError(f"table must be a mapping form -> lemma, got {type(table).__name__}")
    return [lemmatize_word(t, lexicon, table) if t.strip() else t for t in items]


def merged_forms(tokens: Iterable[str], normalizer: Callable[[list[str]], list[str]]) -> dict[str, list[str]]:
    """Which distinct forms ``normalizer`` collapses into one: ``{normalized: [original, ...]}``.

    Only normalized forms with at least two different originals are listed;
    these are the distinctions the normalization throws away (e.g. ``US`` and
    ``us`` under case folding).
    """
    items = _check_tokens(tokens)
    if not callable(normalizer):
        raise TypeError(f"normalizer must be a function list[str] -> list[str], got {type(normalizer).__name__}")
    normalized = normalizer(items)
    if isinstance(normalized, str) or not isinstance(normalized, (list, tuple)):
        raise TypeError(f"normalizer must return a list of str, got {type(normalized).__name__}")
    if len(normalized) != len(items):
        raise ValueError(f"normalizer returned {len(normalized)} tokens for {len(items)} inputs")
    groups: dict[str, set[str]] = {}
    for orig, norm in zip(items, normalized):
        groups.setdefault(norm, set()).add(orig)
    return {norm: sorted(origs) for norm, origs in sorted(groups.items()) if len(origs) > 1}


# --------------------------------------------------------------------------- Heaps' law
def vocabulary_growth(tokens: Iterable[str]) -> np.ndarray:
    """Number of distinct types after each token: ``V[i]`` = types among ``tokens[: i + 1]``, shape ``(N,)``."""
    items = check_nonempty("tokens", tokens)
    seen: set[str] = set()
    growth = np.empty(len(items), dtype=np.int64)
    for i, tok in enumerate(items):
        seen.add(tok)
        growth[i] = len(seen)
    return growth


@dataclass(frozen=True)
class HeapsFit:
    """Result of :func:`heaps_law_fit`: ``V ≈ k * N**b``.

    ``n_tokens``/``n_types`` (shape ``(P,)``) are the points of the growth curve
    the line was fitted to; ``r2`` is the coefficient of determination in log-log space
    (1.0 if the vocabulary size never changes over those points: the flat line ``b = 0`` fits exactly).
    """

    k: float
    b: float
    r2: float
    n_tokens: np.ndarray
    n_types: np.ndarray

    def predict(self, n_tokens: float | np.ndarray) -> np.ndarray:
        """Vocabulary size the fitted law predicts after ``n_tokens`` tokens."""
        return self.k * np.asarray(n_tokens, dtype=float) ** self.b


def heaps_law_fit(tokens: Iterable[str], *, num_points: int = 50, min_tokens: int = 100) -> HeapsFit:
    """Fit Heaps' (Herdan's) law ``V = k N^b`` to the vocabulary growth of ``tokens``.

    The growth curve is sampled at ``num_points`` log-spaced corpus sizes between
    ``min_tokens`` and ``N`` (the very start of a text is dominated by the first
    few function words, so it is left out) and ``log V = log k + b log N`` is
    fitted by least squares.
    """
    num_points = check_int("num_points", num_points, minimum=2)
    min_tokens = check_int("min_tokens", min_tokens, minimum=1)
    growth = vocabulary_growth(tokens)
    if len(growth) < 2 * min_tokens:
        raise ValueError(
            f"tokens must hold at least {2 * min_tokens} tokens to fit Heaps' law "
            f"(min_tokens={min_tokens}), got {len(growth)}"
        )
    sizes = np.unique(np.geomspace(min_tokens, len(growth), num_points).round().astype(np.int64))
    types = growth[sizes - 1]
    x, y = np.log(sizes), np.log(types)
    b, log_k = np.polyfit(x, y, 1)
    residual = y - (log_k + b * x)
    ss_res, ss_tot = float(residual @ residual), float(((y - y.mean()) ** 2).sum())
    # A vocabulary that stops growing gives a constant y: the flat fit is exact (as scikit-learn's r2_score says).
    r2 = 1.0 - ss_res / ss_tot if ss_tot > 0 else (1.0 if ss_res <= 1e-20 else 0.0)
    return HeapsFit(k=float(np.exp(log_k)), b=float(b), r2=r2, n_tokens=sizes, n_types=types)
