"""Tests of nlp_helpers.llm_training.dpo: preference pairs, answer log-probabilities, the DPO loss and its training loop.

References: the loss against ``-logsigmoid(beta * margin)`` computed independently (numpy, a hand-worked
example) and its gradient against the closed form and ``torch.autograd.gradcheck``; the batched answer
log-probabilities against an unpadded pass per pair and TinyGPT's own cross-entropy.
"""

from __future__ import annotations

import copy
import math

import numpy as np
import pandas as pd
import pytest
import torch
from torch.nn import functional as F

from nlp_helpers.llm.gpt import CharTokenizer, TinyGPT, TinyGPTConfig
from nlp_helpers.llm_training import dpo as D

ALPHABET = list("\n '.abcdefghijklmnopqrstuvwxyz")


@pytest.fixture(scope="module")
def tok():
    return CharTokenizer(ALPHABET)


def tiny_gpt(seed: int = 0) -> TinyGPT:
    torch.manual_seed(seed)
    cfg = TinyGPTConfig(vocab_size=len(ALPHABET), block_size=32, n_layers=2, n_heads=2, d_model=16)
    return TinyGPT(cfg).eval()


# ------------------------------------------------------------------------------- preference pairs
def test_preference_pairs_hand_worked():
    frame = pd.DataFrame(
        {
            "text": [
                "the film is a joy from start to end",  # positive, "the film "
                "the film is a bore from start to end",  # negative, "the film "
                "the film sparkles with wit and grace",  # positive, "the film " (second: no partner)
                "a mess of a movie , dull and long",  # negative, "a mess " (no positive partner)
                "this é film is a treat for the eyes",  # positive: a character outside the alphabet
                "-lrb- a film -rrb- that soars so high",  # negative: the opening is not made of words
                "the film .",  # too short
            ],
            "label": [1, 0, 1, 0, 1, 0, 0],
        }
    )
    pairs = D.preference_pairs(frame, ALPHABET + [",", "-"], n_words=2, max_chars=12, min_chars=5)
    assert pairs.to_dict("records") == [{"prompt": "the film ", "chosen": "is a joy fro", "rejected": "is a bore fr"}]


def test_preference_pairs_on_the_polarity_corpus():
    from nlp_helpers.data.polarity import polarity_split

    pairs = D.preference_pairs(polarity_split()["test"], ALPHABET + list(',-!?():;"&0123456789'), max_chars=32)
    assert len(pairs) > 100
    assert (pairs.chosen != pairs.rejected).all()
    assert pairs.prompt.str.endswith(" ").all() and (pairs.prompt.str.split().str.len() == 2).all()
    assert pairs.chosen.str.len().between(20, 32).all() and pairs.rejected.str.len().between(20, 32).all()


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"frame": [("a b c", 1)]}, "frame"),
        ({"frame": pd.DataFrame({"text": ["a b c"]})}, "label"),
        ({"alphabet": []}, "alphabet"),
        ({"n_words": 0}, "n_words"),
        ({"max_chars": 0}, "max_chars"),
        ({"min_chars": 50, "max_chars": 40}, "min_chars"),
    ],
)
def test_preference_pairs_bad_inputs(kwargs, match):
    args = {"frame": pd.DataFrame({"text": ["a b c d e f"], "label": [1]}), "alphabet": ALPHABET, **kwargs}
    with pytest.raises((TypeError, ValueError), match=match):
        D.preference_pairs(**args)


# ----------------------------------------------------------------------- answer log-probabilities
def test_answer_log_probs_equal_an_unpadded_pass_per_pair(tok):
    model = tiny_gpt()
    prompts, answers = ["the film ", "a ", "it is "], ["is good .", "dull mess of a thing", "x"]
    got = D.answer_log_probs(model, tok, prompts, answers)
    for i, (p, a) in enumerate(zip(prompts, answers)):
        ids = torch.tensor([tok.encode(p + a)])
        with torch.no_grad():
            log_p = torch.log_softmax(model(ids[:, :-1]).double(), -1)[0]
        targets = ids[0, 1:]
        want = sum(log_p[t, targets[t]].item() for t in range(len(p) - 1, len(p) + len(a) - 1))
        assert got[i].item() == pytest.approx(want, rel=1e-5)


def test_answer_log_probs_equal_tinygpt_cross_entropy(tok):
    model = tiny_gpt(1)
    text = "the film is good ."
    ids = torch.tensor([tok.encode(text)])
    _, loss = model(ids[:, :-1], targets=ids[:, 1:])  # every position; prompt of one character
    got = D.answer_log_probs(model, tok, [text[0]], [text[1:]])
    assert got.item() == pytest.approx(-loss.item() * (len(text) - 1), rel=1e-5)


def test_answer_log_probs_carry_gradients_and_check_inputs(tok):
    model = tiny_gpt()
    out = D.answer_log_probs(model, tok, ["a "], ["b"])
    out.sum().backward()
    assert model.tok_emb.weight.grad is not None and model.tok_emb.weight.grad.abs().sum() > 0
    with pytest.raises(ValueError, match="same length"):
        D.answer_log_probs(model, tok, ["a ", "b "], ["c"])
    with pytest.raises(ValueError, match="answers"):
        D.answer_log_probs(model, tok, ["a "], [""])
    with pytest.raises(ValueError, match="context"):
        D.answer_log_probs(model, tok, ["a "], ["b" * 40])


