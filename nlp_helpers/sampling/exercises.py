"""Checkers for the exercises of the LLM sampling chapter (``book/sampling/``).

* :func:`check_sampling_by_hand`: temperature and top-p computed on paper (``sampling`` page);
* :func:`check_distinct_n`: the diversity measure of the quality-diversity study (``sampling`` page);
* :func:`check_rank_hypotheses`: beam search's finished hypotheses ranked with another length
  penalty, that of Wu et al. (2016) (``generation`` page);
* :func:`check_generate_cached`: a key/value cache for the LLM chapter's TinyGPT, compared with
  greedy decoding that re-runs the whole sequence (``generation`` page).

Each checker names the typical mistake it recognises in a wrong answer.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.sampling.distributions import softmax, top_p_filter
from nlp_helpers.sampling.generate import distinct_n

__all__ = [
    "BY_HAND_LOGITS",
    "check_sampling_by_hand",
    "check_distinct_n",
    "check_rank_hypotheses",
    "check_generate_cached",
]

# The by-hand exercise's four logits.
BY_HAND_LOGITS = (2.0, 1.0, 0.0, -1.0)


def _nucleus_size(logits: np.ndarray, temperature: float, p: float) -> int:
    return int(np.isfinite(top_p_filter(np.asarray(logits) / temperature, p)).sum())


def _by_hand_answers() -> tuple[int, int, float]:
    z = np.array(BY_HAND_LOGITS)
    kept = top_p_filter(z / 0.5, 0.9)
    return _nucleus_size(z, 1.0, 0.9), _nucleus_size(z, 0.5, 0.9), float(softmax(kept)[0])


def check_sampling_by_hand(by_hand_sampling: Callable) -> CheckResult:
    """``by_hand_sampling()`` -> (nucleus size at T = 1, nucleus size at T = 0.5, P(top token) at T = 0.5, p = 0.9)."""
    with Checker("Temperature and top-p by hand") as ex:
        got = ex.call(by_hand_sampling)
        if not isinstance(got, Sequence) or isinstance(got, str) or len(got) != 3:
            ex.fail(f"by_hand_sampling() should return a tuple of three numbers, got {got!r}.")
        try:
            n1, n05, p_top = float(got[0]), float(got[1]), float(got[2])
        except (TypeError, ValueError):
            ex.fail(f"by_hand_sampling() should return three numbers, got {got!r}.")
        ex.expect(
            all(isinstance(n, (int, np.integer)) and not isinstance(n, bool) for n in got[:2]),
            f"by_hand_sampling() returned the nucleus sizes {got[0]!r} and {got[1]!r}: they are counts of tokens, "
            "so return them as ints.",
        )
        want_n1, want_n05, want_p = _by_hand_answers()
        z = np.array(BY_HAND_LOGITS)
        if (n1, n05) == (want_n1 - 1, want_n05 - 1):
            ex.fail(
                "both nuclei are one token short: the token whose probability makes the total reach p "
                "belongs to the nucleus (stop only once the running total is at least p)."
            )
        if n1 != want_n1:
            ex.fail(
                f"the nucleus at T = 1 does not have {got[0]!r} tokens: add the probabilities "
                "of the most likely tokens until the total reaches 0.9."
            )
        if n05 != want_n05:
            ex.fail(
                f"the nucleus at T = 0.5 does not have {got[1]!r} tokens: divide the logits by "
                "T = 0.5 first; the distribution gets peakier and the nucleus smaller."
            )
        if not math.isclose(p_top, want_p, abs_tol=5e-4):
            probs_t = softmax(z, 0.5)
            if math.isclose(p_top, float(probs_t[0]), abs_tol=5e-4):
                ex.fail(
                    "you gave P(top) at T = 0.5 before top-p: renormalise over the nucleus (divide by the "
                    "probability the nucleus holds)."
                )
            nuc1 = np.isfinite(top_p_filter(z, 0.9))
            if math.isclose(p_top, float(softmax(np.where(nuc1, z / 0.5, -np.inf))[0]), abs_tol=5e-4):
                ex.fail(
                    "you applied top-p before the temperature (the nucleus of T = 1, then T = 0.5): the "
                    "order is temperature first, then top-p on the tempered distribution."
                )
            if math.isclose(p_top, float(softmax(np.where(nuc1, z, -np.inf))[0]), abs_tol=5e-4):
                ex.fail("that is P(top) at T = 1 after top-p: divide the logits by T = 0.5 first.")
            ex.fail(
                f"P(top token) is not {p_top:.3f}: renormalise the tempered probabilities over the tokens of "
                "the nucleus only."
            )
    return ex.result


def check_distinct_n(fn: Callable) -> CheckResult:
    """``fn(sequences, n)`` -> distinct n-grams / all n-grams, pooled over all sequences; ValueError if none."""
    with Checker("Distinct-n", forbidden={"distinct_n": distinct_n}) as ex:
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
            "as a tuple of tokens, as the exercise says.",
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


def _gnmt_reference(hyps: Sequence[tuple[float, int]], alpha: float) -> list[int]:
    scores = [lp / ((5 + n) / 6) ** alpha for lp, n in hyps]
    return sorted(range(len(hyps)), key=lambda i: -scores[i])  # stable: ties keep their order


def check_rank_hypotheses(fn: Callable) -> CheckResult:
    """``fn(hyps, alpha)`` -> indices of ``hyps`` (``(log P, length)`` pairs) best first under GNMT's length penalty."""
    with Checker("Ranking hypotheses with a length penalty") as ex:
        hyps = [(-4.0, 3), (-6.0, 9), (-5.0, 6), (-9.0, 20), (-3.1, 2)]
        for alpha in (0.0, 0.6, 1.0, 2.0):
            got = ex.call(fn, hyps, alpha)
            want = _gnmt_reference(hyps, alpha)
            if not isinstance(got, list) or not all(isinstance(i, (int, np.integer)) for i in got):
                ex.fail(f"rank_hypotheses(hyps, {alpha}) should return a list of int indices, got {got!r}.")
            got = [int(i) for i in got]
            if got == want:
                continue
            if got == want[::-1]:
                ex.fail(
                    f"rank_hypotheses(hyps, {alpha}) returned {got}: that is worst first. Scores are "
                    "log-probabilities (negative): the best has the largest score."
                )
            hf = sorted(range(len(hyps)), key=lambda i: -hyps[i][0] / hyps[i][1] ** alpha)
            if got == hf and hf != want:
                ex.fail(
                    f"rank_hypotheses(hyps, {alpha}) returned {got}, the ranking of log P / length^alpha. "
                    "This exercise's penalty is ((5 + length) / 6)^alpha."
                )
            times = sorted(range(len(hyps)), key=lambda i: -hyps[i][0] * ((5 + hyps[i][1]) / 6) ** alpha)
            if got == times and times != want:
                ex.fail(
                    f"rank_hypotheses(hyps, {alpha}) returned {got}: you multiplied log P by the penalty. "
                    "Divide it: a longer hypothesis must be forgiven, not punished more."
                )
            ex.fail(
                f"rank_hypotheses({hyps}, {alpha}) should be {want}, got {got}: score each hypothesis by "
                "log P / ((5 + length) / 6)^alpha and sort by score, largest first."
            )
        tied = [(-2.0, 1), (-3.0, 4), (-2.0, 1)]
        ex.expect_equal(
            [int(i) for i in ex.call(fn, tied, 1.0)],
            _gnmt_reference(tied, 1.0),
            what=f"rank_hypotheses({tied}, 1.0)",
            hint="Hypotheses 0 and 2 have the same score: keep them in their original order (a stable sort).",
        )
        ex.expect_raises(
            ValueError,
            fn,
            [(-1.0, 0)],
            1.0,
            what="rank_hypotheses([(-1.0, 0)], 1.0)",
            hint="A hypothesis of length 0 is not a hypothesis: raise ValueError for a length below 1.",
        )
        ex.expect_raises(
            ValueError,
            fn,
            hyps,
            -0.5,
            what="rank_hypotheses(hyps, -0.5)",
            hint="A negative alpha would punish length: raise ValueError for alpha < 0.",
        )
    return ex.result


