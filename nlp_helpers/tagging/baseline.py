"""Tag accuracy, the ambiguity of a tagged corpus, and the most-frequent-tag baseline.

The baseline gives every word the tag it had most often in training and unknown words the most
frequent tag overall (SLP3 ch. 17). The ambiguity statistics count word *types* with more than one
tag and the share of *tokens* those types cover, the numbers SLP3 quotes for the Penn Treebank
(about 85% of types unambiguous, yet ambiguous types cover over half the tokens). Leaves out:
case folding and any smarter handling of unknown words (the HMM's suffix model does that).
"""

from __future__ import annotations

from collections import Counter, defaultdict

from nlp_helpers._checks import check_nonempty

__all__ = ["MostFrequentTagTagger", "ambiguity_stats", "check_tagged_sentences", "tag_accuracy"]


def check_tagged_sentences(name: str, sentences) -> list[list[tuple[str, str]]]:
    """Check a corpus of sentences, each a list of ``(word, tag)`` string pairs; return it as lists."""
    sentences = check_nonempty(name, sentences)
    out = []
    for i, sent in enumerate(sentences):
        if isinstance(sent, str) or not isinstance(sent, (list, tuple)):
            raise TypeError(f"{name}[{i}] must be a list of (word, tag) pairs, got {type(sent).__name__}")
        pairs = []
        for pair in sent:
            if not isinstance(pair, (list, tuple)) or len(pair) != 2 or not all(isinstance(x, str) for x in pair):
                raise TypeError(f"{name}[{i}] must contain (word, tag) pairs of strings, got {pair!r}")
            pairs.append((pair[0], pair[1]))
        out.append(pairs)
    return out


def _check_words(words) -> list[str]:
    if isinstance(words, str) or not isinstance(words, (list, tuple)):
        raise TypeError(f"words must be a list of word strings (one sentence), got {type(words).__name__}")
    if not all(isinstance(w, str) for w in words):
        raise TypeError("words must contain only strings")
    return list(words)


def tag_accuracy(gold_tags, pred_tags) -> float:
    """The share of tokens whose predicted tag equals the gold tag.

    Args:
        gold_tags: list of sentences, each a list of tags.
        pred_tags: the same number of sentences with the same lengths.

    >>> tag_accuracy([["DET", "NOUN"], ["VERB"]], [["DET", "VERB"], ["VERB"]])
    0.6666666666666666
    """
    gold_tags = check_nonempty("gold_tags", gold_tags)
    pred_tags = check_nonempty("pred_tags", pred_tags)
    if len(gold_tags) != len(pred_tags):
        raise ValueError(f"gold_tags has {len(gold_tags)} sentences but pred_tags has {len(pred_tags)}")
    for i, (g, p) in enumerate(zip(gold_tags, pred_tags)):
        if isinstance(g, str) or isinstance(p, str) or len(g) != len(p):
            raise ValueError(f"sentence {i}: gold_tags and pred_tags must be tag lists of equal length")
    n = sum(len(g) for g in gold_tags)
    if n == 0:
        raise ValueError("gold_tags must contain at least one token")
    return sum(a == b for g, p in zip(gold_tags, pred_tags) for a, b in zip(g, p)) / n


def ambiguity_stats(sentences) -> dict[str, float]:
    """How ambiguous a tagged corpus is: types with more than one tag, and the tokens they cover.

    Returns a dict with ``n_types``, ``n_tokens``, ``ambiguous_type_share`` (types seen with two or
    more tags / all types) and ``ambiguous_token_share`` (tokens of those types / all tokens).
    Words are compared as written (case-sensitive).
    """
    return _ambiguity(check_tagged_sentences("sentences", sentences))


def _ambiguity(sentences):
    tags_of: dict[str, set[str]] = defaultdict(set)
    counts: Counter[str] = Counter()
    for sent in sentences:
        for word, tag in sent:
            tags_of[word].add(tag)
            counts[word] += 1
    ambiguous = {w for w, tags in tags_of.items() if len(tags) > 1}
    n_tokens = sum(counts.values())
    return {
        "n_types": len(tags_of),
        "n_tokens": n_tokens,
        "ambiguous_type_share": len(ambiguous) / len(tags_of),
        "ambiguous_token_share": sum(counts[w] for w in ambiguous) / n_tokens,
    }


class MostFrequentTagTagger:
    """Tag each word with its most frequent training tag; unknown words get the commonest tag.

    Ties between tags go to the tag seen first in training.

    >>> MostFrequentTagTagger().fit([[("the", "DET"), ("saw", "NOUN")], [("I", "PRON"), ("saw", "VERB"),
    ...     ("it", "PRON")], [("saw", "VERB")]]).tag(["I", "saw", "a", "dog"])
    ['PRON', 'VERB', 'PRON', 'PRON']
    """

    def __init__(self) -> None:
        self.best_tag: dict[str, str] = {}
        self.default_tag: str | None = None

    def fit(self, sentences) -> MostFrequentTagTagger:
        """Count ``(word, tag)`` pairs in ``sentences`` (lists of pairs) and keep each word's top tag."""
        sentences = check_tagged_sentences("sentences", sentences)
        per_word: dict[str, Counter[str]] = defaultdict(Counter)
        overall: Counter[str] = Counter()
        for sent in sentences:
            for word, tag in sent:
                per_word[word][tag] += 1
                overall[tag] += 1
        if not overall:
            raise ValueError("sentences must contain at least one (word, tag) pair")
        self.best_tag = {w: c.most_common(1)[0][0] for w, c in per_word.items()}
        self.default_tag = overall.most_common(1)[0][0]
        return self

    def tag(self, words) -> list[str]:
        """The tags of one sentence (a list of words)."""
        if self.default_tag is None:
            raise RuntimeError("call fit(sentences) before tag(words)")
        return [self.best_tag.get(w, self.default_tag) for w in _check_words(words)]
