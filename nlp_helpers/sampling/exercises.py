"""Checkers for the exercises of the LLM sampling chapter (``book/sampling.ipynb``).

Each checker calls the student's function on hand-made inputs, compares with
:mod:`nlp_helpers.sampling.distributions`, and tests one edge case students tend to forget. The hard
exercise (a key/value cache for TinyGPT) is compared with greedy decoding that re-runs the whole sequence.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.sampling.distributions import softmax, top_k_filter, top_p_filter
from nlp_helpers.sampling.generate import distinct_n

__all__ = [
    "check_softmax_with_temperature",
    "check_top_k_probs",
    "check_nucleus",
    "check_sample_index",
    "check_distinct_n",
    "check_generate_cached",
]


def check_softmax_with_temperature(fn: Callable) -> CheckResult:
    """``fn(logits, temperature)`` -> ``softmax(logits / temperature)``; ``T = 0``: greedy (ties share); ``T < 0``: ValueError."""
    with Checker("Softmax with temperature") as ex:
        logits = np.array([2.0, 1.0, 0.1, -1.0])
        for t in (1.0, 0.5, 2.0):
            got = ex.call(fn, logits.copy(), t)
            ex.expect_close(
                got,
                softmax(logits, t),
                what=f"softmax_with_temperature({logits.tolist()}, {t})",
                hint="Divide the logits by the temperature, exponentiate, and divide by the sum.",
            )
        big = np.array([1000.0, 999.0, 0.0])
        got = ex.call(fn, big.copy(), 1.0)
        ex.expect_close(
            got,
            softmax(big),
            what="softmax_with_temperature([1000, 999, 0], 1)",
            hint="exp(1000) overflows: subtract the largest logit before exponentiating (the result is the same).",
        )
        got, error = ex.try_call(fn, logits, 0.0)
        if isinstance(error, ValueError):
            ex.fail(
                f"softmax_with_temperature(logits, 0) raised ValueError ({error}). Temperature 0 is the limit T -> 0, "
                "greedy decoding: return all the probability on the largest logit instead of raising."
            )
        if error is not None:
            got = ex.call(fn, logits, 0.0)  # reported the usual way, with the line number
        ex.expect_close(
            got,
            np.array([1.0, 0.0, 0.0, 0.0]),
            what="softmax_with_temperature(logits, 0)",
            hint="Temperature 0 is the limit T -> 0, greedy decoding: all the probability on the largest logit "
            "(do not divide by 0; handle T = 0 before dividing).",
        )
        tied = np.array([3.0, 1.0, 3.0])
        got = ex.call(fn, tied.copy(), 0.0)
        ex.expect_close(
            got,
            np.array([0.5, 0.0, 0.5]),
            what="softmax_with_temperature([3, 1, 3], 0)",
            hint="At T = 0 several tokens may share the largest logit: split the mass equally between them "
            "(that is the limit of softmax(logits / T) as T -> 0).",
        )
        ex.expect_raises(
            ValueError,
            fn,
            logits.copy(),
            -1.0,
            what="softmax_with_temperature(logits, -1)",
            hint="Negative temperatures are meaningless: raise ValueError for temperature < 0.",
        )
    return ex.result


def check_top_k_probs(fn: Callable) -> CheckResult:
    """``fn(logits, k)`` -> probabilities renormalised over the k largest logits (ties with the k-th kept), 0 elsewhere."""
    with Checker("Top-k probabilities") as ex:
        logits = np.array([1.0, 3.0, 0.5, 2.0, -1.0])
        for k in (1, 2, 3):
            got = ex.call(fn, logits.copy(), k)
            ex.expect_close(
                got,
                softmax(top_k_filter(logits, k)),
                what=f"top_k_probs({logits.tolist()}, {k})",
                hint="Keep the k largest logits, set the others to -inf (or their probability to 0), renormalise.",
            )
        got = ex.call(fn, logits.copy(), 10)
        ex.expect_close(
            got,
            softmax(logits),
            what="top_k_probs(logits, k=10) with only 5 tokens",
            hint="When k is at least the vocabulary size, nothing is removed.",
        )
        ties = np.array([2.0, 1.0, 1.0, 0.0])
        got = ex.call(fn, ties.copy(), 2)
        ex.expect_close(
            got,
            softmax(top_k_filter(ties, 2)),
            what="top_k_probs([2, 1, 1, 0], 2)",
            hint="Two tokens tie for 2nd place: keep every token whose logit is >= the k-th largest, "
            "so the result does not depend on token order.",
        )
    return ex.result


def check_nucleus(fn: Callable) -> CheckResult:
    """``fn(probs, p)`` -> sorted list of the token indices in the nucleus (smallest top set with mass >= p)."""
    with Checker("The nucleus of top-p sampling") as ex:
        probs = np.array([0.05, 0.4, 0.1, 0.3, 0.15])
        cases = [(probs, p) for p in (0.5, 0.7, 0.9, 1.0)] + [(np.array([0.02, 0.95, 0.03]), 0.9)]
        for probs_, p in cases:
            want = sorted(int(i) for i in np.flatnonzero(np.isfinite(top_p_filter(np.log(probs_), p))))
            got = ex.call(fn, probs_, p)
            try:
                got = [int(i) for i in got]
            except (TypeError, ValueError):
                ex.fail(f"nucleus(...) should return a list of ints, got {type(got).__name__}.")
            hint = (
                "Sort the tokens by probability (largest first) and add them until the running total reaches p; "
                "the token that crosses p belongs to the nucleus."
            )
            if probs_.max() >= p:
                hint = "The top token alone already holds at least p: the nucleus is just that token."
            ex.expect_equal(sorted(got), want, what=f"nucleus({probs_.tolist()}, {p})", hint=hint)
            ex.expect_equal(
                got,
                want,
                what=f"the order of nucleus({probs_.tolist()}, {p})",
                hint="The exercise asks for the indices sorted in increasing order (return sorted(kept)), not in "
                "order of probability.",
            )
    return ex.result


def _sample_index_reference(probs: np.ndarray, u: float) -> int:
    """The first index with cdf > u; if rounding leaves u >= cdf[-1], the last token with positive probability."""
    i = int((np.cumsum(probs) <= u).sum())
    return min(i, int(np.flatnonzero(probs > 0)[-1]))


def check_sample_index(fn: Callable) -> CheckResult:
    """``fn(probs, u)`` -> the index i with cdf[i-1] <= u < cdf[i] (inverse-CDF sampling for a given u in [0, 1)).

    Never a token of probability 0, even when rounding makes u >= cdf[-1] (ten probabilities 0.1 add up to
    0.9999999999999999): then the last token with positive probability.
    """
    with Checker("Inverse-CDF sampling") as ex:
        probs = np.array([0.1, 0.0, 0.6, 0.3])
        for u in (0.0, 0.05, 0.35, 0.69999, 0.7, 0.95):
            got = ex.call(fn, probs, u)
            ex.expect_equal(
                int(got),
                _sample_index_reference(probs, u),
                what=f"sample_index({probs.tolist()}, u={u})",
                hint="Return the first index whose cumulative probability is strictly greater than u.",
            )
        ex.expect_equal(
            int(ex.call(fn, probs, 0.1)),
            2,
            what="sample_index(probs, 0.1) where probs[1] = 0",
            hint="A token with probability 0 must never be drawn: compare u < cdf[i], not u <= cdf[i].",
        )
        # The empirical frequencies over a grid of u values must reproduce the probabilities.
        grid = (np.arange(40) + 0.5) / 40
        counts = np.bincount([int(ex.call(fn, probs, float(u))) for u in grid], minlength=len(probs))
        ex.expect_close(
            counts / 40,
            probs,
            what="frequencies over 40 evenly spaced u",
            atol=1e-9,
            hint="Each token should be drawn for a fraction of u values equal to its probability.",
        )
        u_top = float(np.nextafter(1.0, 0.0))  # the largest u below 1
        for probs_, case in (
            (np.full(10, 0.1), "ten probabilities 0.1"),
            (np.array([0.1] * 10 + [0.0]), "ten probabilities 0.1 then a 0"),
        ):
            got = ex.call(fn, probs_, u_top)
            ex.expect_equal(
                int(got),
                9,
                what=f"sample_index({case}, u=0.9999999999999999)",
                hint="The ten 0.1 add up to 0.9999999999999999 in floating point, so u is not below the last "
                "cumulative value and a plain search runs off the end (index 10). Return the last token with "
                "positive probability in that case, never an index past the end or a token of probability 0.",
            )
    return ex.result


def check_distinct_n(fn: Callable) -> CheckResult:
    """``fn(sequences, n)`` -> distinct n-grams / all n-grams, pooled over all sequences; ValueError if none."""
    with Checker("Distinct-n") as ex:
        seqs = [["the", "cat", "sat"], ["the", "cat", "ran"], ["a", "dog"]]
        for n in (1, 2):
            ex.expect_close(
                ex.call(fn, seqs, n),
                distinct_n(seqs, n),
                what=f"distinct_n({seqs}, {n})",
                hint="Collect the n-grams of every sequence in one list; divide the number of distinct "
                "ones by the total (pooled, not averaged per sequence).",
            )
        ex.expect_close(
            ex.call(fn, seqs, 3),
            distinct_n(seqs, 3),
            what=f"distinct_n({seqs}, 3)",
            hint='A sequence shorter than n (["a", "dog"] for n = 3) has no n-grams and adds nothing.',
        )
        loop = [["go", "go", "go", "go"]]
        ex.expect_close(
            ex.call(fn, loop, 1),
            0.25,
            what='distinct_n([["go", "go", "go", "go"]], 1)',
            hint="Four unigrams, one distinct: 1/4.",
        )
        tricky = [["a b", "c"], ["a", "b c"], ["ab", "c"], ["a", "bc"]]
        ex.expect_close(
            ex.call(fn, tricky, 2),
            1.0,
            what=f"distinct_n({tricky}, 2)",
            hint="These four bigrams are all different, but joined into strings they collide (('a b', 'c') and "
            "('a', 'b c') both become 'a b c'; ('ab', 'c') and ('a', 'bc') both become 'abc'). Keep an n-gram "
            "as a tuple of tokens: tuple(s[i : i + n]).",
        )
        ex.expect_raises(
            ValueError,
            fn,
            [["a", "dog"], ["hi"]],
            3,
            what='distinct_n([["a", "dog"], ["hi"]], 3)',
            hint="No sequence has a 3-gram, so distinct-n is 0/0: raise ValueError instead of dividing by zero "
            "or returning a made-up number.",
        )
    return ex.result


# ------------------------------------------------------------------ hard tier: a key/value cache
def _scaled_tinygpt(seed: int = 2):
    """A small random TinyGPT with large weights: varied greedy outputs, no near ties (smallest top-2 gap 0.006)."""
    import torch

    from nlp_helpers.attention.gpt import TinyGPT, TinyGPTConfig

    gen = torch.Generator().manual_seed(seed)  # a fixed test model, independent of $NLP_SEED_OFFSET
    model = TinyGPT(TinyGPTConfig(vocab_size=11, block_size=16, n_layers=2, n_heads=2, d_model=16))
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.randn(p.shape, generator=gen) * 0.5)
    return model.eval()


def _greedy_uncached(model, ids, max_new_tokens: int):
    """Greedy decoding by re-running the whole sequence every step (the reference)."""
    import torch

    with torch.no_grad():
        for _ in range(max_new_tokens):
            ids = torch.cat([ids, model(ids)[:, -1].argmax(-1, keepdim=True)], dim=1)
    return ids


def check_generate_cached(fn: Callable) -> CheckResult:
    """``fn(model, ids, max_new_tokens)`` -> greedy ids ``(1, T + n)`` of a TinyGPT, with a per-layer key/value cache."""
    import torch

    with Checker("Greedy decoding with a key/value cache") as ex:
        model = _scaled_tinygpt()
        embedded = []  # how many positions go through the token embedding, call by call
        hook = model.tok_emb.register_forward_hook(lambda mod, inp, out: embedded.append(inp[0].shape[-1]))
        try:
            for prompt, n in (([3, 1, 4, 1, 5], 8), ([2], 6), ([7, 0, 9, 2, 6, 5, 3, 5, 8, 9], 6)):
                ids = torch.tensor([prompt])
                want = _greedy_uncached(model, ids, n)[0].tolist()
                embedded.clear()
                got = ex.call(fn, model, ids.clone(), n)
                if not isinstance(got, torch.Tensor) or got.dim() != 2 or got.shape[0] != 1:
                    ex.fail(
                        f"generate_cached(model, ids, {n}) should return a (1, T + max_new_tokens) tensor of ids, "
                        f"got {type(got).__name__} {tuple(got.shape) if isinstance(got, torch.Tensor) else ''}. "
                        "Concatenate the prompt and the new tokens along dim 1."
                    )
                got = got[0].tolist()
                if len(got) != len(want) or got[: len(prompt)] != prompt:
                    ex.fail(
                        f"for the prompt {prompt} and {n} new tokens the result should have {len(want)} ids "
                        f"starting with the prompt, got {got}. Return the prompt followed by the new tokens."
                    )
                new_got, new_want = got[len(prompt) :], want[len(prompt) :]
                if new_got[0] != new_want[0]:
                    ex.fail(
                        f"for the prompt {prompt} the first new token should be {new_want[0]}, got {new_got[0]}. "
                        "The first step (the prefill) processes the whole prompt and must equal model(ids): "
                        "check the pre-norm residuals (x + attn(ln1(x)), x + mlp(ln2(x))), the causal mask, the "
                        "position embeddings 0..T-1 and the final ln_f before lm_head."
                    )
                if new_got != new_want:
                    k = next(i for i, (a, b) in enumerate(zip(new_got, new_want)) if a != b)
                    ex.fail(
                        f"for the prompt {prompt} the new tokens should be {new_want}, got {new_got}: the first is "
                        f"right, new token {k} differs. A cached step feeds only the newest token, so (1) its "
                        "position embedding is its absolute position (len(prompt) + step - 1), not 0; (2) in every "
                        "layer its key and value are appended to that layer's cache and its query attends to all "
                        "cached keys, including its own; (3) the cache holds keys and values after the qkv "
                        "projection of ln1(x), per layer, not the layer's input."
                    )
                if sum(embedded) > len(prompt) + n - 1 and embedded:
                    ex.fail(
                        f"the tokens are right, but {sum(embedded)} positions went through the token embedding "
                        f"for a prompt of {len(prompt)} and {n} new tokens (at most {len(prompt) + n - 1} with a "
                        f"cache; per call: {embedded[:12]}). You re-run the whole sequence: after the first step "
                        "feed only the newest token and reuse the cached keys and values."
                    )
        finally:
            hook.remove()
        ex.expect_raises(
            ValueError,
            fn,
            model,
            torch.tensor([[1, 2, 3, 4, 5, 6]]),
            11,
            what="generate_cached(model, 6-token prompt, 11) with block_size = 16",
            hint="The learned position embeddings stop at block_size: raise ValueError when "
            "len(prompt) + max_new_tokens > model.block_size (a cache cannot slide a window).",
        )
    return ex.result
