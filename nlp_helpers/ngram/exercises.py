"""Checkers for the exercises of the n-gram language model chapter (``book/ngram/*.ipynb``).

Each checker compares the student's function with hand-worked values (written out below from the
published formulas) and with :mod:`nlp_helpers.ngram.models` / :mod:`nlp_helpers.ngram.modified_kn`
on small corpora (the Jurafsky & Martin "I am Sam" corpus and a few hand-made sentences), and tests
the edge case students usually forget. None of the exercises repeats code the chapter shows.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from nlp_helpers.data.splits import word_lm_split
from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.ngram.models import NGramLM
from nlp_helpers.ngram.modified_kn import ModifiedKneserNey

__all__ = [
    "check_ngram_mle",
    "check_tune_add_k",
    "check_sentence_perplexity",
    "check_mkn_discounts",
    "check_modified_kn",
]

SAM = [s.split() for s in ["I am Sam", "Sam I am", "I do not like green eggs and ham"]]
CATS = [s.split() for s in ["the cat sat", "the cat ran", "a dog sat", "the dog sat on the cat", "a cat"]]
CATS_HELD_OUT = [s.split() for s in ["the dog ran", "a cat sat on the dog", "the bird sat"]]


def check_ngram_mle(ngram_mle: Callable) -> CheckResult:
    """``ngram_mle(sentences, context, word)`` = c(context word) / c(context .), order len(context) + 1."""
    with Checker("An MLE n-gram model of any order") as ex:
        pad = "Pad every sentence with n - 1 <s> (n = len(context) + 1) in front and one </s> at the end."
        got = ex.call(ngram_mle, SAM, [], "I")
        ex.expect(
            isinstance(got, float),
            f'ngram_mle(SAM, [], "I") should return a Python float, got {type(got).__name__} ({got!r}): divide '
            "with / (a Fraction or an array is not a float).",
        )
        ex.expect_close(
            got,
            3 / 17,
            what='ngram_mle(SAM, [], "I")',
            hint="The unigram model divides by the number of predicted tokens: every word and every </s>, never <s>.",
            reveal=False,  # the number the statement asks to work out by hand
        )
        ex.expect_close(
            ex.call(ngram_mle, SAM, ["<s>", "I"], "am"),
            1 / 2,
            what='ngram_mle(SAM, ["<s>", "I"], "am")',
            hint=pad + " '<s> I' starts two sentences, followed once by 'am'.",
        )
        ex.expect_close(
            ex.call(ngram_mle, SAM, ["<s>", "<s>"], "Sam"),
            1 / 3,
            what='ngram_mle(SAM, ["<s>", "<s>"], "Sam")',
            hint=pad,
        )
        ex.expect_close(
            ex.call(ngram_mle, SAM, ["I", "am"], "</s>"),
            1 / 2,
            what='ngram_mle(SAM, ["I", "am"], "</s>")',
            hint=pad + " 'I am' ends the second sentence.",
        )
        for n in (1, 2, 3, 4):
            lm = NGramLM(n, "mle").fit(CATS)
            for ctx, word in [
                (["<s>", "the", "cat"], "sat"),
                (["the", "dog", "sat"], "on"),
                (["<s>", "<s>", "a"], "cat"),
            ]:
                ctx = ctx[len(ctx) - n + 1 :] if n > 1 else []
                ex.expect_close(
                    ex.call(ngram_mle, CATS, ctx, word),
                    lm.prob(word, ctx),
                    what=f'ngram_mle(CATS, {ctx}, "{word}")',
                    hint="c(context word) / c(context followed by any word), counted over the padded sentences.",
                )
        got, error = ex.try_call(ngram_mle, CATS, ["zebra", "cat"], "sat")
        if error is not None:
            ex.fail(
                f'ngram_mle(CATS, ["zebra", "cat"], "sat") raised {type(error).__name__}: {error}. A context never '
                "seen has no MLE estimate: return 0.0 instead of dividing by zero."
            )
        ex.expect_close(
            got,
            0.0,
            what='ngram_mle(CATS, ["zebra", "cat"], "sat")',
            hint="A context never seen has no MLE estimate: return 0.0 instead of dividing by zero.",
        )
    return ex.result


def _add_k_perplexity(train, held_out, k):
    return NGramLM(2, "add_k", k=k).fit(train).perplexity(held_out)


def check_tune_add_k(tune_add_k: Callable) -> CheckResult:
    """``tune_add_k(train, held_out, ks)`` -> (best k, [held-out perplexity of the add-k bigram for each k])."""
    with Checker("Add-k with k chosen on held-out data") as ex:
        ks = [0.5, 0.01, 1.0, 0.1]  # not sorted: the perplexities come in the order of ks
        got = ex.call(tune_add_k, CATS, CATS_HELD_OUT, ks)
        ex.expect(
            isinstance(got, tuple) and len(got) == 2,
            f"tune_add_k should return a pair (best_k, perplexities), got {type(got).__name__}.",
        )
        best, pps = got
        want = [_add_k_perplexity(CATS, CATS_HELD_OUT, k) for k in ks]
        mixed = [[math.exp(math.log2(w)), 2 ** math.log(w)] for w in want]
        ex.expect(
            not any(_close(p, m) for p, ms in zip(list(pps), mixed) for m in ms),
            f"the perplexities should be {[round(w, 4) for w in want]}, got {list(pps)}: check the log base. "
            "With log2 the perplexity is 2 ** H, with natural logs e ** H; mixing the two bases gives other numbers.",
        )
        ex.expect(
            not (len(pps) == len(want) and _close_lists(sorted(pps), sorted(want)) and not _close_lists(pps, want)),
            f"the perplexities for ks = {ks} are right but in another order: give them in the order of ks, "
            "which need not be sorted.",
        )
        ex.expect_close(
            pps,
            want,
            what=f"the perplexities for ks = {ks}",
            rtol=1e-9,
            hint="|V| = the training words + </s> + <UNK> (9 here); map held-out words never seen in "
            "training ('bird') to <UNK>; N counts every word and each </s> (15 tokens), never <s>.",
        )
        ex.expect_close(
            best,
            ks[min(range(len(ks)), key=want.__getitem__)],
            what="best_k",
            hint="The best k has the LOWEST held-out perplexity.",
        )
    return ex.result


class _OnlyLogprob:
    """A fitted model seen through the two names the exercise allows, ``n`` and ``logprob``: any other attribute
    (``prob``, ``perplexity``, ``vocab``, ...) raises an error that names the rule."""

    def __init__(self, lm: NGramLM) -> None:
        self.n = lm.n
        self.logprob = lm.logprob
        self._repr = repr(lm)

    def __getattr__(self, name: str):
        raise AttributeError(
            f"lm.{name}: this exercise computes the perplexity using only lm.n and lm.logprob(word, context)"
        )

    def __repr__(self) -> str:
        return self._repr


def _only_logprob_hint(ex: Checker, error: Exception | None, call: str) -> None:
    if isinstance(error, AttributeError) and "using only lm.n and lm.logprob" in str(error):
        ex.fail(f"{call} raised {error}: use only lm.n and lm.logprob, and compute the rest yourself.")
    if error is not None:
        ex.fail(f"calling {call} raised {type(error).__name__}: {error}.")


def check_sentence_perplexity(sentence_perplexity: Callable) -> CheckResult:
    """``sentence_perplexity(lm, sentence)`` from ``lm.logprob``: predicts every word and ``</s>``, never ``<s>``."""
    with Checker("Perplexity of a sentence from log-probabilities") as ex:
        lm = _OnlyLogprob(NGramLM(2, "mle").fit(SAM))
        got, error = ex.try_call(sentence_perplexity, lm, ["I", "am", "Sam"])
        _only_logprob_hint(ex, error, 'sentence_perplexity(bigram MLE, ["I", "am", "Sam"])')
        # H = 2 bits/4 tokens... in bits: log2 9 / 4; a base mix-up gives e ** H or 2 ** (H ln 2)
        h_bits = math.log2(9) / 4
        for wrong in (math.exp(h_bits), 2 ** (h_bits * math.log(2)), 2 ** (h_bits / math.log(2))):
            ex.expect(
                not _close(got, wrong),
                f'sentence_perplexity(bigram MLE, ["I", "am", "Sam"]) should be 9 ** (1/4) = {9**0.25:.6g}, got '
                f"{got!r}: check the log base. lm.logprob is log2 (bits), so the perplexity is 2 ** H with "
                "H = -(1/N) sum of lm.logprob; math.exp(H), or natural logs on one side and 2 ** on the other, "
                "mixes two bases.",
            )
        ex.expect_close(
            got,
            9**0.25,
            what='sentence_perplexity(bigram MLE, ["I", "am", "Sam"])',
            hint="P = 2/3 * 2/3 * 1/2 * 1/2 over N = 4 tokens: did you include P(</s> | Sam)?",
        )
        for n, smoothing in [(3, "kneser_ney"), (2, "laplace"), (1, "add_k")]:
            model = NGramLM(n, smoothing).fit(CATS)
            for sentence in (["the", "cat", "sat"], ["a", "dog", "ran", "on", "the", "mat"]):
                got, error = ex.try_call(sentence_perplexity, _OnlyLogprob(model), sentence)
                _only_logprob_hint(ex, error, f"sentence_perplexity({model!r}, {sentence})")
                ex.expect_close(
                    got,
                    model.perplexity([sentence]),
                    what=f"sentence_perplexity({model!r}, {sentence})",
                    rtol=1e-9,
                    hint="Use the last n-1 tokens (with n-1 <s> in front) as context; N counts </s>.",
                )
        got, error = ex.try_call(sentence_perplexity, lm, ["Sam", "Sam"])
        if error is not None and not isinstance(error, AttributeError):
            ex.fail(
                f"sentence_perplexity(bigram MLE, ['Sam', 'Sam']) raised {type(error).__name__}: {error}. P(Sam | Sam) "
                "= 0, and a zero probability must give inf, not an error: sum lm.logprob (which is -inf there)."
            )
        _only_logprob_hint(ex, error, "sentence_perplexity(bigram MLE, ['Sam', 'Sam'])")
        ex.expect(
            got == math.inf,
            f"sentence_perplexity(bigram MLE, ['Sam', 'Sam']) should be inf (P(Sam | Sam) = 0), got {got!r}: "
            "sum lm.logprob (which is -inf for a zero probability) instead of taking log2 of a probability.",
        )
    return ex.result


def check_mkn_discounts(mkn_discounts: Callable) -> CheckResult:
    """``mkn_discounts(counts)`` -> (D1, D2, D3+) from the counts of counts n1..n4 (Chen & Goodman 1998)."""
    with Checker("Modified Kneser-Ney discounts") as ex:
        # n1..n4 = 6, 3, 2, 1: Y = 6 / 12 = 0.5, D1 = 1 - 2 * 0.5 * 3/6, D2 = 2 - 3 * 0.5 * 2/3, D3+ = 3 - 4 * 0.5 * 1/2
        counts = [1] * 6 + [2] * 3 + [3] * 2 + [4] + [7, 9]
        got = ex.call(mkn_discounts, counts)
        ex.expect(
            isinstance(got, tuple) and len(got) == 3,
            f"mkn_discounts should return a tuple (D1, D2, D3+) of three floats, got {type(got).__name__}"
            f"{' of length ' + str(len(got)) if hasattr(got, '__len__') else ''}.",
        )
        hints = [
            "Y = n1 / (n1 + 2 n2) and D1 = 1 - 2 Y n2 / n1, with n_r the counts of counts: how many n-grams "
            "were seen exactly r times (count them; they are not the first entries of the list).",
            "D2 = 2 - 3 Y n3 / n2.",
            "D3+ = 3 - 4 Y n4 / n3 (counts above 4 play no part).",
        ]
        for name, g, w, hint in zip(("D1", "D2", "D3+"), got, (0.5, 1.0, 2.0), hints):
            # reveal=False: these are the round numbers the statement asks to work out by hand
            ex.expect_close(g, w, what=f"{name} for n1..n4 = 6, 3, 2, 1", rtol=1e-9, hint=hint, reveal=False)
        # n1..n4 = 10, 4, 2, 1 (in any order): Y = 10/18
        y = 10 / 18
        counts = [3, 1, 2, 5, 1, 1, 4, 1, 2, 1, 1, 2, 1, 3, 1, 1, 2, 1]
        ex.expect_close(
            list(ex.call(mkn_discounts, counts)),
            [1 - 2 * y * 4 / 10, 2 - 3 * y * 2 / 4, 3 - 4 * y * 1 / 2],
            what="mkn_discounts for n1..n4 = 10, 4, 2, 1 (shuffled counts)",
            rtol=1e-9,
            hint="Count how many n-grams have each count 1, 2, 3, 4 (the counts of counts) before the formulas.",
        )
    return ex.result


def _close_lists(got, want) -> bool:
    return all(_close(g, w) for g, w in zip(got, want))


def _close(got, want) -> bool:
    try:
        return math.isclose(float(got), want, rel_tol=1e-6)
    except (TypeError, ValueError):
        return False


def _shakespeare(n_sentences: int = 1000) -> list[list[str]]:
    """The first sentences of the book's training split: every order has n-grams seen 1, 2, 3 and 4 times."""
    return word_lm_split()["train"][:n_sentences]


