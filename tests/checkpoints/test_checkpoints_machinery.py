"""The checkpoint machinery on a tiny recipe trained into ``tmp_path`` (a second, not the book's checkpoints).

* ``tools.train_checkpoint.run`` writes weights and a card with every field the card promises; the
  weights are float16 and the tied matrix is stored once.
* ``nlp_helpers.checkpoints.load`` returns the model in eval mode, float32, whose logits equal the trained
  model's to float16 rounding (reference: the trained model itself), and the card; ``names`` and
  ``read_card`` find it; bad names, tampered weights and a card naming code outside the package fail clearly.
* ``retrain_prefix`` repeats the first steps of the run exactly on the same machine and kernel path, and
  ``stop_after`` keeps the full run's schedule (the learning rate at a step does not depend on it).
"""

from __future__ import annotations

import json

import pytest
import torch

from nlp_helpers import checkpoints
from nlp_helpers.llm.gpt import CharTokenizer, TinyGPT, train
from tools.train_checkpoint import Recipe, prefix_difference, retrain_prefix, run

TEXT = "to be, or not to be, that is the question: whether 'tis nobler in the mind to suffer\n" * 12


def _data():
    chars = CharTokenizer.from_text(TEXT)
    ids = torch.from_numpy(chars.encode_array(TEXT))
    cut = len(ids) * 3 // 4
    return {"chars": chars, "train": ids[:cut], "valid": ids[cut:], "card": {"train": "3/4", "valid": "1/4"}}


def _train(net, data, seed, steps, stop_after):
    return train(net, data["train"], data["valid"], steps=steps, batch_size=4, lr=3e-3, eval_every=5, seed=seed,
                 progress=False, warmup=3, cosine=True, stop_after=stop_after)  # fmt: skip


def _evaluate(net, data):
    from nlp_helpers.llm.bpc import bits_per_character

    return bits_per_character(net, data["valid"])


TINY = Recipe(
    name="tiny_gpt",
    title="a tiny TinyGPT",
    page="book/llm/gpt.ipynb",
    data=_data,
    model=lambda d: {
        "factory": "nlp_helpers.llm.gpt.TinyGPT",
        "config_class": "nlp_helpers.llm.gpt.TinyGPTConfig",
        "kwargs": {"vocab_size": d["chars"].vocab_size, "block_size": 8, "n_layers": 1, "n_heads": 2, "d_model": 16},
    },
    train=_train,
    evaluate=_evaluate,
    training={"function": "nlp_helpers.llm.gpt.train"},
    metric={"name": "bits per character", "split": "valid", "lower_is_better": True},
    steps=20,
    curve_every=5,
    prefix_steps=10,
)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    out = tmp_path_factory.mktemp("checkpoints")
    return out, run(TINY, out)


def test_run_writes_weights_and_a_complete_card(tiny) -> None:
    out, card = tiny
    assert sorted(p.name for p in out.iterdir()) == ["tiny_gpt.json", "tiny_gpt.safetensors"]
    assert json.loads((out / "tiny_gpt.json").read_text()) == card
    for key in ("model", "weights", "seed", "seed_offset", "data", "training", "steps", "curve", "metric"):
        assert key in card, key
    for key in ("package_version", "git_commit", "command", "wall_seconds", "cpu_seconds", "machine", "created"):
        assert key in card["provenance"], key
    assert card["provenance"]["command"] == "python -m tools.train_checkpoint tiny_gpt"
    assert [r["step"] for r in card["curve"]["rows"]] == [0, 5, 10, 15, 20] and card["steps"] == 20
    assert card["curve"]["rows"][0]["train_loss"] is None and card["curve"]["rows"][-1]["train_loss"] > 0
    assert card["weights"]["dtype"] == "float16"
    # float16 (2 bytes a number) and the tied embedding stored once: bytes ~ 2 x parameters
    assert card["weights"]["bytes"] < 2 * card["weights"]["parameters"] + 4096
    assert abs(card["metric"]["value"] - card["metric"]["value_float32"]) < 0.01


def test_load_returns_the_trained_model_in_eval_mode(tiny) -> None:
    out, card = tiny
    assert checkpoints.names(out) == ["tiny_gpt"]
    assert checkpoints.read_card("tiny_gpt", out) == card
    model, loaded_card = checkpoints.load("tiny_gpt", out)
    assert loaded_card == card and isinstance(model, TinyGPT) and not model.training
    assert all(p.dtype == torch.float32 for p in model.parameters())
    assert model.lm_head.weight is model.tok_emb.weight  # the tie survives loading
    # the reference: the same recipe trained again here, in float32 (one thread: bitwise the same run)
    torch.set_num_threads(1)
    data = TINY.data()
    from nlp_helpers import seeds

    seeds.manual_seed(0)
    again = TinyGPT(model.config)
    TINY.train(again, data, seed=0, steps=20, stop_after=None)
    x = data["valid"][None, :8]
    with torch.no_grad():
        gap = (model(x) - again(x)).abs().max().item()
    assert 0 < gap < 5e-3  # float16 rounding of the weights: measured ~1e-4, never 0
    assert abs(_evaluate(model, data) - card["metric"]["value"]) < 1e-6