# ----------------------------------------------------------------------------------- the loss
def test_dpo_loss_hand_worked():
    # the page's toy example: reference -12 (chosen), -10 (rejected); policy -9 and -13; beta 0.1
    pw, pl, rw, rl = (torch.tensor([x], dtype=torch.float64) for x in (-9.0, -13.0, -12.0, -10.0))
    margin = D.reward_margins(pw, pl, rw, rl, beta=0.1)
    assert margin.item() == pytest.approx(0.1 * ((-9 + 12) - (-13 + 10)))  # 0.6
    assert D.dpo_loss(pw, pl, rw, rl, beta=0.1).item() == pytest.approx(math.log(1 + math.exp(-0.6)), rel=1e-12)


def test_dpo_loss_equals_minus_logsigmoid_of_beta_margin():
    gen = torch.Generator().manual_seed(0)
    pw, pl, rw, rl = (-20 * torch.rand(7, generator=gen, dtype=torch.float64) for _ in range(4))
    for beta in (0.05, 0.1, 1.0, 5.0):
        m = beta * ((pw.numpy() - rw.numpy()) - (pl.numpy() - rl.numpy()))
        want = np.mean(np.logaddexp(0.0, -m))  # -log sigmoid(m) = log(1 + e^-m), in numpy
        assert D.dpo_loss(pw, pl, rw, rl, beta).item() == pytest.approx(want, rel=1e-12)
    same = D.dpo_loss(pw, pl, pw.clone(), pl.clone(), 0.3)
    assert same.item() == pytest.approx(math.log(2))  # the policy is the reference: margin 0


def test_dpo_loss_gradient():
    gen = torch.Generator().manual_seed(1)
    inputs = tuple((-10 * torch.rand(5, generator=gen, dtype=torch.float64)).requires_grad_(True) for _ in range(4))
    assert torch.autograd.gradcheck(lambda *x: D.dpo_loss(*x, beta=0.7), inputs)
    pw, pl, rw, rl = inputs
    D.dpo_loss(pw, pl, rw, rl, 0.7).backward()
    m = 0.7 * ((pw - rw) - (pl - rl)).detach()
    want = -0.7 * torch.sigmoid(-m) / 5  # d/d(pi_w) of mean(-log sigmoid(m))
    torch.testing.assert_close(pw.grad, want)
    torch.testing.assert_close(pl.grad, -want)
    torch.testing.assert_close(rw.grad, -want)


def test_dpo_loss_bad_inputs():
    t = torch.zeros(3)
    with pytest.raises(ValueError, match="beta"):
        D.dpo_loss(t, t, t, t, beta=0.0)
    with pytest.raises(ValueError, match="ref_rejected"):
        D.reward_margins(t, t, t, torch.zeros(2), beta=0.1)
    with pytest.raises(TypeError, match="policy_rejected"):
        D.dpo_loss(t, [0.0, 0.0, 0.0], t, t, beta=0.1)


