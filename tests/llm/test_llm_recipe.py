"""Tests of the training recipe: nlp_helpers.llm.recipe and TinyGPT's recipe options.

References: hand-worked schedule values and torch's ``CosineAnnealingLR``; ``F.cross_entropy`` with
``label_smoothing``; a hand-written AdamW loop with ``LambdaLR``; GPT-2's ``0.02 / sqrt(2N)``.
"""

from __future__ import annotations

import copy
import math

import pandas as pd
import pytest
import torch
import torch.nn.functional as F

from nlp_helpers.llm import recipe
from nlp_helpers.llm.gpt import CharTokenizer, TinyGPT, TinyGPTConfig, get_batch, train
from nlp_helpers.llm.recipe import scaled_init_std, warmup_cosine
from nlp_helpers.seeds import manual_seed, torch_generator

# the variants of benchmarks/seed_study_recipe.py that the chapter shows
VARIANTS = {
    "baseline",
    "+ dropout 0.1",
    "+ warm-up and cosine decay",
    "+ scaled residual init",
    "+ label smoothing 0.1",
}
COLUMNS = ["variant", "seed", "bpc", "entropy", "accuracy", "confidence", "ece", "cpu_s", "kernel"]


def small_model(V=11, seed=0, **kw):
    manual_seed(seed)
    return TinyGPT(TinyGPTConfig(vocab_size=V, **{"block_size": 16, "d_model": 32, "n_heads": 4, **kw}))


# ------------------------------------------------------------------ schedule
def test_warmup_cosine_hand_worked_values():
    got = [warmup_cosine(s, total=10, warmup=4, floor=0.1) for s in range(10)]
    # warm-up (s+1)/4; then 0.1 + 0.45 (1 + cos(pi k / 5)) for k = 0..5; cos(72 deg) = 0.30901699
    want = [0.25, 0.5, 0.75, 1.0, 1.0, None, 0.1 + 0.45 * (1 + 0.30901699), None, None, 0.1]
    for g, w in zip(got, want):
        if w is not None:
            assert g == pytest.approx(w, abs=1e-8)
    assert all(a >= b for a, b in zip(got[3:], got[4:]))  # never rises after the warm-up
    assert warmup_cosine(25, total=10, warmup=4) == pytest.approx(0.1)  # past the end: the floor
    assert [warmup_cosine(s, 10, 0, floor=1.0) for s in range(10)] == [1.0] * 10  # constant


def test_warmup_cosine_decay_equals_torch_cosine_annealing():
    lr, total, warmup, floor = 3e-3, 40, 8, 0.1
    opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=total - warmup - 1, eta_min=floor * lr)
    for k in range(total - warmup):
        assert lr * warmup_cosine(warmup + k, total, warmup, floor) == pytest.approx(sched.get_last_lr()[0], rel=1e-9)
        opt.step()
        sched.step()


def test_scaled_init_std_is_gpt2s():
    assert scaled_init_std(2) == pytest.approx(0.01)
    assert scaled_init_std(8) == pytest.approx(0.005)
    assert scaled_init_std(12, std=0.02) == pytest.approx(0.02 / math.sqrt(24))


# ------------------------------------------------------------------ model options
def test_scaled_init_shrinks_only_the_residual_output_layers():
    manual_seed(0)
    model = TinyGPT(TinyGPTConfig(vocab_size=50, block_size=8, n_layers=8, n_heads=4, d_model=256, scaled_init=True))
    for block in model.blocks:  # 65,536 and 262,144 draws: the sample sd is within 1% of the target
        assert block.attn.proj.weight.std().item() == pytest.approx(0.005, rel=0.02)
        assert block.mlp[2].weight.std().item() == pytest.approx(0.005, rel=0.02)
        assert block.attn.qkv.weight.std().item() == pytest.approx(0.02, rel=0.02)
        assert block.mlp[0].weight.std().item() == pytest.approx(0.02, rel=0.02)


def test_default_model_is_unchanged_by_the_options_being_off():
    a = small_model(seed=3)
    b = small_model(seed=3, dropout=0.0, scaled_init=False)
    assert a.state_dict().keys() == b.state_dict().keys()
    for k in a.state_dict():
        assert torch.equal(a.state_dict()[k], b.state_dict()[k])


def test_dropout_acts_only_while_training():
    model = small_model(dropout=0.3)
    plain = small_model(dropout=0.0)
    plain.load_state_dict(model.state_dict())  # same parameters: dropout has none
    ids = torch.randint(0, 11, (2, 16), generator=torch_generator(0))
    model.eval(), plain.eval()
    with torch.no_grad():
        assert torch.equal(model(ids), plain(ids))
        model.train(), plain.train()
        assert not torch.equal(model(ids), model(ids))  # a new mask every pass
        assert torch.equal(plain(ids), plain(ids))  # p = 0: deterministic, draws no random numbers


# ------------------------------------------------------------------ training options
def data_and_tokenizer():
    text = "to be or not to be, that is the question. " * 10
    tok = CharTokenizer.from_text(text)
    return torch.tensor(tok.encode(text)), tok


@pytest.mark.parametrize("smoothing", [0.0, 0.1])
def test_train_loss_is_torch_cross_entropy_with_label_smoothing(smoothing):
    data, tok = data_and_tokenizer()
    model = small_model(tok.vocab_size)
    before = copy.deepcopy(model)
    x, y = get_batch(data, 16, 4, torch_generator(7))  # the batch train draws first with seed 7
    with torch.no_grad():
        want = F.cross_entropy(before(x).reshape(-1, tok.vocab_size), y.reshape(-1), label_smoothing=smoothing)
    hist = train(
        model, data, data, steps=1, batch_size=4, eval_every=1, seed=7, progress=False, label_smoothing=smoothing
    )
    assert hist[1]["train_loss"] == pytest.approx(want.item(), rel=1e-6)


