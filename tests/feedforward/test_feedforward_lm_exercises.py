"""The exercise of the neural LM page: the worked solution passes, unusable answers get a verdict, and the
catalogue of typical wrong answers is rejected with a hint naming the mistake.

* ``tied_window_lm(vocab_size, k, dim, seed)`` returns the model: E used as the output matrix (the same Parameter), an output bias,
  E starting uniform in [-0.1, 0.1], tanh hidden layer of size dim with its bias b, gradients of E through both paths;
  the start drawn from ``seed`` (manual_seed(seed) before the layers: the same seed twice gives the same model).
"""

from __future__ import annotations

import re

import pytest
import torch
from torch import nn

from nlp_helpers.exercises.checker import STRICT_ENV
from nlp_helpers.feedforward import lm_exercises as lex
from nlp_helpers.seeds import manual_seed
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test, stub


@pytest.fixture(autouse=True)
def lenient(monkeypatch):
    monkeypatch.delenv(STRICT_ENV, raising=False)


# ----- a window LM with tied weights
class TiedWindowLM(nn.Module):
    def __init__(self, vocab_size, k=3, dim=64, seed=0):
        super().__init__()
        manual_seed(seed)
        self.embed = nn.Embedding(vocab_size, dim)
        nn.init.uniform_(self.embed.weight, -0.1, 0.1)
        self.hid = nn.Linear(k * dim, dim)
        self.bias = nn.Parameter(torch.zeros(vocab_size))

    def forward(self, contexts):
        h = torch.tanh(self.hid(self.embed(contexts).flatten(1)))
        return h @ self.embed.weight.T + self.bias


class TiedDefaultStart(TiedWindowLM):  # nn.Embedding's N(0, 1) start
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        nn.init.normal_(self.embed.weight)


class TiedByAssignment(nn.Module):  # PyTorch's idiom: the output Linear's weight is the embedding Parameter
    def __init__(self, vocab_size, k=3, dim=64, seed=0):
        super().__init__()
        torch.manual_seed(seed)
        self.embed = nn.Embedding(vocab_size, dim)
        self.hid = nn.Linear(k * dim, dim)
        self.out = nn.Linear(dim, vocab_size)
        self.out.weight = self.embed.weight
        with torch.no_grad():
            self.embed.weight.uniform_(-0.1, 0.1)

    def forward(self, contexts):
        return self.out(torch.tanh(self.hid(self.embed(contexts).flatten(1))))


class TiedByCopy(TiedByAssignment):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.out.weight = nn.Parameter(self.embed.weight.detach().clone())


class TiedDetached(TiedWindowLM):
    def forward(self, contexts):
        h = torch.tanh(self.hid(self.embed(contexts).flatten(1)))
        return h @ self.embed.weight.detach().T + self.bias


class TiedNoTanh(TiedWindowLM):
    def forward(self, contexts):
        return self.hid(self.embed(contexts).flatten(1)) @ self.embed.weight.T + self.bias


class TiedNoBias(nn.Module):
    def __init__(self, vocab_size, k=3, dim=64, seed=0):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        nn.init.uniform_(self.embed.weight, -0.1, 0.1)
        self.hid = nn.Linear(k * dim, dim)

    def forward(self, contexts):
        return torch.tanh(self.hid(self.embed(contexts).flatten(1))) @ self.embed.weight.T


class TiedReversedContext(TiedWindowLM):
    def forward(self, contexts):
        h = torch.tanh(self.hid(self.embed(contexts.flip(1)).flatten(1)))
        return h @ self.embed.weight.T + self.bias


class TiedWideHidden(nn.Module):  # hidden size 2 * dim: then E cannot score h
    def __init__(self, vocab_size, k=3, dim=64, seed=0):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        nn.init.uniform_(self.embed.weight, -0.1, 0.1)
        self.hid = nn.Linear(k * dim, 2 * dim)
        self.down = nn.Linear(2 * dim, dim, bias=False)
        self.bias = nn.Parameter(torch.zeros(vocab_size))

    def forward(self, contexts):
        return self.down(torch.tanh(self.hid(self.embed(contexts).flatten(1)))) @ self.embed.weight.T + self.bias


class TiedNoSeed(TiedWindowLM):  # "call manual_seed(seed) before creating the layers": never seeded
    def __init__(self, vocab_size, k=3, dim=64, seed=0):
        nn.Module.__init__(self)
        self.embed = nn.Embedding(vocab_size, dim)
        nn.init.uniform_(self.embed.weight, -0.1, 0.1)
        self.hid = nn.Linear(k * dim, dim)
        self.bias = nn.Parameter(torch.zeros(vocab_size))


class TiedNoHiddenBias(TiedWindowLM):  # h = tanh(W [e_1; ...; e_k] + b): the b left out
    def __init__(self, vocab_size, k=3, dim=64, seed=0):
        super().__init__(vocab_size, k=k, dim=dim, seed=seed)
        self.hid = nn.Linear(k * dim, dim, bias=False)


def _builder(cls):
    """The answer is a function that builds the model: here, one per class above."""

    def build(vocab_size, k=3, dim=64, seed=0):
        return cls(vocab_size, k=k, dim=dim, seed=seed)

    build.__name__ = re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()
    return build


CATALOGUE = {
    lex.check_tied_window_lm: Catalogue(
        correct=[_builder(TiedWindowLM), _builder(TiedByAssignment)],
        wrong=[
            Wrong(_builder(TiedByCopy), ("separate output matrix", "same Parameter")),
            Wrong(_builder(TiedDetached), ("both", "detach")),
            Wrong(_builder(TiedNoTanh), "non-linearity"),
            Wrong(_builder(TiedNoBias), "output bias"),
            Wrong(_builder(TiedDefaultStart), ("uniform in [-0.1, 0.1]", "N(0, 1)")),
            Wrong(_builder(TiedReversedContext), "order of the context"),
            Wrong(_builder(TiedWideHidden), "parameters"),
            Wrong(_builder(TiedNoSeed), ("seed", "manual_seed(seed)")),
            Wrong(_builder(TiedNoHiddenBias), "with its bias"),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)


def test_stub_is_not_yet():
    assert lex.check_tied_window_lm(stub).status == "not yet"


@pytest.mark.parametrize("answer", [None, float("nan"), "text", [], 42])
def test_unusable_answers_are_wrong_without_crashing(answer):
    result = lex.check_tied_window_lm(lambda *args, **kwargs: answer)
    assert result.status == "wrong" and result.message


def test_the_tied_formula_equals_the_window_lm_with_the_output_matrix_set_to_e():
    """``_tied_logits`` with a separate output matrix is ``WindowLM``'s forward pass (hidden = dim)."""
    from nlp_helpers.feedforward.window_lm import WindowLM

    lm = WindowLM(11, k=2, dim=4, hidden=4, seed=0)
    ctx = torch.randint(0, 11, (5, 2), generator=torch.Generator().manual_seed(0))
    with torch.no_grad():
        got = lex._tied_logits(lm.embed.weight, lm.hid.weight, lm.hid.bias, lm.out.bias, ctx, tied_out=lm.out.weight)
        assert torch.allclose(got, lm(ctx), atol=1e-6)
