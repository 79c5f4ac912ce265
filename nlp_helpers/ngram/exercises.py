"""Checkers for the exercises of the n-gram language model chapter (``book/ngram.ipynb``).

Each checker compares the student's function with :mod:`nlp_helpers.ngram.models` on small
corpora (the Jurafsky & Martin "I am Sam" corpus and a few hand-made sentences) and
tests the edge case students usually forget.
"""

from __future__ import annotations

from collections.abc import Callable

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.ngram.models import NGramLM

__all__ = [
    "check_bigram_mle",
    "check_add_k_prob",
    "check_sentence_perplexity",
    "check_continuation_counts",
    "check_kn_bigram_prob",
]

SAM = [s.split() for s in ["I am Sam", "Sam I am", "I do not like green eggs and ham"]]
CATS = [s.split() for s in ["the cat sat", "the cat ran", "a dog sat", "the dog sat on the cat", "a cat"]]


def check_bigram_mle(bigram_mle: Callable) -> CheckResult:
    """``bigram_mle(sentences, prev, word)`` = c(prev word) / c(prev), with ``<s>``/``</s>`` padding."""
    with Checker("Bigram MLE by hand") as ex:
        got = ex.call(bigram_mle, SAM, "I", "am")
        ex.expect_close(
            got, 2 / 3, what='bigram_mle(SAM, "I", "am")', hint="Count (I, am) and divide by the count of I."
        )
        ex.expect_close(
            ex.call(bigram_mle, SAM, "<s>", "I"),
            2 / 3,
            what='bigram_mle(SAM, "<s>", "I")',
            hint="Put <s> before every sentence, so that the first word has a context.",
        )
        ex.expect_close(
            ex.call(bigram_mle, SAM, "Sam", "</s>"),
            1 / 2,
            what='bigram_mle(SAM, "Sam", "</s>")',
            hint="Put </s> after every sentence: the model must learn where sentences end.",
        )
        lm = NGramLM(2, "mle").fit(CATS)
        for prev, word in [("the", "cat"), ("cat", "</s>"), ("sat", "on"), ("dog", "ran")]:
            ex.expect_close(
                ex.call(bigram_mle, CATS, prev, word),
                lm.prob(word, [prev]),
                what=f'bigram_mle(CATS, "{prev}", "{word}")',
                hint="c(prev word) / c(prev).",
            )
        ex.expect_close(
            ex.call(bigram_mle, CATS, "zebra", "cat"),
            0.0,
            what='bigram_mle(CATS, "zebra", "cat")',
            hint="A context never seen has no MLE estimate: return 0.0 instead of dividing by zero.",
        )
    return ex.result


def check_add_k_prob(add_k_prob: Callable) -> CheckResult:
    """``add_k_prob(bigram_count, context_count, vocab_size, k)`` = (c + k) / (c(h) + k |V|)."""
    with Checker("Add-k smoothing") as ex:
        for k in (1.0, 0.5, 0.01):
            lm = NGramLM(2, "laplace" if k == 1.0 else "add_k", **({} if k == 1.0 else {"k": k})).fit(SAM)
            for prev, word in [("I", "am"), ("I", "ham"), ("zebra", "am")]:
                c, h = lm.ngram_count([prev, word]), (lm.ngram_count([prev]) if prev in lm.vocab else 0)
                ex.expect_close(
                    ex.call(add_k_prob, c, h, lm.vocab_size, k),
                    lm.prob(word, [prev]),
                    what=f"add_k_prob({c}, {h}, {lm.vocab_size}, {k})",
                    hint="Add k to the count and k times the vocabulary size to the denominator.",
                )
        ex.expect_raises(
            (ValueError,),
            add_k_prob,
            1,
            2,
            10,
            0.0,
            what="add_k_prob(1, 2, 10, k=0.0)",
            hint="k must be > 0: raise ValueError('k must be > 0') otherwise.",
        )
    return ex.result


def check_sentence_perplexity(sentence_perplexity: Callable) -> CheckResult:
    """``sentence_perplexity(lm, sentence)`` from ``lm.prob``: predicts every word and ``</s>``, never ``<s>``."""
    with Checker("Perplexity of a sentence") as ex:
        lm = NGramLM(2, "mle").fit(SAM)
        ex.expect_close(
            ex.call(sentence_perplexity, lm, ["I", "am", "Sam"]),
            9**0.25,
            what='sentence_perplexity(bigram MLE, ["I", "am", "Sam"])',
            hint="P = 2/3 * 2/3 * 1/2 * 1/2 over N = 4 tokens: did you include P(</s> | Sam)?",
        )
        for n, smoothing in [(3, "kneser_ney"), (2, "laplace"), (1, "add_k")]:
            model = NGramLM(n, smoothing).fit(CATS)
            for sentence in (["the", "cat", "sat"], ["a", "dog", "ran", "on", "the", "mat"]):
                ex.expect_close(
                    ex.call(sentence_perplexity, model, sentence),
                    model.perplexity([sentence]),
                    what=f"sentence_perplexity({model!r}, {sentence})",
                    rtol=1e-9,
                    hint="Use the last n-1 tokens (with n-1 <s> in front) as context; N counts </s>.",
                )
    return ex.result


def check_continuation_counts(continuation_counts: Callable) -> CheckResult:
    """``continuation_counts(sentences)`` -> {word: number of distinct words right before it}."""
    with Checker("Continuation counts") as ex:
        got = ex.call(continuation_counts, SAM)
        ex.expect(isinstance(got, dict), f"continuation_counts should return a dict, got {type(got).__name__}.")
        ex.expect_equal(
            got.get("am"),
            1,
            what='continuation_counts(SAM)["am"]',
            hint="'am' follows 'I' twice, but that is one distinct left neighbour.",
        )
        ex.expect_equal(
            got.get("</s>"),
            3,
            what='continuation_counts(SAM)["</s>"]',
            hint="Pad with <s> and </s>: </s> follows Sam, am and ham.",
        )
        lm = NGramLM(2).fit(CATS)
        got = ex.call(continuation_counts, CATS)
        want = {w: lm.continuation_count(w) for w in lm.vocab if lm.continuation_count(w) > 0}
        ex.expect_equal(
            {w: c for w, c in got.items() if c > 0},
            want,
            what="continuation_counts(CATS)",
            hint="For each word, count the *set* of words (including <s>) seen right before it.",
        )
    return ex.result


def check_kn_bigram_prob(kn_bigram_prob: Callable) -> CheckResult:
    """``kn_bigram_prob(sentences, prev, word, d)``: interpolated Kneser-Ney bigram (uniform-interpolated base)."""
    with Checker("Kneser-Ney bigram from scratch") as ex:
        for corpus, name in [(SAM, "SAM"), (CATS, "CATS")]:
            for d in (0.75, 0.3):
                lm = NGramLM(2, "kneser_ney", discount=d).fit(corpus)
                for prev, word in [
                    ("the", "cat"),
                    ("I", "am"),
                    ("am", "Sam"),
                    ("cat", "</s>"),
                    ("a", "zebra"),
                    ("zebra", "cat"),
                ]:
                    ex.expect_close(
                        ex.call(kn_bigram_prob, corpus, prev, word, d),
                        lm.prob(word, [prev]),
                        what=f'kn_bigram_prob({name}, "{prev}", "{word}", d={d})',
                        rtol=1e-9,
                        hint="Check the base level: max(N1+(. w) - d, 0) / N1+(. .) plus "
                        "d * (#words with a left neighbour) / N1+(. .) / |V|, |V| = words + </s> + <UNK>; "
                        "an unseen context uses the base level alone.",
                    )
    return ex.result