# ------------------------------------------------------------------ hard tier: a key/value cache
def _scaled_tinygpt(seed: int = 2):
    """A small random TinyGPT with large weights: varied greedy outputs, no near ties (smallest top-2 gap 0.006)."""
    import torch

    from nlp_helpers.llm.gpt import TinyGPT, TinyGPTConfig

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


def _greedy_unmasked_prefill(model, ids, max_new_tokens: int):
    """The cache loop with one mistake: the first step (the prefill) attends over the whole prompt, unmasked.

    The prompt's last position sees the whole prompt either way, so the first new token is right; the keys
    and values cached for the earlier positions of layers 2, 3, ... are not, and later tokens drift.
    """
    import math

    import torch

    cache, out, new = [None] * len(model.blocks), ids, ids
    with torch.no_grad():
        for _ in range(max_new_tokens):
            x = model.tok_emb(new) + model.pos_emb(torch.arange(out.shape[1] - new.shape[1], out.shape[1]))
            for i, block in enumerate(model.blocks):
                h = block.ln1(x)
                B, T, C = h.shape
                q, k, v = (z.view(B, T, block.attn.n_heads, -1).transpose(1, 2) for z in block.attn.qkv(h).split(C, 2))
                if cache[i] is not None:  # a cached step: one query, which may see every cached key
                    k, v = torch.cat([cache[i][0], k], 2), torch.cat([cache[i][1], v], 2)
                cache[i] = (k, v)
                y = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(k.shape[-1]), -1) @ v  # no mask at all
                x = x + block.attn.proj(y.transpose(1, 2).reshape(B, T, C))
                x = x + block.mlp(block.ln2(x))
            new = model.lm_head(model.ln_f(x[:, -1])).argmax(-1, keepdim=True)
            out = torch.cat([out, new], 1)
    return out


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
                want = ex.reference(_greedy_uncached, model, ids, n)[0].tolist()
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
                if new_got != new_want and got == _greedy_unmasked_prefill(model, ids, n)[0].tolist():
                    ex.fail(
                        f"for the prompt {prompt} the new tokens should be {new_want}, got {new_got}: the first is "
                        "right, the later ones drift. Your first step lets every prompt position attend to the whole "
                        "prompt: it needs the causal mask, as model(ids) does. The last position is not affected "
                        "(it may see everything), but the keys and values you cache for the earlier positions of "
                        "the deeper layers are, and every later step reads them."
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
            hint="The learned position embeddings stop at block_size: the prompt and the new tokens together "
            "must fit (a cache cannot slide a window), else raise ValueError.",
        )
    return ex.result
