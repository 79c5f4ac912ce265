"""Templated extractive-QA examples from real sentences, and SQuAD's answer metrics.

:func:`templated_questions` reads sentences (the book uses the Lee news corpus shipped with gensim)
and writes SQuAD-style ``(question, context, answer, answer_start)`` examples from three patterns
it can find reliably with regular expressions:

* ``who``: a capitalised name before *said* / *says* -> "Who said this?" (one speaker per sentence, not
  a pronoun or a name opening with *The*);
* ``how many``: a number followed by a plural noun -> "How many <noun>?" (the noun follows one number only);
* ``when``: a year 1900-2099 -> "In which year?" (one year per sentence).

The context is the sentence itself; the answer is a character span of it, as in SQuAD
(Rajpurkar et al., 2016). :func:`normalize_answer`, :func:`exact_match` and :func:`token_f1`
follow the official SQuAD v1.1 evaluation script: lower-case, strip punctuation and the
articles *a*, *an*, *the*, collapse whitespace; F1 is over the bag of normalised tokens.

Left out: questions that paraphrase the context (the hard part of SQuAD), several gold answers
per question (the official script takes the maximum over them) and unanswerable questions.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Sequence

from nlp_helpers._checks import check_nonempty, check_text

__all__ = ["QUESTION_TYPES", "templated_questions", "normalize_answer", "exact_match", "token_f1"]

QUESTION_TYPES = ("who", "how many", "when")

_NAME = r"(?:Mr|Mrs|Ms|Dr) [A-Z][a-z]+|[A-Z][a-z]+(?: [A-Z][a-z]+){0,2}"
_SPEAKER = re.compile(rf"\b({_NAME}) (said|says)\b")
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
_COUNT = re.compile(r"(?<![\d:.,$])\b(\d{1,3}(?:,\d{3})*)\b(?![\d:.,%])\s+([a-z]{2,}[^s\W]s)\b")
_MONTH_BEFORE = re.compile(
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December) $"
)
_PRONOUNS = frozenset("I He She It We They You This That There The".split())
# Words after a number that make no "How many X?" question.
_NOT_NOUNS = frozenset(
    "per and the for from with years year days day weeks week months month hours hour minutes "
    "was were are has had have who which that into".split()
)
_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = frozenset(string.punctuation)


def templated_questions(sentences: Sequence[str]) -> list[dict]:
    """SQuAD-style examples from ``sentences`` (list of str), in sentence order.

    Returns a list of dicts with keys ``question``, ``context`` (the sentence), ``answer``,
    ``answer_start`` (character offset of the answer in the context), ``kind`` (one of
    :data:`QUESTION_TYPES`) and ``sentence`` (index into ``sentences``).
    """
    items = check_nonempty("sentences", sentences)
    for i, s in enumerate(items):
        check_text(f"sentences[{i}]", s)
    return [ex for i, s in enumerate(items) for ex in _questions_of(i, s)]


def _questions_of(index: int, sentence: str) -> list[dict]:
    out = []

    def add(kind: str, question: str, match: re.Match, group: int) -> None:
        out.append(
            {
                "question": question,
                "context": sentence,
                "answer": match.group(group),
                "answer_start": match.start(group),
                "kind": kind,
                "sentence": index,
            }
        )

    speakers = list(_SPEAKER.finditer(sentence))
    if len(speakers) == 1 and speakers[0].group(1).split()[0] not in _PRONOUNS:
        add("who", f"Who {speakers[0].group(2)} this?", speakers[0], 1)
    counts = [m for m in _COUNT.finditer(sentence) if not _YEAR.fullmatch(m.group(1))]
    nouns = Counter(m.group(2) for m in counts)
    for m in counts:
        dated = _MONTH_BEFORE.search(sentence[: m.start()])  # "September 11 attacks" is a date
        if m.group(2) not in _NOT_NOUNS and nouns[m.group(2)] == 1 and not dated:
            add("how many", f"How many {m.group(2)}?", m, 1)
    years = list(_YEAR.finditer(sentence))
    if len(years) == 1:
        add("when", "In which year?", years[0], 0)
    return out


def normalize_answer(text: str) -> str:
    """SQuAD's normalisation: lower-case, drop punctuation, drop *a*/*an*/*the*, collapse spaces."""
    text = check_text("text", text)
    return _normalize(text)


def _normalize(text: str) -> str:
    text = "".join(ch for ch in text.lower() if ch not in _PUNCT)
    return " ".join(_ARTICLES.sub(" ", text).split())


def exact_match(prediction: str, truth: str) -> float:
    """1.0 if the normalised ``prediction`` equals the normalised ``truth``, else 0.0 (SQuAD EM)."""
    prediction, truth = check_text("prediction", prediction), check_text("truth", truth)
    return float(_normalize(prediction) == _normalize(truth))


def token_f1(prediction: str, truth: str) -> float:
    """SQuAD's token F1: harmonic mean of precision and recall of the shared normalised tokens.

    If either side has no tokens after normalisation, F1 is 1.0 when both are empty, else 0.0 (the
    rule of the SQuAD 2.0 script, whose empty answers v1.1 did not have).
    """
    prediction, truth = check_text("prediction", prediction), check_text("truth", truth)
    return _token_f1(_normalize(prediction).split(), _normalize(truth).split())


def _token_f1(pred: list[str], gold: list[str]) -> float:
    if not pred or not gold:
        return float(pred == gold)
    common = sum((Counter(pred) & Counter(gold)).values())  # multiset intersection
    if common == 0:
        return 0.0
    precision, recall = common / len(pred), common / len(gold)
    return 2 * precision * recall / (precision + recall)
