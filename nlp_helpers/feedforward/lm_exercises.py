"""Checkers for the exercises of the page "Neural language models" (``book/feedforward/neural_lm``).

``tied_window_lm(vocab_size, k, dim, seed)`` builds the fixed-window LM of :mod:`nlp_helpers.feedforward.window_lm`
with its output matrix tied to the embeddings (hidden size = ``dim``) and returns it. Checked on the module the student
builds: the parameter count (no separate output matrix, an output bias), the embeddings' start (uniform in
[-0.1, 0.1]), the logits against the formula
computed from the model's own parameters, and the gradient of the embeddings through both of their paths
(as inputs and as output weights) against autograd on that formula.

``perplexity_by_hand()`` returns the perplexity of four tokens worked out on paper, checked as a value with the
typical slips recognised (the arithmetic mean of 1/p, 1 / mean p, the cross-entropy itself, no 4th root).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch

from nlp_helpers.exercises.checker import Checker, CheckResult

__all__ = ["check_perplexity_by_hand", "check_tied_window_lm"]

_V, _K, _D = 13, 3, 5  # shapes that tell the parameters apart: E (13, 5), W (5, 15), b (5,), c (13,)


def _tied_logits(E, W, b, c, contexts, *, tanh=True, tied_out=None):
    h = E[contexts].flatten(1) @ W.T + b  # (B, d): W [e_1; ...; e_k] + b
    h = torch.tanh(h) if tanh else h
    return h @ (E if tied_out is None else tied_out).T + c  # (B, V): z = E h + c


def _parameters(ex: Checker, model) -> dict[str, torch.Tensor]:
    ex.expect(
        isinstance(model, torch.nn.Module),
        f"tied_window_lm(...) should return the model, a torch.nn.Module, got {type(model).__name__}.",
    )
    params = list(model.parameters())  # a tied matrix is listed once
    n = sum(p.numel() for p in params)
    want = _V * _D + (_K * _D * _D + _D) + _V
    ex.expect(
        n != want + _V * _D,
        f"tied_window_lm({_V}, k={_K}, dim={_D}) has {n} parameters: {_V * _D} more than a tied model, one "
        "separate output matrix. The output layer must use the embedding matrix itself (the same Parameter), "
        "not a copy of its starting values.",
    )
    ex.expect(
        n != want - _V,
        f"tied_window_lm({_V}, k={_K}, dim={_D}) has no output bias: z = E h + c has a bias c, one per word.",
    )
    ex.expect(
        n == want,
        f"tied_window_lm({_V}, k={_K}, dim={_D}) has {n} parameters. The tied model has the embeddings E "
        f"({_V} x {_D}), the hidden layer W ({_D} x {_K * _D}) with its bias, and the output bias c, nothing else.",
    )
    by_shape = {tuple(p.shape): p for p in params}
    shapes = {"E": (_V, _D), "W": (_D, _K * _D), "b": (_D,), "c": (_V,)}
    missing = [name for name, shape in shapes.items() if shape not in by_shape]
    ex.expect(
        not missing,
        f"tied_window_lm({_V}, k={_K}, dim={_D}) lacks a parameter of shape {shapes[missing[0]] if missing else ''}: "
        "the hidden layer maps the k concatenated embeddings (k * dim) to dim units.",
    )
    E = by_shape[shapes["E"]].detach()
    ex.expect(
        float(E.abs().max()) <= 0.1 and float(E.std()) > 0.03,
        f"the embeddings of a new tied model range over [{float(E.min()):.3g}, {float(E.max()):.3g}]: start them "
        "uniform in [-0.1, 0.1] as the exercise says. They are the output weights too, and nn.Embedding's "
        "N(0, 1) start makes every output score huge.",
    )
    return {name: by_shape[shape] for name, shape in shapes.items()}


def check_tied_window_lm(tied_window_lm: Callable) -> CheckResult:
    """``tied_window_lm(vocab_size, k, dim, seed)`` returns an ``nn.Module`` whose ``forward(contexts)`` maps ``(B, k)`` ids
    to ``(B, V)`` logits ``E tanh(W [e_1; ...; e_k] + b) + c``, with the embedding matrix ``E`` as output matrix."""
    with Checker("A window LM with tied weights") as ex:
        model = ex.call(tied_window_lm, _V, k=_K, dim=_D, seed=0)
        p = _parameters(ex, model)
        again, other = (ex.call(tied_window_lm, _V, k=_K, dim=_D, seed=s) for s in (0, 1))
        start = [q.detach().clone() for q in model.parameters()]
        ex.expect(
            isinstance(again, torch.nn.Module)
            and all(torch.equal(q, r) for q, r in zip(start, again.parameters()))
            and isinstance(other, torch.nn.Module)
            and not all(torch.equal(q, r) for q, r in zip(start, other.parameters())),
            f"tied_window_lm({_V}, k={_K}, dim={_D}, seed=...) does not start from the seed: two models built "
            "with the same seed must start equal, and with another seed differ. Call manual_seed(seed) before "
            "creating the layers.",
        )
        contexts = torch.randint(0, _V, (7, _K), generator=torch.Generator().manual_seed(0))
        logits = ex.call(model, contexts)
        ex.expect(
            isinstance(logits, torch.Tensor) and tuple(logits.shape) == (len(contexts), _V),
            f"model(contexts) for contexts of shape {tuple(contexts.shape)} should return logits of shape "
            f"{(len(contexts), _V)}, one score per vocabulary word; got {tuple(getattr(logits, 'shape', ()))}.",
        )
        with torch.no_grad():
            want = _tied_logits(p["E"], p["W"], p["b"], p["c"], contexts)
            no_tanh = _tied_logits(p["E"], p["W"], p["b"], p["c"], contexts, tanh=False)
        got = logits.detach()
        if not torch.allclose(got, want, rtol=1e-4, atol=1e-5):
            ex.expect(
                not torch.allclose(got, no_tanh, rtol=1e-4, atol=1e-5),
                "the hidden layer has no non-linearity: h = tanh(W [e_1; ...; e_k] + b).",
            )
            ex.fail(
                "model(contexts) differs from z = E h + c with h = tanh(W [e_1; ...; e_k] + b), computed from your "
                "model's own parameters: the scores of word w are the dot product of h with w's embedding (row w "
                "of E), plus c_w; the context embeddings are concatenated in the order of the context."
            )
        weights = torch.randn(logits.shape, generator=torch.Generator().manual_seed(1))
        for q in model.parameters():
            q.grad = None
        (logits * weights).sum().backward()
        leaves = {k: v.detach().clone().requires_grad_(True) for k, v in p.items()}
        (_tied_logits(**leaves, contexts=contexts) * weights).sum().backward()
        grad = p["E"].grad
        ex.expect(
            grad is not None and torch.allclose(grad, leaves["E"].grad, rtol=1e-4, atol=1e-5),
            "the gradient of the loss with respect to E is not the sum over both of E's uses: it must flow back "
            "through the output scores (E h) and through the context embeddings. Do not detach or copy E in "
            "either place.",
        )
    return ex.result


# ----- perplexity by hand ------------------------------------------------------------------------
_PPL_PROBS = (0.25, 0.5, 0.125, 0.5)  # the probabilities of the exercise's four test tokens
_PPL_MISTAKES = [
    (
        1 / (sum(_PPL_PROBS) / 4),
        "that is 1 / (mean probability); perplexity is the geometric mean: "
        "exp of the mean negative log-probability, or (p1 p2 p3 p4)^(-1/4).",
    ),
    (
        sum(1 / p for p in _PPL_PROBS) / 4,
        "that is the arithmetic mean of 1/p; perplexity takes the geometric mean, (p1 p2 p3 p4)^(-1/4).",
    ),
    (128.0, "that is 1 / (p1 p2 p3 p4); take its 4th root: perplexity is per token."),
    (1.75, "that is the cross-entropy in bits per token; perplexity is 2 to that power."),
    (1.75 * np.log(2), "that is the cross-entropy in nats per token; perplexity is e to that power."),
]


def check_perplexity_by_hand(perplexity_by_hand: Callable) -> CheckResult:
    """``perplexity_by_hand()``: the perplexity (a number) of four tokens of probability 1/4, 1/2, 1/8, 1/2."""
    with Checker("Perplexity by hand") as ex:
        got = ex.call(perplexity_by_hand)
        ex.expect(
            isinstance(got, (int, float, np.floating, np.integer)) and not isinstance(got, bool),
            f"perplexity_by_hand() should return one number, got {type(got).__name__}.",
        )
        value = float(got)
        want = float(np.prod(_PPL_PROBS) ** (-1 / len(_PPL_PROBS)))
        if not np.isclose(value, want, rtol=1e-3):
            for wrong, hint in _PPL_MISTAKES:
                if np.isclose(value, wrong, rtol=1e-3):
                    ex.fail(hint)
            ex.fail(
                f"{value:g} is not the perplexity: multiply the four probabilities, then raise the product to "
                "the power -1/4 (or: average -log p, then exponentiate in the same base)."
            )
    return ex.result