def test_train_schedule_equals_a_written_out_adamw_loop_with_lambdalr():
    data, tok = data_and_tokenizer()
    steps, warmup, lr = 6, 2, 1e-2
    model = small_model(tok.vocab_size, seed=2)
    ref = copy.deepcopy(model)
    train(model, data, data, steps=steps, batch_size=4, lr=lr, seed=4, progress=False, warmup=warmup, cosine=True)
    opt = torch.optim.AdamW(ref.parameters(), lr=lr, weight_decay=0.01)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: warmup_cosine(s, steps, warmup, 0.1))
    gen = torch_generator(4)
    ref.train()
    for _ in range(steps):
        x, y = get_batch(data, 16, 4, gen)
        _, loss = ref(x, y)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(ref.parameters(), 1.0)
        opt.step()
        sched.step()
    for (name, p), q in zip(model.named_parameters(), ref.parameters()):
        torch.testing.assert_close(p, q, rtol=1e-5, atol=1e-6, msg=name)
    # and the schedule mattered: a constant rate ends elsewhere
    const = small_model(tok.vocab_size, seed=2)
    train(const, data, data, steps=steps, batch_size=4, lr=lr, seed=4, progress=False)
    assert not torch.allclose(const.blocks[0].attn.qkv.weight, model.blocks[0].attn.qkv.weight, atol=1e-6)


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize(
    ("call", "exc", "match"),
    [
        (lambda: warmup_cosine(0, total=0), ValueError, "total must be >= 1"),
        (lambda: warmup_cosine(0, total=10, warmup=11), ValueError, "warmup must be <= 10"),
        (lambda: warmup_cosine(-1, total=10), ValueError, "step must be >= 0"),
        (lambda: warmup_cosine(0, total=10, floor=1.5), ValueError, "floor must be <= 1"),
        (lambda: warmup_cosine(0.5, total=10), TypeError, "step must be an integer"),
        (lambda: scaled_init_std(0), ValueError, "n_layers must be >= 1"),
        (lambda: scaled_init_std(2, std=0.0), ValueError, "std must be > 0"),
        (lambda: TinyGPTConfig(vocab_size=5, dropout=1.0), ValueError, "dropout must be < 1"),
        (lambda: TinyGPTConfig(vocab_size=5, dropout=-0.1), ValueError, "dropout must be >= 0"),
        (lambda: TinyGPTConfig(vocab_size=5, dropout="0.1"), TypeError, "dropout must be a number"),
        (lambda: TinyGPTConfig(vocab_size=5, scaled_init=1), TypeError, "scaled_init must be bool"),
    ],
)
def test_recipe_bad_input_names_the_argument(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


@pytest.mark.parametrize(
    ("kw", "exc", "match"),
    [
        ({"warmup": 4}, ValueError, "warmup must be <= 3"),
        ({"warmup": -1}, ValueError, "warmup must be >= 0"),
        ({"cosine": 1}, TypeError, "cosine must be bool"),
        ({"label_smoothing": 1.0}, ValueError, "label_smoothing must be < 1"),
        ({"label_smoothing": -0.1}, ValueError, "label_smoothing must be >= 0"),
    ],
)
def test_train_recipe_bad_input_names_the_argument(kw, exc, match):
    data, tok = data_and_tokenizer()
    with pytest.raises(exc, match=match):
        train(small_model(tok.vocab_size), data, data, steps=3, progress=False, **kw)


# ------------------------------------------------------------------ the stored ablation
def test_stored_recipe_study_schema_and_seeds():
    study = recipe.recipe_study()
    assert list(study.columns) == COLUMNS
    assert set(study.variant) >= VARIANTS
    assert not study[COLUMNS[2:-1]].isna().any().any()
    assert not study.duplicated(["variant", "seed", "kernel"]).any()
    native = study[study.kernel == "native"].groupby("variant").seed.nunique()
    assert (native >= 5).all(), native
    # every variant also ran once on the other kernel path, with a seed that also ran natively
    default = study[study.kernel == "default"]
    assert set(default.variant) == set(native.index)
    assert pd.api.types.is_float_dtype(study.bpc)
    assert study.bpc.between(1.5, math.log2(84) + 0.5).all()  # better than a uniform guess over 84 characters
    assert study.entropy.between(0, math.log2(84)).all()  # a distribution over 84 characters
    assert study.accuracy.between(1 / 84, 1).all() and study.confidence.between(1 / 84, 1).all()
    # ECE is a weighted mean of |accuracy - confidence| per bin: at least their overall gap, at most 1
    assert (study.ece >= (study.accuracy - study.confidence).abs() - 1e-9).all() and (study.ece <= 1).all()


def test_default_kernel_runs_agree_with_the_native_spread():
    study = recipe.recipe_study()
    native = study[study.kernel == "native"].groupby("variant").bpc.agg(["mean", "std"])
    for row in study[study.kernel == "default"].itertuples():
        mean, sd = native.loc[row.variant]
        assert abs(row.bpc - mean) < 4 * sd + 0.02, (row.variant, row.bpc, mean, sd)


def test_recipe_study_missing_file_says_how_to_make_it(monkeypatch, tmp_path):
    monkeypatch.setattr(recipe, "RECIPE_STUDY_FILE", tmp_path / "none.csv")
    with pytest.raises(FileNotFoundError, match="benchmarks.seed_study_recipe"):
        recipe.recipe_study()