def test_retraining_the_prefix_repeats_the_curve(tiny) -> None:
    out, card = tiny
    again = retrain_prefix(card, TINY)
    assert [r["step"] for r in again] == [0, 5, 10]
    assert again == card["curve"]["rows"][:3]  # same machine, same kernels, one thread: exactly
    assert prefix_difference(card, TINY) == 0.0


def test_retraining_ignores_the_readers_seed_offset(tiny, monkeypatch) -> None:
    out, card = tiny
    monkeypatch.setenv("NLP_SEED_OFFSET", "5")
    assert retrain_prefix(card, TINY) == card["curve"]["rows"][:3]
    import os

    assert os.environ["NLP_SEED_OFFSET"] == "5"  # put back


def test_another_seed_breaks_the_prefix(tiny) -> None:
    """What the provenance test would see from weights made otherwise: a loss difference above its 1e-3."""
    out, card = tiny
    assert prefix_difference(dict(card, seed=card["seed"] + 1), TINY) > 1e-3  # measured: 0.0097


def test_stop_after_keeps_the_schedule_of_the_full_run() -> None:
    data = TINY.data()
    curves = []
    for steps, stop in ((20, 10), (10, None)):
        torch.manual_seed(0)
        net = checkpoints.build_model(TINY.model(data))
        curves.append(_train(net, data, 0, steps, stop))
    assert [r["step"] for r in curves[0]] == [r["step"] for r in curves[1]] == [0, 5, 10]
    # the cosine of a 20-step run is still high at step 10; a 10-step run has decayed: other losses
    assert curves[0][1]["train_loss"] == curves[1][1]["train_loss"]  # warm-up: the same first steps
    assert curves[0][2]["train_loss"] != curves[1][2]["train_loss"]


def test_bad_names_and_files_fail_clearly(tiny, tmp_path) -> None:
    out, card = tiny
    with pytest.raises(ValueError, match="name: no checkpoint 'nope'"):
        checkpoints.load("nope", out)
    with pytest.raises(TypeError, match="name must be a str"):
        checkpoints.load(3, out)
    with pytest.raises(FileNotFoundError, match="directory"):
        checkpoints.names(tmp_path / "missing")
    for f in out.iterdir():
        (tmp_path / f.name).write_bytes(f.read_bytes())
    weights = tmp_path / "tiny_gpt.safetensors"
    weights.write_bytes(weights.read_bytes()[:-8] + b"\0" * 8)
    with pytest.raises(ValueError, match="does not match its card"):
        checkpoints.load("tiny_gpt", tmp_path)
    weights.write_bytes((out / "tiny_gpt.safetensors").read_bytes())
    bad = dict(card, model={**card["model"], "factory": "os.system"})
    (tmp_path / "tiny_gpt.json").write_text(json.dumps(bad))
    with pytest.raises(ValueError, match="public name inside nlp_helpers"):
        checkpoints.load("tiny_gpt", tmp_path)
    with pytest.raises(ValueError, match="factory"):
        checkpoints.build_model({"kwargs": {}})
    (tmp_path / "tiny_gpt.json").write_text(json.dumps({"format": 1}))
    with pytest.raises(ValueError, match="not a format-1 card"):
        checkpoints.read_card("tiny_gpt", tmp_path)


def test_a_classifiers_card_carries_its_unit_accuracy_curve_and_more_metrics(tmp_path) -> None:
    """``curve_unit``, a curve's ``valid_accuracy`` and ``more_metrics`` reach the card (reference: the
    recipe's own rows and a second evaluation of the stored weights)."""
    import dataclasses

    def _train_with_accuracy(net, data, seed, steps, stop_after):
        rows = _train(net, data, seed, steps, stop_after)
        return [dict(r, valid_accuracy=0.5 + r["step"] / 100) for r in rows]

    rec = dataclasses.replace(
        TINY,
        train=_train_with_accuracy,
        curve_unit="nats per snippet",
        more_metrics=lambda net, data: {"dev bits": _evaluate(net, data) + 1.0},
    )
    card = run(rec, tmp_path)
    assert card["curve"]["unit"] == "nats per snippet"
    assert [r["valid_accuracy"] for r in card["curve"]["rows"]] == [0.5, 0.55, 0.6, 0.65, 0.7]
    assert card["metric"]["more"]["dev bits"] == pytest.approx(card["metric"]["value"] + 1.0, abs=1e-6)
    # without them the card is as before
    plain = run(TINY, tmp_path / "plain")
    assert "more" not in plain["metric"] and "valid_accuracy" not in plain["curve"]["rows"][-1]
