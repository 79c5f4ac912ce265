"""Tests of nlp_helpers.llm_training.evaluation (option scoring) and nlp_helpers.llm_training.reasoning on SmolLM2.

References: the Hugging Face model's own loss (``model(ids, labels=...)``, the mean cross-entropy of the
labelled tokens) for an option's log-likelihood; ``model.generate(do_sample=False)`` for greedy replies;
hand-written strings for number extraction.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from nlp_helpers.data import smollm2 as loader
from nlp_helpers.llm_training import evaluation as ev
from nlp_helpers.llm_training import reasoning as rs
from nlp_helpers.llm_training.evaluation_items import ARITHMETIC, FACTS, MC_ITEMS
from nlp_helpers.llm_training.prompting import chat_text


@pytest.fixture(scope="module")
def smollm2():
    return loader.load_smollm2(verbose=False)


def _hf_option_log_likelihood(model, tok, context, option):
    ctx = tok(context, add_special_tokens=False)["input_ids"]
    opt = tok(option, add_special_tokens=False)["input_ids"]
    ids = torch.tensor([ctx + opt])
    labels = ids.clone()
    labels[0, : len(ctx)] = -100  # only the option's tokens are scored
    with torch.no_grad():
        loss = model(ids, labels=labels).loss.item()  # mean over the option's tokens
    return -loss * len(opt), len(opt)


@pytest.mark.slow
def test_option_log_likelihoods_equal_the_models_own_loss(smollm2):
    model, tok = smollm2
    context, options, _ = MC_ITEMS[2]
    got = ev.option_log_likelihoods(model, tok, context, options)
    for i, option in enumerate(options):
        want, n = _hf_option_log_likelihood(model, tok, context, option)
        assert got["tokens"][i] == n
        # float32 forward passes, batched (ours) or alone (reference)
        np.testing.assert_allclose(got["log-likelihood"][i], want, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(got["per token"], got["log-likelihood"] / got["tokens"])
    assert list(got["chars"]) == [len(o) for o in options]


@pytest.mark.slow
def test_score_continuations_equal_option_log_likelihoods(smollm2):
    model, tok = smollm2
    items = MC_ITEMS[:3]
    pairs = [(c, o) for c, opts, _ in items for o in opts]
    got, n = ev.score_continuations(model, tok, pairs, batch_size=5)  # batches that cut across items
    want = np.concatenate([ev.option_log_likelihoods(model, tok, c, opts)["log-likelihood"] for c, opts, _ in items])
    np.testing.assert_allclose(got, want, atol=1e-3)  # float32, different batch shapes
    assert list(n) == [len(tok(o, add_special_tokens=False)["input_ids"]) for _, o in pairs]


@pytest.mark.slow
def test_option_scores_do_not_depend_on_the_other_options(smollm2):
    model, tok = smollm2
    _, stem, true, false = FACTS[0]
    pair = ev.option_log_likelihoods(model, tok, stem, [true, false])
    alone = ev.option_log_likelihoods(model, tok, stem, [true])
    np.testing.assert_allclose(pair["log-likelihood"][0], alone["log-likelihood"][0], atol=1e-4)


@pytest.mark.slow
def test_greedy_reply_equals_transformers_generate(smollm2):
    model, tok = smollm2
    prompt = "The capital of France is"
    ids = tok(prompt, return_tensors="pt", add_special_tokens=False)["input_ids"]
    with torch.no_grad():
        out = model.generate(ids, max_new_tokens=12, do_sample=False, eos_token_id=tok.eos_token_id)
    want = tok.decode([t for t in out[0, ids.shape[1] :].tolist() if t != tok.eos_token_id])
    assert rs.greedy_reply(model, tok, prompt, 12) == want


@pytest.mark.slow
def test_greedy_reply_stops_at_the_end_of_turn(smollm2):
    model, tok = smollm2
    prompt = chat_text([{"role": "user", "content": "Say hello."}])
    reply = rs.greedy_reply(model, tok, prompt, 60)
    n = len(tok(reply, add_special_tokens=False)["input_ids"])
    assert "<|im_end|>" not in reply and n < 60  # the model ended its turn before the limit


@pytest.mark.slow
def test_answer_directly_and_with_cot_follow_their_protocols(smollm2):
    model, tok = smollm2
    problem = ARITHMETIC[0][0]
    direct = rs.answer_directly(model, tok, problem)
    assert direct["prompt"].endswith("<|im_start|>assistant\n" + rs.DIRECT_TRIGGER)
    assert direct["answer"] == rs.first_number(direct["reply"])
    cot = rs.answer_with_cot(model, tok, problem, max_reasoning_tokens=16, max_answer_tokens=6)
    assert cot["prompt"].endswith(rs.COT_TRIGGER)
    assert cot["reasoning"] == rs.greedy_reply(model, tok, cot["prompt"], 16)
    stage2 = f"{cot['prompt']}{cot['reasoning'].rstrip()}\n{rs.ANSWER_TRIGGER}"
    assert cot["reply"] == rs.greedy_reply(model, tok, stage2, 6)


@pytest.mark.parametrize(
    ("text", "want"),
    [
        (" 8 apples.", 8),
        ("is 1,200 dollars", 1200),
        ("-3 degrees", -3),
        ("no number here", None),
        ("", None),
        (" 12, then 5", 12),
        ("x2", 2),
    ],
)
def test_first_number(text, want):
    assert rs.first_number(text) == want


def test_cot_study_is_complete_and_consistent():
    study = rs.cot_study()
    items = study["items"]
    assert [tuple(r) for r in items[["problem", "gold"]].itertuples(index=False)] == ARITHMETIC
    for col, reply in [("direct", "direct reply"), ("cot", "cot reply")]:
        parsed = [rs.first_number(t) for t in items[reply]]
        assert [None if (a is None or a != a) else int(a) for a in items[col]] == parsed
    assert study["setup"]["max reasoning tokens"] == 64 and study["setup"]["decoding"] == "greedy"


def test_items_are_well_formed():
    for context, options, gold in MC_ITEMS:
        assert len(options) == 4 and 0 <= gold < 4 and len(set(options)) == 4
        assert all(o.startswith(" ") for o in options) and not context.endswith(" ")
    lengths = [[len(o) for o in opts] for _, opts, _ in MC_ITEMS]
    longest_right = sum(int(np.argmax(ls)) == g for ls, (_, _, g) in zip(lengths, MC_ITEMS))
    assert longest_right <= len(MC_ITEMS) // 4  # length alone does not give the answer away
    for _, stem, true, false in FACTS:
        assert true.startswith(" ") and false.startswith(" ") and true != false and not stem.endswith(" ")


@pytest.mark.parametrize(
    ("call", "exc", "match"),
    [
        (lambda m, t: ev.option_log_likelihoods(m, t, "", [" a"]), ValueError, "context must be a non-empty"),
        (lambda m, t: ev.option_log_likelihoods(m, t, "Q:", []), ValueError, "options must not be empty"),
        (lambda m, t: ev.option_log_likelihoods(m, t, "Q:", " a"), TypeError, "options must be a sequence"),
        (lambda m, t: ev.option_log_likelihoods(m, t, "Q:", [" a", 3]), TypeError, r"options\[1\]"),
        (lambda m, t: ev.score_continuations(m, t, []), ValueError, "pairs must not be empty"),
        (lambda m, t: ev.score_continuations(m, t, [("Q:",)]), TypeError, r"pairs\[0\] must be a"),
        (lambda m, t: ev.score_continuations(m, t, [("Q:", " a")], batch_size=0), ValueError, "batch_size"),
        (lambda m, t: rs.greedy_reply(m, t, "Hi", 0), ValueError, "max_new_tokens must be >= 1"),
        (lambda m, t: rs.greedy_reply(m, t, "", 3), ValueError, "text must be a non-empty"),
        (lambda m, t: rs.answer_with_cot(m, t, "2 + 2?", max_answer_tokens=0), ValueError, "max_answer_tokens"),
        (lambda m, t: rs.first_number(8), TypeError, "text must be a str"),
    ],
)
def test_bad_inputs_name_the_argument(call, exc, match):
    with pytest.raises(exc, match=match):
        call(None, None)
