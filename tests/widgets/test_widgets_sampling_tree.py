"""SamplingTree: the tree of top-k next tokens against a transformers model run one prefix at a time and
against ``generate`` (greedy), and its JavaScript draws (under Node) against numpy.

References: ``LlamaForCausalLM`` (a tiny randomly initialised one; logits of every node equal the model's
own logits for that prefix, relative 1e-5; the first-child path equals ``generate(do_sample=False)``),
numpy's softmax (probabilities shown, 1e-12) and a Python port of the page's seeded uniform generator
with inverse-CDF sampling (the drawn path, exactly).
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from nlp_helpers.widgets.sampling_tree import SamplingTree, next_token_tree
from tests.tiny_models import tiny_llama
from tests.widget_node import run_widget_js

M32 = 0xFFFFFFFF


def uniform(seed: int, t: int) -> float:
    """mulberry32 as written in sampling_tree.js, on unsigned 32-bit integers."""
    a = (seed + 0x6D2B79F5 * (t + 1)) & M32
    x = ((a ^ (a >> 15)) * (a | 1)) & M32
    x ^= (x + (((x ^ (x >> 7)) * (x | 61)) & M32)) & M32
    return ((x ^ (x >> 14)) & M32) / 2**32


@pytest.fixture(scope="module")
def tiny_llm():
    # no end-of-text token: generate must produce all the tokens
    return tiny_llama(
        hidden_size=16,
        intermediate_size=32,
        num_attention_heads=2,
        num_key_value_heads=2,
        bos_token_id=None,
        eos_token_id=None,
    )


def next_logits_of(model):
    def f(rows):
        with torch.no_grad():
            return model(torch.as_tensor(rows)).logits[:, -1].numpy()

    return f


def test_every_node_holds_the_models_top_k_for_its_prefix(tiny_llm):
    prompt, depth, k = [3, 7, 1], 3, 3
    tree = next_token_tree(next_logits_of(tiny_llm), prompt, depth, k)
    n_internal = (k**depth - 1) // (k - 1)
    assert len(tree["logits"]) == len(tree["top_mass"]) == n_internal and len(tree["ids"]) == n_internal * k
    for n in range(n_internal):
        prefix, m = [], n  # walk up: the parent of m is (m - 1) // k
        while m > 0:
            prefix.insert(0, tree["ids"][m - 1])
            m = (m - 1) // k
        with torch.no_grad():
            full = tiny_llm(torch.tensor([prompt + prefix])).logits[0, -1].double().numpy()
        top = np.argsort(-full, kind="stable")[:k]
        assert tree["ids"][n * k : n * k + k] == top.tolist()
        np.testing.assert_allclose(tree["logits"][n], full[top], rtol=1e-5, atol=1e-6)
        p = np.exp(full - full.max())
        assert tree["top_mass"][n] == pytest.approx(p[top].sum() / p.sum(), rel=1e-6)


def test_the_first_child_path_is_greedy_generation(tiny_llm):
    prompt, depth, k = [5, 2], 4, 2
    tree = next_token_tree(next_logits_of(tiny_llm), prompt, depth, k)
    n, path = 0, []
    for _ in range(depth):
        n = n * k + 1
        path.append(tree["ids"][n - 1])
    out = tiny_llm.generate(torch.tensor([prompt]), do_sample=False, max_new_tokens=depth)
    assert out[0, len(prompt) :].tolist() == path


def widget(seed=7, temperature=1.0):
    rng = np.random.default_rng(0)
    k, depth = 3, 3
    n_internal = (k**depth - 1) // (k - 1)
    logits = -np.sort(-rng.normal(size=(n_internal, k)) * 2, axis=1)
    tokens = [f" t{i}" for i in range(n_internal * k)]
    return SamplingTree("Once", tokens, logits, np.full(n_internal, 0.5), temperature=temperature, seed=seed)


def state(w):
    return {x: getattr(w, x) for x in ("prompt", "k", "depth", "tokens", "logits", "top_mass", "temperature", "seed")}


def test_javascript_probabilities_and_draws_equal_numpy(tmp_path):
    w = widget()
    k = w.k
    out = run_widget_js(w._esm, state(w), [{"testid": "st-temp", "value": "0.7"}], tmp_path)
    z = np.array(w.logits[0]) / 0.7
    p = np.exp(z - z.max()) / np.exp(z - z.max()).sum()
    np.testing.assert_allclose([float(out[f"st-p-{j}"]["attrs"]["data-p"]) for j in range(k)], p, rtol=1e-12)

    actions = [{"testid": "st-temp", "value": "0.7"}] + [{"testid": "st-draw", "click": True}] * 3
    out = run_widget_js(w._esm, state(w), actions, tmp_path)
    n, want = 0, [0]
    for t in range(3):
        z = np.array(w.logits[n]) / 0.7
        p = np.exp(z - z.max()) / np.exp(z - z.max()).sum()
        j = min(int(np.searchsorted(np.cumsum(p), uniform(7, t), side="right")), k - 1)
        n = n * k + 1 + j
        want.append(n)
    assert out["st-text"]["attrs"]["data-path"] == " ".join(map(str, want))
    assert float(out["st-u"]["attrs"]["data-u"]) == pytest.approx(uniform(7, 2), abs=1e-15)
    assert out["st-draw"]["disabled"]  # the tree ends at depth 3


def test_greedy_choose_back_and_restart(tmp_path):
    w = widget(temperature=0.0)
    out = run_widget_js(w._esm, state(w), [{"testid": "st-draw", "click": True}] * 2, tmp_path)
    assert out["st-text"]["attrs"]["data-path"] == "0 1 4"  # greedy: always the first child
    actions = [{"testid": "st-choose-2", "click": True}, {"testid": "st-draw", "click": True}]
    actions += [{"testid": "st-back", "click": True}]
    out = run_widget_js(w._esm, state(w), actions, tmp_path)
    assert out["st-text"]["attrs"]["data-path"] == "0 3"
    out = run_widget_js(w._esm, state(w), actions + [{"testid": "st-restart", "click": True}], tmp_path)
    assert out["st-text"]["attrs"]["data-path"] == "0"


def test_ships_rounded_logits():
    w = widget()
    assert all(x == round(x, 3) for row in w.logits for x in row)
    assert w.depth == 3 and w.k == 3


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"logits": np.zeros((5, 3))}, "complete tree"),
        ({"logits": np.zeros((13, 1))}, "at least 2 columns"),
        ({"tokens": ["a"] * 5}, "tokens must hold 39"),
        ({"top_mass": np.full(13, 1.5)}, "top_mass must hold probabilities"),
        ({"temperature": 3.0}, "temperature"),
        ({"seed": -1}, "seed"),
    ],
)
def test_bad_input_names_the_argument(kwargs, match):
    args = {"prompt": "x", "tokens": ["a"] * 39, "logits": np.zeros((13, 3)), "top_mass": np.full(13, 0.5)} | kwargs
    with pytest.raises((ValueError, TypeError), match=match):
        SamplingTree(**args)


@pytest.mark.parametrize(
    "args, match",
    [
        ((None, [1], 2, 2), "next_logits must be a callable"),
        ((lambda r: np.zeros((len(r), 9)), [], 2, 2), "prompt_ids must hold at least one"),
        ((lambda r: np.zeros((len(r), 9)), [1], 0, 2), "depth"),
        ((lambda r: np.zeros((len(r), 9)), [1], 8, 10), "model calls"),
        ((lambda r: np.zeros((1, 9)), [1], 2, 2), "next_logits returned shape"),
    ],
)
def test_tree_bad_input(args, match):
    with pytest.raises((ValueError, TypeError), match=match):
        next_token_tree(*args)


class _Tokenizer:
    """Token ids written as numbers: enough for from_model."""

    def __call__(self, text):
        return {"input_ids": [int(x) for x in text.split()]}

    def decode(self, ids):
        return " " + " ".join(map(str, ids))


def test_from_model_with_the_cache_equals_whole_rows(tiny_llm):
    w = SamplingTree.from_model(tiny_llm, _Tokenizer(), "3 7 1 4", depth=3, k=3)
    tree = next_token_tree(next_logits_of(tiny_llm), [3, 7, 1, 4], 3, 3)
    assert w.tokens == [f" {i}" for i in tree["ids"]]
    np.testing.assert_allclose(w.logits, np.round(tree["logits"], 3), atol=1.5e-3)
    np.testing.assert_allclose(w.top_mass, np.round(tree["top_mass"], 3), atol=1.5e-3)
    with pytest.raises(ValueError, match="prompt"):
        SamplingTree.from_model(tiny_llm, _Tokenizer(), "", depth=2, k=2)


def test_spaces_are_shown_as_in_the_other_widgets(tmp_path):
    # "␣" marks a space in every widget of the book (the BPE and next-token explorers), not "·".
    w = widget(temperature=0.0)
    out = run_widget_js(w._esm, state(w), [{"testid": "st-draw", "click": True}], tmp_path)
    assert "␣t" in out["st-text"]["text"] and "·" not in out["st-root"]["text"]


def test_the_reader_is_told_how_deep_the_tree_goes_before_reaching_its_end(tmp_path):
    w = widget()
    out = run_widget_js(w._esm, state(w), [], tmp_path)
    assert "computed 3 tokens ahead" in out["st-readout"]["text"]