# ------------------------------------------------------------------------------- the training loop
def _toy_pairs(n: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    good, bad = ["good fun", "a joy", "great"], ["dull mess", "a bore", "awful"]
    prompts = ["the film ", "it is ", "this "]
    return pd.DataFrame(
        [(prompts[rng.integers(3)], good[rng.integers(3)], bad[rng.integers(3)]) for _ in range(n)],
        columns=["prompt", "chosen", "rejected"],
    )


@pytest.mark.trains
def test_train_dpo_raises_the_held_out_margin_and_leaves_the_reference(tok):
    policy = tiny_gpt()
    reference = copy.deepcopy(policy).requires_grad_(False)
    before = {k: v.clone() for k, v in reference.state_dict().items()}
    history = D.train_dpo(
        policy, reference, tok, _toy_pairs(64, 0), _toy_pairs(16, 1), beta=0.5, lr=3e-3, steps=30, eval_every=10
    )
    assert list(history.columns) == ["step", "loss", "held-out loss", "held-out margin", "held-out ranked right"]
    assert list(history.step) == [0, 10, 20, 30]
    assert history["held-out margin"].iloc[0] == 0.0 and history["held-out ranked right"].iloc[0] == 0.5
    assert history["held-out loss"].iloc[0] == pytest.approx(math.log(2))
    # the same chosen/rejected words recur, so the margin rises on every seed (measured: > 5 after 30 steps)
    assert history["held-out margin"].iloc[-1] > 1.0 and history["held-out ranked right"].iloc[-1] > 0.9
    assert history["loss"].iloc[-1] < math.log(2)
    assert all(torch.equal(v, before[k]) for k, v in reference.state_dict().items())


def test_train_dpo_equals_the_loop_written_out(tok):
    """One step of train_dpo is the page's loop: Adam on the mean DPO loss of a random batch."""
    pairs, held = _toy_pairs(20, 2), _toy_pairs(5, 3)
    policy, mine = tiny_gpt(2), tiny_gpt(2)
    reference = copy.deepcopy(policy).requires_grad_(False)
    D.train_dpo(policy, reference, tok, pairs, held, beta=0.2, lr=1e-3, steps=2, batch_size=4, seed=5)
    from nlp_helpers.seeds import torch_generator

    gen, opt = torch_generator(5), torch.optim.Adam(mine.parameters(), lr=1e-3)
    for _ in range(2):
        batch = pairs.iloc[torch.randint(len(pairs), (4,), generator=gen).numpy()]
        p, c, r = batch.prompt.tolist(), batch.chosen.tolist(), batch.rejected.tolist()
        with torch.no_grad():
            rw, rl = D.answer_log_probs(reference, tok, p, c), D.answer_log_probs(reference, tok, p, r)
        pw, pl = D.answer_log_probs(mine, tok, p, c), D.answer_log_probs(mine, tok, p, r)
        loss = -F.logsigmoid(0.2 * ((pw - rw) - (pl - rl))).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    for a, b in zip(policy.parameters(), mine.parameters()):
        torch.testing.assert_close(a, b)


def test_train_dpo_bad_inputs(tok):
    policy = tiny_gpt()
    reference = copy.deepcopy(policy)
    pairs = _toy_pairs(4, 0)
    with pytest.raises(ValueError, match="reference"):
        D.train_dpo(policy, policy, tok, pairs, pairs)
    with pytest.raises(ValueError, match="held_out"):
        D.train_dpo(policy, reference, tok, pairs, pairs.iloc[:0])
    with pytest.raises(ValueError, match="pairs"):
        D.train_dpo(policy, reference, tok, pairs.drop(columns="chosen"), pairs)
    for name, value in [("beta", -1.0), ("lr", 0.0), ("steps", 0), ("batch_size", 0), ("eval_every", 0)]:
        with pytest.raises(ValueError, match=name):
            D.train_dpo(policy, reference, tok, pairs, pairs, **{name: value})


# ----------------------------------------------------------------------------------- sampling
def test_sample_continuations_reproducible_one_line(tok):
    model = tiny_gpt()
    a = D.sample_continuations(model, tok, ["the film ", "a "], n_samples=3, max_chars=10, seed=4)
    b = D.sample_continuations(model, tok, ["the film ", "a "], n_samples=3, max_chars=10, seed=4)
    assert a == b and len(a) == 6
    assert all(len(t) <= 10 and "\n" not in t for t in a)
    assert a != D.sample_continuations(model, tok, ["the film ", "a "], n_samples=3, max_chars=10, seed=5)
    with pytest.raises(ValueError, match="n_samples"):
        D.sample_continuations(model, tok, ["a "], n_samples=0, max_chars=10)


def test_sample_continuations_follow_the_model_distribution(tok):
    """The first character of the continuations of a short prompt, batched with a longer one, is drawn from the
    model's next-character distribution after that prompt (4 standard errors)."""
    model = tiny_gpt(3)
    n = 3000
    texts = D.sample_continuations(model, tok, ["ab", "the film is "], n_samples=n, max_chars=1, seed=0)[:n]
    with torch.no_grad():
        probs = torch.softmax(model(torch.tensor([tok.encode("ab")])).double()[0, -1], -1).numpy()
    counts = np.array([sum(t == c for t in texts) for c in ALPHABET if c != "\n"])
    want = np.array([p for c, p in zip(ALPHABET, probs) if c != "\n"])
    assert np.all(np.abs(counts / n - want) <= 4 * np.sqrt(want * (1 - want) / n) + 1e-9)
    with pytest.raises(ValueError, match="context"):
        D.sample_continuations(model, tok, ["a "], n_samples=1, max_chars=40)


# ------------------------------------------------------------------------------- the stored study
def test_dpo_study_matches_the_checkpoint_and_shows_the_effect():
    """The study's seed-0 run is the char_gpt_dpo checkpoint's run (same loop, pairs and batches), and over its
    seeds DPO raised the share of continuations the judge calls positive."""
    from nlp_helpers import checkpoints

    study = D.dpo_study()
    runs, setup = study["runs"], study["setup"]
    assert len(runs) >= 5 and list(runs.seed) == list(range(len(runs)))
    card = checkpoints.read_card("char_gpt_dpo")
    assert setup["settings"]["steps"] == card["steps"] and setup["held-out pairs"] == card["data"]["valid_pairs"]
    seed0 = runs.set_index("seed").loc[0]
    # float32 margins of the same run; the card's value_float32 was measured before rounding the weights
    assert seed0["margin after all steps"] == pytest.approx(card["metric"]["value_float32"], abs=1e-4)
    gain = runs["DPO judged positive"] - runs["reference judged positive"]
    assert (gain > 0).all()
    assert (runs["margin after all steps"] > runs["margin after live steps"]).all()
    assert (runs["ranked right after all steps"] > 0.5).all()