def _sum_over_vocab(prob, vocab, context):
    return sum(prob(w, context) for w in vocab)


def check_modified_kn(modified_kn: Callable) -> CheckResult:
    """``modified_kn(sentences, n, discounts)`` -> ``prob(word, context)``: interpolated modified Kneser-Ney."""
    with Checker("Modified Kneser-Ney of any order") as ex:
        uni, bi = (0.5, 1.0, 1.5), (0.6, 1.1, 1.4)
        ex.reference(NGramLM(3, "kneser_ney", discount=0.75).fit, CATS)  # the time of a model of this size
        prob = ex.call(modified_kn, SAM, 2, [uni, bi])
        ex.expect(
            callable(prob), f"modified_kn should return a function prob(word, context), got {type(prob).__name__}."
        )
        # hand-worked on SAM: 15 bigram types; continuation counts I 2, am 1, Sam 2, </s> 3, seven words 1;
        # |V| = 10 words + </s> + <UNK> = 12; unigram gamma = (0.5 * 8 + 1.0 * 2 + 1.5 * 1) / 15
        p_am = (1 - 0.5) / 15 + 7.5 / 15 / 12
        ex.expect_close(
            ex.call(prob, "am", ["zebra"]),
            p_am,
            what='prob("am", ["zebra"]) (an unseen context: the unigram level)',
            rtol=1e-9,
            hint="The unigram level uses continuation counts: (N1+(. am) - D(N1+(. am))) / N1+(. .), plus "
            "gamma = (D1 N1 + D2 N2 + D3+ N3+) / N1+(. .) times 1/|V|, where N_r counts the words whose "
            "continuation count is r; |V| counts the words, </s> and <UNK>. An unseen context passes all its mass down.",
        )
        ex.expect_close(
            ex.call(prob, "am", ["I"]),
            (2 - 1.1) / 3 + (0.6 * 1 + 1.1 * 1) / 3 * p_am,
            what='prob("am", ["I"])',
            rtol=1e-9,
            hint="Discount per count class: c(I am) = 2 takes D2 of the bigram order, and gamma(I) = "
            "(D1 N1(I .) + D2 N2(I .) + D3+ N3+(I .)) / c(I): 'do' follows I once, 'am' twice.",
        )
        ex.expect_close(
            ex.call(prob, "<UNK>", ["I"]),
            (0.6 + 1.1) / 3 * (1.5 + 2 + 4) / 15 / 12,
            what='prob("<UNK>", ["I"])',
            rtol=1e-9,
            hint="An unknown word gets only the uniform share 1/|V|, passed up through every gamma.",
        )
        ex.expect_close(
            ex.call(prob, "am", ["Sam", "I"]),
            (2 - 1.1) / 3 + (0.6 * 1 + 1.1 * 1) / 3 * p_am,
            what='prob("am", ["Sam", "I"]) of the bigram model',
            rtol=1e-9,
            hint="Only the last n - 1 tokens of the context count: for a bigram model, ['Sam', 'I'] is the "
            "context ['I'] (mind that context[-0:] is the whole list, not an empty one).",
        )
        # Training data with <UNK> in it (as after replacing rare words): an unknown word or context word is <UNK>.
        with_unk = [*CATS, ["the", "<UNK>", "sat"], ["a", "<UNK>"]]
        prob_unk = ex.call(modified_kn, with_unk, 2, [uni, bi])
        ref_unk = ModifiedKneserNey(2, discounts=[uni, bi]).fit(with_unk)
        for word, ctx in [("zebra", ["the"]), ("sat", ["zebra"])]:
            ex.expect_close(
                ex.call(prob_unk, word, ctx),
                ref_unk.prob(word, ctx),
                what=f'prob("{word}", {ctx}) when the training sentences contain <UNK>',
                rtol=1e-9,
                hint="A word never seen in training, in `word` or in `context`, is <UNK>: map it before counting "
                "(here <UNK> has counts of its own).",
            )
        got, error = ex.try_call(modified_kn, CATS, 1, [uni])
        if error is not None:
            ex.fail(
                f"modified_kn(CATS, 1, discounts) raised {type(error).__name__}: {error}. n = 1 (the unigram model, "
                "with counts at its only order and an empty context) is allowed."
            )
        ex.expect_close(
            ex.call(got, "cat", []),
            ModifiedKneserNey(1, discounts=[uni]).fit(CATS).prob("cat", []),
            what='with n = 1: prob("cat", [])',
            rtol=1e-9,
            hint="With n = 1 the only order is the top one: it uses counts (not continuation counts), discounted "
            "and interpolated with the uniform 1/|V|.",
        )
        mkn = [(0.4, 0.9, 1.2), (0.5, 1.0, 1.3), (0.7, 1.2, 1.6)]
        prob3 = ex.call(modified_kn, CATS, 3, mkn)
        vocab = NGramLM(3).fit(CATS).vocab
        for ctx in (["<s>", "<s>"], ["the", "cat"], ["dog", "sat"], ["zebra", "the"]):
            total = ex.call(_sum_over_vocab, prob3, vocab, ctx)
            ex.expect_close(
                total,
                1.0,
                what=f"the sum of prob(w, {ctx}) over the vocabulary",
                rtol=1e-9,
                hint="Probabilities after a context must sum to 1: the mass removed by the discounts, "
                "D1 N1(h .) + D2 N2(h .) + D3+ N3+(h .), is exactly what gamma(h) hands to the lower order.",
            )
        for d in (0.75, 0.3):
            flat = ex.call(modified_kn, CATS, 3, [(d, d, d)] * 3)
            kn = NGramLM(3, "kneser_ney", discount=d).fit(CATS)
            for ctx, word in [(["the", "cat"], "sat"), (["<s>", "a"], "dog"), (["cat", "sat"], "</s>")]:
                ex.expect_close(
                    ex.call(flat, word, ctx),
                    kn.prob(word, ctx),
                    what=f'with D1 = D2 = D3+ = {d}: prob("{word}", {ctx})',
                    rtol=1e-9,
                    hint="With one discount this is the chapter's interpolated Kneser-Ney: counts at the top "
                    "order, continuation counts N1+(. h w) (and totals N1+(. h .)) at every lower order.",
                )
        # discounts=None: every order estimates its own (D1, D2, D3+) from the counts it uses
        corpus = _shakespeare()
        est = ModifiedKneserNey(3).fit(corpus)
        own = ex.call(modified_kn, corpus, 3, discounts=None)
        ex.expect(
            callable(own),
            f"modified_kn(sentences, 3, discounts=None) should return a function, got {type(own).__name__}.",
        )
        for ctx, word in [(["my", "good"], "lord"), (["i", "am"], "not"), (["zebra", "my"], "lord"), ([], "the")]:
            ex.expect_close(
                ex.call(own, word, ctx),
                est.prob(word, ctx),
                what=f'with discounts=None, prob("{word}", {ctx}) on 1,000 Shakespeare sentences',
                rtol=1e-9,
                hint="When discounts is None, estimate each order's own triple with mkn_discounts: from the "
                "counts at order n and from the continuation counts N1+(. g) at every lower order. The orders "
                f"differ here: {[tuple(round(d, 3) for d in t) for t in est.discounts]} for k = 1, 2, 3; "
                "reusing the top order's triple for all orders, or estimating a lower order from raw counts, "
                "gives other probabilities.",
            )
        ref = ModifiedKneserNey(3, discounts=mkn).fit(CATS)
        for ctx, word in [
            (["the", "cat"], "sat"),
            (["<s>", "the"], "cat"),
            (["on", "the"], "dog"),
            (["a", "cat"], "ran"),
        ]:
            ex.expect_close(
                ex.call(prob3, word, ctx),
                ref.prob(word, ctx),
                what=f'the trigram prob("{word}", {ctx}) on CATS',
                rtol=1e-9,
                hint="Each order has its own (D1, D2, D3+), chosen by the count class of the value that order "
                "uses: the count at the top order, the continuation count below.",
            )
    return ex.result
